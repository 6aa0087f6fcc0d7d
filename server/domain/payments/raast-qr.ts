/**
 * The payment QR a Pakistani banking or wallet app scans to pre-fill a Raast transfer to an NGO's IBAN.
 *
 * There is no public Raast specification, so the layout is the one public samples show (decision 023 lists
 * them with their sources). Two layouts are in use in Pakistan, both TLV strings (ID 2 digits, length 2 digits,
 * value) closed by a CRC-16/CCITT-FALSE:
 *
 * - The IBAN-based P2P QR (SBP's person-to-person standard, 2022; SBP says 25 banks show one on every customer
 *   account). Payload format "02", not EMVCo's "01":
 *     00 "02" · 01 "11" static | "12" dynamic · 02 "00" (scheme identifier) · 04 IBAN (24)
 *     · 05 amount (dynamic only) · 07 expiry DDMMYYYYhhmm, Pakistan time (dynamic only) · 10 CRC (4 hex)
 *   Samples from UBL (reported scanned by UBL Digital: zulkefal/QRPayments, packages/core/test/payload.test.js and
 *   docs/scan-testing.md), HBL (niaz2016/yaqeenpay, Backend/TechTorio.Application/Features/Wallets/Services/
 *   QrCodeService.cs), JazzCash (a test calling it "scanner-confirmed"), Soneri and Telenor Microfinance IBANs,
 *   and the QR reader of First Touch Banking's iOS app (ScanReader_VC.swift), all use exactly this layout.
 * - The EMVCo Merchant-Presented Mode QR (P2M), for merchants an acquirer has onboarded: payload format "01",
 *   a merchant account template in 26–51 (a Bank Alfalah merchant QR in github.com/DannielWhatever/emvqr/issues/14
 *   carries 28 → 00 a 32-hex identifier, 01 the BIC, 02 the IBAN), then 52 MCC, 53 "586", 58 "PK", 59 name,
 *   60 city, 63 CRC. The template's identifier is issued per merchant (two samples carry different ones), so we
 *   cannot make a valid one for an NGO. EMVCo's own example payload (MPM specification, CRC A13A) pins the CRC down:
 *   computed over UTF-8 bytes, with lengths counted in characters.
 *
 * `raastPayload` therefore builds the P2P layout. It carries no account title, city or reference: the layout has
 * no field for them, and a field a bank app does not expect may make it refuse the code (First Touch Banking's
 * reader even tells static from dynamic by the payload's length). The title and the pledge code are printed
 * beside the QR; the account number text stays the source of truth.
 *
 * `parseEmvTlv` reads both layouts (and EMVCo's nested templates) and checks the CRC; the tests use it, and it
 * helps when someone pastes the text a scanner app showed.
 */

/** ISO 13616 registry entry for Pakistan: PK, 2 check digits, 4-letter bank code, 16 alphanumerics (24 chars). */
const PK_IBAN = /^PK\d{2}[A-Z]{4}[A-Z0-9]{16}$/;

/** The IBAN as the payload carries it (no spaces, upper case), or null when it is not a valid Pakistani IBAN. */
export function normalizeIban(text: string): string | null {
  const iban = text.replace(/\s+/g, "").toUpperCase();
  if (!PK_IBAN.test(iban)) return null;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1 ? iban : null;
}

export function isPakistaniIban(text: string): boolean {
  return normalizeIban(text) !== null;
}

/** ISO 7064 MOD 97-10 of an IBAN rearranged (letters as 10–35), in chunks so no number outgrows a double. */
function mod97(rearranged: string): number {
  let rest = 0;
  for (const char of rearranged) {
    const code = char >= "A" ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of code) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest;
}

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) over the UTF-8 bytes, as 4 upper-case
 * hex digits. Both layouts use it over everything up to and including the CRC field's own ID and length.
 */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

export interface RaastQrInput {
  /** The NGO's IBAN, in any spacing or case; an invalid one throws (callers check with isPakistaniIban first). */
  iban: string;
  /** Whole rupees. With an amount the QR is dynamic ("12") and carries an expiry; without, static ("11"). */
  amount?: number;
  /** When a dynamic QR stops being payable; by default 23:59 Pakistan time on the day after `now`. */
  expiresAt?: Date;
  /** The clock, for the default expiry. */
  now?: Date;
}

/** EMVCo caps an amount (tag 54) at 13 characters; the P2P layout states no cap, so we keep EMVCo's. */
const MAX_AMOUNT_DIGITS = 13;

/** Pakistan Standard Time is UTC+5 all year (no daylight saving), so a fixed offset is exact. */
const PKT_OFFSET_MS = 5 * 60 * 60 * 1000;

/** The P2P payload for an IBAN and an optional amount. Throws a plain Error for an invalid IBAN or amount. */
export function raastPayload(input: RaastQrInput): string {
  const iban = normalizeIban(input.iban);
  if (!iban) throw new Error("raastPayload: not a valid Pakistani IBAN");
  const dynamic = input.amount !== undefined;
  let fields = tlv("00", "02") + tlv("01", dynamic ? "12" : "11") + tlv("02", "00") + tlv("04", iban);
  if (dynamic) {
    const amount = input.amount as number;
    // Whole rupees as plain digits ("1500"): what every public P2P sample carries; no paisas, no grouping.
    if (!Number.isSafeInteger(amount) || amount <= 0 || String(amount).length > MAX_AMOUNT_DIGITS) {
      throw new Error("raastPayload: the amount must be a positive whole number of rupees");
    }
    const expiresAt = input.expiresAt ?? defaultExpiry(input.now ?? new Date());
    if (Number.isNaN(expiresAt.getTime())) throw new Error("raastPayload: invalid expiry");
    // Dynamic samples always carry 07; First Touch Banking's reader assumes it is there.
    fields += tlv("05", String(amount)) + tlv("07", pakistanTime(expiresAt));
  }
  const withCrcHeader = fields + "1004";
  return withCrcHeader + crc16ccitt(withCrcHeader);
}

/** 23:59 Pakistan time on the calendar day (in Pakistan) after `now`. */
function defaultExpiry(now: Date): Date {
  const local = new Date(now.getTime() + PKT_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1, 23, 59) - PKT_OFFSET_MS);
}

/** DDMMYYYYhhmm on Pakistan's wall clock, as the samples' tag 07 (e.g. "280820262359"). */
function pakistanTime(date: Date): string {
  const local = new Date(date.getTime() + PKT_OFFSET_MS);
  const two = (n: number) => String(n).padStart(2, "0");
  return (
    two(local.getUTCDate()) +
    two(local.getUTCMonth() + 1) +
    String(local.getUTCFullYear()) +
    two(local.getUTCHours()) +
    two(local.getUTCMinutes())
  );
}

function tlv(id: string, value: string): string {
  const length = Array.from(value).length;
  if (length > 99) throw new Error(`field ${id} is longer than 99 characters`);
  return id + String(length).padStart(2, "0") + value;
}

/** EMVCo MPM IDs whose value is itself a TLV list: merchant account information, additional data, language, unreserved. */
function isEmvTemplate(id: number): boolean {
  return (id >= 26 && id <= 51) || id === 62 || id === 64 || (id >= 80 && id <= 99);
}

/**
 * Reads a payload of either layout into its fields, checking the framing and the CRC; throws a plain Error when
 * either is wrong. Keys are the 2-digit IDs; for EMVCo payloads, a template's fields are also there as "28.01",
 * "62.05" and so on. Lengths count characters, not bytes (the EMVCo sample's Chinese name shows it).
 */
export function parseEmvTlv(payload: string): Map<string, string> {
  const top = readTlv(payload);
  const format = top[0];
  if (!format || format.id !== "00") throw new Error("the payload does not start with its format indicator (00)");
  // EMVCo MPM closes with 63; Pakistan's P2P layout (format "02") with 10.
  const crcId = format.value === "01" ? "63" : format.value === "02" ? "10" : null;
  if (!crcId) throw new Error(`unknown payload format ${format.value}`);
  const last = top[top.length - 1];
  if (last.id !== crcId || last.value.length !== 4) throw new Error(`the payload does not end with its CRC (${crcId}04…)`);
  const expected = crc16ccitt(payload.slice(0, payload.length - 4));
  if (last.value.toUpperCase() !== expected) throw new Error(`CRC mismatch: the payload says ${last.value}, its content gives ${expected}`);

  const fields = new Map<string, string>();
  for (const { id, value } of top) {
    fields.set(id, value);
    if (format.value === "01" && isEmvTemplate(Number(id))) {
      const nested = tryReadTlv(value);
      for (const sub of nested ?? []) fields.set(`${id}.${sub.id}`, sub.value);
    }
  }
  return fields;
}

interface Field {
  id: string;
  value: string;
}

function readTlv(text: string): Field[] {
  const chars = Array.from(text);
  const fields: Field[] = [];
  const seen = new Set<string>();
  let at = 0;
  while (at < chars.length) {
    const id = chars.slice(at, at + 2).join("");
    const length = chars.slice(at + 2, at + 4).join("");
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(length)) throw new Error(`malformed field at character ${at}`);
    const end = at + 4 + Number(length);
    if (end > chars.length) throw new Error(`field ${id} runs past the end of the payload`);
    if (seen.has(id)) throw new Error(`field ${id} appears twice`);
    seen.add(id);
    fields.push({ id, value: chars.slice(at + 4, end).join("") });
    at = end;
  }
  return fields;
}

function tryReadTlv(text: string): Field[] | null {
  try {
    return readTlv(text);
  } catch {
    return null;
  }
}
