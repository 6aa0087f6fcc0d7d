import { describe, it, expect } from "vitest";
import sharp from "sharp";
import jsQR from "jsqr";
import { crc16ccitt, isPakistaniIban, normalizeIban, parseEmvTlv, raastPayload } from "#server/domain/payments/raast-qr.ts";
import { qrMatrix, qrSvg } from "#server/domain/payments/qr-image.ts";

/**
 * The Raast payment QR (decision 023). The samples are public payloads; where each came from is in the decision
 * record. A P2P sample is [payload, IBAN, amount, expiry] when its inputs are known.
 */
const P2P_SAMPLES: { source: string; payload: string; iban?: string; amount?: number; expiresAt?: string }[] = [
  {
    source: "UBL IBAN, reported scanned by UBL Digital on 2026-08-27",
    payload: "0002020102120202000424PK51UNIL010900026245684505031000712280820262359100414E2",
    iban: "PK51UNIL0109000262456845",
    amount: 100,
    expiresAt: "2026-08-28T23:59+05:00",
  },
  {
    source: "JazzCash IBAN, reported scanner-confirmed",
    payload: "0002020102120202000424PK53JCMA300392300108819405041109071219082026083210042F66",
    iban: "PK53JCMA3003923001088194",
    amount: 1109,
    expiresAt: "2026-08-19T08:32+05:00",
  },
  {
    source: "Telenor Microfinance (Easypaisa) IBAN, a test's reference dynamic QR",
    payload: "0002020102120202000424PK61TMFB0000000098214843050350007120205202618571004782A",
    iban: "PK61TMFB0000000098214843",
    amount: 500,
    expiresAt: "2026-05-02T18:57+05:00",
  },
  {
    source: "Soneri IBAN, a P2P parser's input",
    payload: "0002020102120202000424PK38SONE002422000942359205042500071225102023161010043071",
    iban: "PK38SONE0024220009423592",
    amount: 2500,
    expiresAt: "2023-10-25T16:10+05:00",
  },
  // HBL: five payloads listed in a QR service's comment, with their amounts and expiry days.
  {
    source: "HBL IBAN, Rs 100",
    payload: "0002020102120202000424PK79HABB0164030042945446050310007121510202511591004CF51",
    iban: "PK79HABB0164030042945446",
    amount: 100,
    expiresAt: "2025-10-15T11:59+05:00",
  },
  {
    source: "HBL IBAN, Rs 9999",
    payload: "0002020102120202000424PK79HABB01640300429454460504999907121510202511591004D815",
    iban: "PK79HABB0164030042945446",
    amount: 9999,
    expiresAt: "2025-10-15T11:59+05:00",
  },
  {
    source: "HBL IBAN, Rs 1000",
    payload: "0002020102120202000424PK79HABB0164030042945446050410000712151020251159100424E7",
    iban: "PK79HABB0164030042945446",
    amount: 1000,
    expiresAt: "2025-10-15T11:59+05:00",
  },
  {
    source: "HBL IBAN, Rs 500",
    payload: "0002020102120202000424PK79HABB01640300429454460503500071203112025115910047070",
    iban: "PK79HABB0164030042945446",
    amount: 500,
    expiresAt: "2025-11-03T11:59+05:00",
  },
  {
    source: "HBL IBAN, Rs 10000",
    payload: "0002020102120202000424PK79HABB016403004294544605051000007121510202511591004BAEE",
    iban: "PK79HABB0164030042945446",
    amount: 10000,
    expiresAt: "2025-10-15T11:59+05:00",
  },
  {
    source: "sendkardo-qr's static vector",
    payload: "0002020102110202000424PK33ABCD00000000000000001004BA20",
    iban: "PK33ABCD0000000000000000",
  },
  {
    source: "sendkardo-qr's dynamic vector",
    payload: "0002020102120202000424PK33ABCD0000000000000000050350007123112202623591004EC99",
    iban: "PK33ABCD0000000000000000",
    amount: 500,
    expiresAt: "2026-12-31T23:59+05:00",
  },
  // Paisas ("5000.50"): we only make whole rupees, so this one is checked for its CRC and fields only.
  {
    source: "sendkardo-qr's vector with paisas",
    payload: "0002020102120202000424PK33ABCD000000000000000005075000.50071231122026183010041E4C",
  },
  // First Touch Banking's QR reader (iOS) keeps these as its test inputs. Their IBAN fails the mod-97 check (it was
  // probably altered before publishing), so we cannot rebuild them; their CRCs are right.
  { source: "First Touch Banking reader, static", payload: "0002020102110202000424PK77UNIL010900023785421010049FBB" },
  {
    source: "First Touch Banking reader, dynamic",
    payload: "0002020102120202000424PK77UNIL010900023785421005045000071230062022145810042007",
  },
];

/** EMVCo MPM payloads: EMVCo's own example, and two Pakistani merchant (P2M) QRs. */
const EMV_SAMPLES = {
  emvco:
    "00020101021229300012D156000000000510A93FO3230Q31280012D15600000001030812345678520441115802CN5914BEST TRANSPORT6007BEIJING" +
    "64200002ZH0104最佳运输0202北京540523.7253031565502016233030412340603***0708A60086670902ME91320016A0112233449988770708123456786304A13A",
  alfalahMerchant:
    "0002010102110216429975000027082904150000000000013412876003231036b0edd21412ebb229b0a2448f56a0108ALFHPKKA" +
    "0224PK03ALFH00110010091230165204541153035865802PK5909SATRADERS6007Karachi6304E067",
  p2mExample:
    "00020101021202164000123456789012041653451234567890121516634512345678901227420010A0000007360124PK73FAYS3555390000000000" +
    "5204599953035865802PK5916AZIZGeneralStore6007KARACHI62890117234567854321234560211032400000000316AZIZGeneralStore" +
    "05131238765432123071245678909876563045376",
};

describe("CRC-16/CCITT-FALSE", () => {
  it("gives the catalogue's check value for 123456789", () => {
    expect(crc16ccitt("123456789")).toBe("29B1");
  });

  it("matches the last 4 characters of every public sample, over everything before them", () => {
    const all = [...P2P_SAMPLES.map((s) => s.payload), ...Object.values(EMV_SAMPLES)];
    expect(all.length).toBe(17);
    for (const payload of all) expect(crc16ccitt(payload.slice(0, -4)), payload).toBe(payload.slice(-4));
  });
});

describe("the P2P payload", () => {
  it("equals each public sample byte for byte when given the sample's IBAN, amount and expiry", () => {
    const known = P2P_SAMPLES.filter((s) => s.iban);
    expect(known.length).toBe(11);
    for (const s of known) {
      const payload = raastPayload({ iban: s.iban!, amount: s.amount, expiresAt: s.expiresAt ? new Date(s.expiresAt) : undefined });
      expect(payload, s.source).toBe(s.payload);
    }
  });

  it("lays out exactly the fields the samples carry, static without an amount and dynamic with one", () => {
    const still = parseEmvTlv(raastPayload({ iban: "pk36 scbl 0000 0011 2345 6702" }));
    expect([...still]).toEqual([
      ["00", "02"],
      ["01", "11"],
      ["02", "00"],
      ["04", "PK36SCBL0000001123456702"],
      ["10", still.get("10")],
    ]);
    const priced = parseEmvTlv(
      raastPayload({ iban: "PK36SCBL0000001123456702", amount: 1500, expiresAt: new Date("2026-11-25T23:59+05:00") }),
    );
    expect([...priced.keys()]).toEqual(["00", "01", "02", "04", "05", "07", "10"]);
    expect(priced.get("01")).toBe("12");
    expect(priced.get("05")).toBe("1500");
    expect(priced.get("07")).toBe("251120262359");
  });

  it("expires at 23:59 Pakistan time the next Pakistani day by default, across the year's end", () => {
    // 20:00 UTC on 31 December is already 1 January in Pakistan (UTC+5).
    const payload = raastPayload({ iban: "PK36SCBL0000001123456702", amount: 10, now: new Date("2026-12-31T20:00:00Z") });
    expect(parseEmvTlv(payload).get("07")).toBe("020120272359");
    const ubl = P2P_SAMPLES[0];
    expect(raastPayload({ iban: ubl.iban!, amount: ubl.amount, now: new Date("2026-08-27T12:00+05:00") })).toBe(ubl.payload);
  });

  it("refuses an invalid IBAN or an amount that is not a positive whole number of rupees", () => {
    expect(() => raastPayload({ iban: "PK37SCBL0000001123456702" })).toThrow(/IBAN/);
    expect(() => raastPayload({ iban: "" })).toThrow(/IBAN/);
    for (const amount of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 10 ** 13]) {
      expect(() => raastPayload({ iban: "PK36SCBL0000001123456702", amount }), String(amount)).toThrow(/amount/);
    }
    expect(() => raastPayload({ iban: "PK36SCBL0000001123456702", amount: 5, expiresAt: new Date("not a date") })).toThrow(/expiry/);
  });

  it("is plain ASCII whatever is typed around the IBAN", () => {
    const payload = raastPayload({ iban: "\u00a0pk36\tscbl 0000 0011 2345 6702\n", amount: 250 });
    expect(payload).toMatch(/^[0-9A-Z]+$/);
    expect(parseEmvTlv(payload).get("04")).toBe("PK36SCBL0000001123456702");
  });
});

describe("reading a payload", () => {
  it("reads EMVCo merchant QRs with their nested templates", () => {
    const alfalah = parseEmvTlv(EMV_SAMPLES.alfalahMerchant);
    expect(alfalah.get("28.00")).toBe("31036b0edd21412ebb229b0a2448f56a");
    expect(alfalah.get("28.01")).toBe("ALFHPKKA");
    expect(alfalah.get("28.02")).toBe("PK03ALFH0011001009123016");
    expect([alfalah.get("52"), alfalah.get("53"), alfalah.get("58"), alfalah.get("59"), alfalah.get("60")]).toEqual([
      "5411",
      "586",
      "PK",
      "SATRADERS",
      "Karachi",
    ]);
    expect(parseEmvTlv(EMV_SAMPLES.p2mExample).get("27.01")).toBe("PK73FAYS3555390000000000");
    const emvco = parseEmvTlv(EMV_SAMPLES.emvco);
    expect(emvco.get("59")).toBe("BEST TRANSPORT");
    expect(emvco.get("64.01")).toBe("最佳运输");
    expect(emvco.get("54")).toBe("23.72");
  });

  it("refuses a tampered amount, a cut-off payload, a repeated field and an unknown format", () => {
    const ubl = P2P_SAMPLES[0].payload;
    expect(() => parseEmvTlv(ubl.replace("0503100", "0503900"))).toThrow(/CRC mismatch/);
    expect(() => parseEmvTlv(ubl.slice(0, -6))).toThrow();
    const twice = "0002020102110202000202001004";
    expect(() => parseEmvTlv(twice + crc16ccitt(twice))).toThrow(/twice/);
    const unknown = "0002031004";
    expect(() => parseEmvTlv(unknown + crc16ccitt(unknown))).toThrow(/format/);
  });
});

describe("Pakistani IBANs", () => {
  it("accepts valid ones in any spacing or case", () => {
    for (const iban of [
      "PK36SCBL0000001123456702",
      "pk36 scbl 0000 0011 2345 6702",
      "PK51UNIL0109000262456845",
      "PK03ALFH0011001009123016",
    ]) {
      expect(isPakistaniIban(iban), iban).toBe(true);
    }
    expect(normalizeIban(" pk36 SCBL 0000 0011 2345 6702 ")).toBe("PK36SCBL0000001123456702");
  });

  it("refuses a wrong check digit, a wrong length, another country and a malformed bank code", () => {
    for (const iban of [
      "PK37SCBL0000001123456702", // check digits off by one
      "PK36SCBL0000001123456720", // two digits swapped
      "PK77UNIL0109000237854210", // the First Touch Banking sample's IBAN
      "PK36SCBL000000112345670",
      "PK36SCBL00000011234567021",
      "GB82WEST12345698765432",
      "PK36SC1L0000001123456702",
      "",
      "PK",
    ]) {
      expect(isPakistaniIban(iban), iban).toBe(false);
      expect(normalizeIban(iban)).toBeNull();
    }
  });
});

/** Renders the SVG to pixels and decodes it with jsQR, a decoder that shares no code with the encoder. */
async function decodeSvg(svg: string): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 300 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe("the QR image", () => {
  const iban = "PK36SCBL0000001123456702";

  it("decodes, from the rendered SVG, to the payload with a valid CRC and the right fields", async () => {
    const payload = raastPayload({ iban, amount: 1500, expiresAt: new Date("2026-11-30T23:59+05:00") });
    const decoded = await decodeSvg(await qrSvg(payload, { label: "Pay Rs 1,500 to Edhi Foundation" }));
    expect(decoded).toBe(payload);
    // The P2P layout has no currency (53), country (58) or name (59) fields: Raast is PKR-only and domestic, and
    // the payer's bank shows the account title it looks up. What it does carry must be right.
    const fields = parseEmvTlv(decoded!);
    expect(fields.get("00")).toBe("02");
    expect(fields.get("01")).toBe("12");
    expect(fields.get("04")).toBe(iban);
    expect(fields.get("05")).toBe("1500");
    expect(fields.get("07")).toBe("301120262359");
    const still = raastPayload({ iban });
    expect(await decodeSvg(await qrSvg(still))).toBe(still);
  });

  it("decodes from the module matrix a PDF would draw", () => {
    const payload = raastPayload({ iban, amount: 25000, expiresAt: new Date("2026-12-01T12:00+05:00") });
    const matrix = qrMatrix(payload);
    expect((matrix.size - 17) % 4).toBe(0); // 21, 25, 29, … modules: a real QR version
    const scale = 8;
    const side = (matrix.size + 8) * scale;
    const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / scale) - 4;
        const col = Math.floor(x / scale) - 4;
        if (row < 0 || col < 0 || row >= matrix.size || col >= matrix.size || !matrix.dark(row, col)) continue;
        pixels.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
      }
    }
    expect(jsQR(pixels, side, side)?.data).toBe(payload);
  });

  it("is an accessible, script-free SVG whose title survives Urdu, markup and control characters", async () => {
    const payload = raastPayload({ iban, amount: 700 });
    const svg = await qrSvg(payload, { label: 'ایدھی فاؤنڈیشن <script>alert("x")</script>\u0007 & co' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*role="img"/);
    expect(svg).toContain("<title>ایدھی فاؤنڈیشن &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</title>");
    expect(svg).not.toMatch(/<script|href=|on\w+=|\u0007/);
    const matrix = qrMatrix(payload);
    expect(svg).toContain(`viewBox="0 0 ${matrix.size + 8} ${matrix.size + 8}"`); // the 4-module quiet zone
    expect(await decodeSvg(svg)).toBe(payload);
    expect(await qrSvg(payload)).toContain("<title>Payment QR code</title>");
  });
});
