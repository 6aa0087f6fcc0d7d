import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { recordCheck } from "#server/domain/admin/checks.ts";
import { asAdmin } from "#tests/helpers/actors.ts";
import type { TestServices } from "#tests/helpers/services.ts";

/**
 * The donor's statements page and its PDFs through the real app (decision 052): the years as plain links, each PDF in
 * the language asked, only ever the signed-in donor's own gifts, and a clear 404 for anything else.
 */
let s: TestServices;
let t: TestApp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-statement-http-"));

withWholeApp((app) => ({ s, t } = app));
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const pkt = (local: string) => new Date(`${local}+05:00`);

function pdfText(bytes: ArrayBuffer): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, Buffer.from(bytes));
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

describe("/dvh/statements", () => {
  it("lists the donor's fiscal and Hijri years with plain links to their PDFs, in English and in Urdu", async () => {
    const donor = await makeUser(s.db, "donor");
    const ngo = await makeUser(s.db, "ngo", { name: "Thar Water Trust" });
    const campaign = await makeCampaign(s.db, ngo.id, { title: "Wells in Thar" });
    await makeDonation(s.db, campaign, donor.id, {
      status: "approved",
      amount: 2_500,
      fund: "zakat",
      decidedAt: pkt("2025-09-10T11:00:00"),
      receiptNumber: 1,
    });
    await makeDonation(s.db, campaign, donor.id, {
      status: "approved",
      amount: 700,
      decidedAt: pkt("2024-08-10T11:00:00"),
      receiptNumber: 2,
    });
    const cookie = await signIn(s.db, donor.id);

    const page = await t.request("/dvh/statements", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("My statements");
    expect(html).toContain('href="/dvh/statements/fiscal/2025?lang=en"');
    expect(html).toContain('href="/dvh/statements/fiscal/2025?lang=ur"');
    expect(html).toContain('href="/dvh/statements/fiscal/2024?lang=en"');
    expect(html).toContain('href="/dvh/statements/zakat/1447?lang=ur"');
    expect(html).not.toContain("/dvh/statements/zakat/1446");
    expect(html).toContain("2025–26");
    expect(html).toContain("1 donation, Rs. 2,500");
    // The donations page links to it (the tabs over the donor's records).
    expect(await (await t.request("/dvh", { cookie })).text()).toContain('href="/dvh/statements"');

    const en = await t.request("/dvh/statements/fiscal/2025?lang=en", { cookie });
    expect(en.status).toBe(200);
    expect(en.headers.get("content-type")).toBe("application/pdf");
    expect(en.headers.get("cache-control")).toBe("private, no-store");
    expect(en.headers.get("content-disposition")).toBe('attachment; filename="ek-chhat-statement-2025-26-en.pdf"');
    const enText = pdfText(await en.arrayBuffer());
    expect(enText).toContain("Yearly giving statement 2025–26");
    expect(enText).toContain("Rs. 2,500");
    expect(enText).not.toContain("Rs. 700");

    const ur = await t.request("/dvh/statements/zakat/1447?lang=ur", { cookie });
    expect(ur.status).toBe(200);
    expect(ur.headers.get("content-disposition")).toBe('attachment; filename="ek-chhat-zakat-1447AH-ur.pdf"');
    expect(pdfText(await ur.arrayBuffer())).toContain("ربیع الاول");
  });

  it("names the tax exemption the administrator had checked during the statement's year, not today's", async () => {
    const donor = await makeUser(s.db, "donor");
    const admin = await makeUser(s.db, "admin");
    const lapsed = await makeUser(s.db, "ngo", { name: "Lapsed Exemption Trust" });
    const later = await makeUser(s.db, "ngo", { name: "Later Exemption Trust" });
    for (const [ngo, receipt] of [
      [lapsed, 31],
      [later, 32],
    ] as const) {
      const campaign = await makeCampaign(s.db, ngo.id);
      await makeDonation(s.db, campaign, donor.id, {
        status: "approved",
        amount: 1_000 + receipt,
        decidedAt: pkt("2024-10-01T11:00:00"),
        receiptNumber: receipt,
      });
    }
    const tax = { kind: "tax_exemption" as const };
    // Valid through the fiscal year 2024–25, lapsed since: still named on that year's statement.
    await recordCheck(s, asAdmin(admin.id), {
      ...tax,
      ngoId: lapsed.id,
      reference: "FBR-LAPSED-2024",
      checkedOn: "2024-07-15",
      expiresOn: "2025-06-30",
    });
    // Checked only after that year: named on none of it.
    await recordCheck(s, asAdmin(admin.id), {
      ...tax,
      ngoId: later.id,
      reference: "FBR-LATER-2026",
      checkedOn: "2026-01-10",
      expiresOn: "2099-06-30",
    });
    const cookie = await signIn(s.db, donor.id);
    const res = await t.request("/dvh/statements/fiscal/2024?lang=en", { cookie });
    expect(res.status).toBe(200);
    const text = pdfText(await res.arrayBuffer());
    expect(text).toContain("Lapsed Exemption Trust");
    expect(text).toContain("Later Exemption Trust");
    expect(text).toContain("FBR-LAPSED-2024");
    expect(text).not.toContain("FBR-LATER-2026");
  });

  it("gives another donor none of it: the same addresses are their own (empty) statements, a 404", async () => {
    const donor = await makeUser(s.db, "donor");
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    await makeDonation(s.db, campaign, donor.id, {
      status: "approved",
      amount: 4_100,
      decidedAt: pkt("2025-09-10T11:00:00"),
      receiptNumber: 1,
    });
    const stranger = await signIn(s.db, (await makeUser(s.db, "donor")).id);
    const res = await t.request("/dvh/statements/fiscal/2025", { cookie: stranger });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(await res.text()).toContain("There is no statement for this year");
    const page = await (await t.request("/dvh/statements", { cookie: stranger })).text();
    expect(page).not.toContain("/dvh/statements/fiscal/2025");
    expect(page).toContain("No NGO has approved a cash donation of yours yet");
    // The NGO it was paid to is not a donor: the donor area's guard sends it home.
    const ngoRes = await t.request("/dvh/statements/fiscal/2025", { cookie: await signIn(s.db, ngo.id) });
    expect(ngoRes.status).toBe(303);
  });

  it("answers a bad kind or year with a 404, never an error", async () => {
    const cookie = await signIn(s.db, (await makeUser(s.db, "donor")).id);
    for (const p of [
      "/dvh/statements/yearly/2025",
      "/dvh/statements/fiscal/20x5",
      "/dvh/statements/fiscal/1066",
      "/dvh/statements/zakat/99999",
      "/dvh/statements/zakat/%00",
    ]) {
      const res = await t.request(p, { cookie });
      expect(res.status, p).toBe(404);
    }
    expect((await t.request("/dvh/statements/fiscal/2025?lang=fr", { cookie })).status).toBe(404);
  });
});
