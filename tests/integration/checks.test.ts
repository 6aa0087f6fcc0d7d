import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, files, ngoChecks } from "#server/db/schema.ts";
import {
  checksOfNgo,
  recordCheck,
  renewCheck,
  revokeCheck,
  standingChecks,
  taxExemptionReferences,
  type CheckValues,
} from "#server/domain/admin/checks.ts";
import { publicNgoProfile } from "#server/domain/accounts/public-profile.ts";
import { suspend } from "#server/domain/admin/vetting.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { mayRead } from "#server/domain/files/files.ts";
import { badgeStatement, checkSentence } from "#shared/checks.ts";
import { compactBadge, compactCheckLabel } from "#shared/check-badge.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { asAdmin, asDonor, asNgo, asRider } from "#tests/helpers/actors.ts";
import { asSessionUser, makeCampaign, makePdf, makeUser } from "#tests/helpers/factories.ts";
import { failure, failureKind } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/** What an NGO's vetting records and the badge it earns (decision 051), on both databases. */
let s: TestServices;
let admin: Awaited<ReturnType<typeof makeUser>>;
const today = pakistanToday();
/** A moment `days` after now: time moved, not slept. */
const later = (days: number) => new Date(Date.now() + days * 86_400_000);
/** A statement's period of one day. */
const day = (d: string) => ({ from: d, to: d });

beforeAll(async () => {
  s = await createTestServices();
  admin = await makeUser(s.db, "admin");
});
afterAll(async () => s.close());

const registration = (ngoId: string, extra: Partial<CheckValues> = {}): CheckValues => ({
  ngoId,
  kind: "registration",
  authority: "sindh_charity_commission",
  reference: "SCC/KAR/0457",
  checkedOn: today,
  ...extra,
});
const taxExemption = (ngoId: string, extra: Partial<CheckValues> = {}): CheckValues => ({
  ngoId,
  kind: "tax_exemption",
  reference: "FBR/2(36)/KHI/0457",
  checkedOn: today,
  expiresOn: addDays(today, 30),
  ...extra,
});
const pdf = () => new File([new Uint8Array(makePdf("Certificate"))], "certificate.pdf", { type: "application/pdf" });
const png = async () =>
  new File(
    [
      new Uint8Array(
        await sharp({ create: { width: 30, height: 20, channels: 3, background: "#0a0" } })
          .png()
          .toBuffer(),
      ),
    ],
    "scan.png",
  );
const rowsOf = (ngoId: string) => s.db.select().from(ngoChecks).where(eq(ngoChecks.ngoId, ngoId));

describe("recording a check", () => {
  it("keeps what was checked, the day, who checked it and a private document, with its audit entry", async () => {
    const ngo = await makeUser(s.db, "ngo", { verification: "pending" });
    const regId = await recordCheck(s, asAdmin(admin.id), registration(ngo.id, { document: pdf() }));
    const taxId = await recordCheck(s, asAdmin(admin.id), taxExemption(ngo.id, { document: await png() }));

    const { checks } = await checksOfNgo(s.db, asAdmin(admin.id), ngo.id);
    expect(checks.map((c) => [c.id, c.kind, c.state, c.checkedByEmail])).toEqual(
      expect.arrayContaining([
        [regId, "registration", "standing", admin.email],
        [taxId, "tax_exemption", "standing", admin.email],
      ]),
    );
    const reg = checks.find((c) => c.id === regId)!;
    expect(reg).toMatchObject({ authority: "sindh_charity_commission", reference: "SCC/KAR/0457", checkedOn: today, expiresOn: null });
    expect(reg.documentKey).toMatch(/^check\/[0-9a-f-]{36}\.pdf$/);
    // The picture is re-encoded like every picture; both are files of kind `check`.
    const tax = checks.find((c) => c.id === taxId)!;
    expect(tax.documentKey).toMatch(/^check\/[0-9a-f-]{36}\.webp$/);
    const stored = await s.db.select().from(files).where(eq(files.key, reg.documentKey!));
    expect(stored[0]).toMatchObject({ kind: "check", contentType: "application/pdf" });

    // The document is the administrator's alone: not the NGO's, not a donor's, not a stranger's.
    const file = { key: reg.documentKey!, kind: "check" as const, ownerId: admin.id };
    expect(await mayRead(s.db, file, asSessionUser(admin, "admin"))).toBe(true);
    expect(await mayRead(s.db, file, asSessionUser(await makeUser(s.db, "admin"), "admin"))).toBe(true);
    expect(await mayRead(s.db, file, asSessionUser(ngo, "ngo"))).toBe(false);
    expect(await mayRead(s.db, file, asSessionUser(await makeUser(s.db, "donor"), "donor"))).toBe(false);
    expect(await mayRead(s.db, file, null)).toBe(false);

    const audit = await s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, ngo.id), eq(auditLog.action, "check.recorded")));
    expect(audit.map((a) => a.details.checkId).sort()).toEqual([regId, taxId].sort());
    expect(audit.every((a) => a.actorId === admin.id)).toBe(true);
  });

  it("refuses what the kind's rules refuse, naming the field, and writes nothing", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const refused = async (values: CheckValues) => failure(recordCheck(s, asAdmin(admin.id), values));
    expect(await refused(registration(ngo.id, { authority: undefined }))).toMatchObject({ kind: "invalid", field: "authority" });
    expect(await refused(registration(ngo.id, { authority: "other" }))).toMatchObject({ kind: "invalid", field: "authorityName" });
    expect(await refused(registration(ngo.id, { authority: "other", authorityName: "   " }))).toMatchObject({ field: "authorityName" });
    expect(await refused(taxExemption(ngo.id, { expiresOn: undefined }))).toMatchObject({ kind: "invalid", field: "expiresOn" });
    expect(await refused({ ...taxExemption(ngo.id), kind: "pcp", expiresOn: undefined })).toMatchObject({ field: "expiresOn" });
    expect(await refused(taxExemption(ngo.id, { expiresOn: addDays(today, -1) }))).toMatchObject({
      field: "expiresOn",
      message: "checks:errors.expiryBeforeCheck",
    });
    expect(await refused(registration(ngo.id, { checkedOn: addDays(today, 1) }))).toMatchObject({
      field: "checkedOn",
      message: "checks:errors.checkedInFuture",
    });
    expect(await refused(registration(ngo.id, { checkedOn: "2026-02-30" }))).toMatchObject({ field: "checkedOn" });
    expect(await refused(registration(ngo.id, { reference: "  " }))).toMatchObject({ field: "reference" });
    const text = new File([new TextEncoder().encode("<script>alert(1)</script>")], "x.pdf", { type: "application/pdf" });
    expect(await refused(registration(ngo.id, { document: text }))).toMatchObject({
      field: "document",
      message: "checks:errors.documentInvalid",
    });
    // Only an NGO's account, waiting or verified, has checks.
    const donor = await makeUser(s.db, "donor");
    const rejected = await makeUser(s.db, "ngo", { verification: "rejected" });
    expect(await refused(registration(donor.id))).toMatchObject({ kind: "invalid", message: "checks:errors.notAnNgo" });
    expect(await refused(registration(rejected.id))).toMatchObject({ kind: "invalid" });
    expect(await failureKind(recordCheck(s, asAdmin(admin.id), registration(crypto.randomUUID())))).toBe("not_found");
    expect(await failureKind(recordCheck(s, asAdmin(admin.id), registration("not-a-uuid")))).toBe("not_found");
    expect(await rowsOf(ngo.id)).toEqual([]);
    // A registration with another authority, named.
    await recordCheck(s, asAdmin(admin.id), registration(ngo.id, { authority: "other", authorityName: "Balochistan Charity Registrar" }));
    expect((await rowsOf(ngo.id))[0]).toMatchObject({ authority: "other", authorityName: "Balochistan Charity Registrar" });
  });

  it("is the administrator's alone: an NGO (even for itself), a donor and a rider are refused, and nothing is written", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    for (const actor of [asNgo(ngo.id), asNgo((await makeUser(s.db, "ngo")).id), asDonor(donor.id), asRider(rider.id)]) {
      expect(await failureKind(recordCheck(s, actor, taxExemption(ngo.id, { document: pdf() }))), actor.role).toBe("forbidden");
    }
    expect(await rowsOf(ngo.id)).toEqual([]);
    const id = await recordCheck(s, asAdmin(admin.id), taxExemption(ngo.id));
    expect(await failureKind(revokeCheck(s, asNgo(ngo.id), id, "no"))).toBe("forbidden");
    expect(await failureKind(renewCheck(s, asNgo(ngo.id), id, { checkedOn: today, expiresOn: addDays(today, 400) }))).toBe("forbidden");
    expect(await failureKind(checksOfNgo(s.db, asNgo(ngo.id), ngo.id))).toBe("not_found");
    expect((await rowsOf(ngo.id)).map((r) => [r.revokedAt, r.renewedAt])).toEqual([[null, null]]);
  });
});

describe("the badge", () => {
  it("says what was checked, with the number and the dates, in English and in Urdu", () => {
    const en = serverI18n("en").t;
    const ur = serverI18n("ur").t;
    const reg = {
      kind: "registration" as const,
      authority: "sindh_charity_commission" as const,
      authorityName: null,
      reference: "SCC/KAR/0457",
      checkedOn: "2026-11-12",
      expiresOn: null,
    };
    const pcp = { ...reg, kind: "pcp" as const, authority: null, reference: "PCP-318", expiresOn: "2028-06-30" };
    const tax = { ...reg, kind: "tax_exemption" as const, authority: null, reference: "FBR-0457", expiresOn: "2027-06-30" };
    expect(checkSentence(reg, en, "en")).toBe("Registered with the Sindh Charity Commission, No. SCC/KAR/0457, checked 12 Nov 2026");
    expect(checkSentence({ ...reg, authority: "other", authorityName: "Gilgit-Baltistan Registrar" }, en, "en")).toBe(
      "Registered with Gilgit-Baltistan Registrar, No. SCC/KAR/0457, checked 12 Nov 2026",
    );
    // Told in the badge's order, whatever the order given: registration, PCP, tax exemption.
    const statement = badgeStatement([tax, reg, pcp], en, "en");
    expect(statement).toBe(
      "Registered with the Sindh Charity Commission, No. SCC/KAR/0457, checked 12 Nov 2026; " +
        "Certified by the Pakistan Centre for Philanthropy (PCP), No. PCP-318, until 30 Jun 2028, checked 12 Nov 2026; " +
        "Tax-exempt: approved by FBR as a non-profit organisation under section 2(36), so donors may claim a tax credit under section 61, ref. FBR-0457, until 30 Jun 2027, checked 12 Nov 2026",
    );
    const urdu = badgeStatement([reg, tax], ur, "ur");
    expect(urdu).toContain("سندھ چیریٹی کمیشن میں رجسٹرڈ");
    expect(urdu).toContain("12 نومبر، 2026");
    expect(urdu).toContain("ٹیکس سے مستثنیٰ");
    expect(urdu).toContain("؛ ");
    // The reference, in Latin letters, is isolated inside the Urdu sentence.
    expect(urdu).toMatch(/[\u2066-\u2068]SCC\/KAR\/0457\u2069/);
    expect(compactBadge(["tax_exemption", "registration"], en)).toBe("Registered · Tax-exempt");
    expect(compactBadge(["pcp"], ur)).toBe("پی سی پی سے تصدیق شدہ");
    // The card's whole badge, written by the loader in the reader's language; none when no check stands.
    expect(compactCheckLabel(["tax_exemption", "registration"], en)).toBe("Checked by Ek Chhat: Registered · Tax-exempt");
    expect(compactCheckLabel(["registration"], ur)).toBe("ایک چھت نے جانچا: رجسٹرڈ");
    expect(compactCheckLabel([], en)).toBeNull();
  });

  it("shows the standing checks on the profile and the cards, and loses one the day after it expires", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: `Badge NGO ${Math.random()}` });
    const campaign = await makeCampaign(s.db, ngo.id, { title: `Badge campaign ${Math.random()}` });
    await recordCheck(s, asAdmin(admin.id), registration(ngo.id));
    await recordCheck(s, asAdmin(admin.id), taxExemption(ngo.id, { expiresOn: addDays(today, 10) }));

    const cardKinds = async (now?: Date) => {
      const page = await pickerCampaignsAfter(s.db, { q: campaign.title, kind: "browse" }, now);
      return page.rows.find((r) => r.id === campaign.id)!.ownerChecks;
    };
    const profileKinds = async (now?: Date) => (await publicNgoProfile(s.db, ngo.id, now)).campaigns.rows[0]!.ownerChecks;
    const kinds = async (now: Date) => (await standingChecks(s.db, [ngo.id], now)).get(ngo.id)!.map((c) => c.kind);

    expect(await kinds(new Date())).toEqual(["registration", "tax_exemption"]);
    expect((await cardKinds()).sort()).toEqual(["registration", "tax_exemption"]);
    expect((await profileKinds()).sort()).toEqual(["registration", "tax_exemption"]);
    // Its last day still counts; the day after, it is gone everywhere (computed against the day, no stale flag).
    expect(await kinds(later(10))).toEqual(["registration", "tax_exemption"]);
    expect(await kinds(later(11))).toEqual(["registration"]);
    expect(await cardKinds(later(11))).toEqual(["registration"]);
    expect(await profileKinds(later(11))).toEqual(["registration"]);
    expect(await taxExemptionReferences(s.db, [ngo.id], day(addDays(today, 11)))).toEqual(new Map());
    // A statement of a period the approval covered still names it after it lapsed.
    expect(await taxExemptionReferences(s.db, [ngo.id], { from: addDays(today, 5), to: addDays(today, 40) })).toEqual(
      new Map([[ngo.id, "FBR/2(36)/KHI/0457"]]),
    );
    const { checks } = await checksOfNgo(s.db, asAdmin(admin.id), ngo.id, later(11));
    expect(checks.find((c) => c.kind === "tax_exemption")!.state).toBe("expired");
  });

  it("is never shown for an NGO that is suspended or not yet verified", async () => {
    const waiting = await makeUser(s.db, "ngo", { verification: "pending" });
    const suspended = await makeUser(s.db, "ngo");
    await recordCheck(s, asAdmin(admin.id), registration(waiting.id));
    await recordCheck(s, asAdmin(admin.id), registration(suspended.id));
    await suspend(s, asAdmin(admin.id), suspended.id);
    const shown = await standingChecks(s.db, [waiting.id, suspended.id]);
    expect(shown.get(waiting.id)).toEqual([]);
    expect(shown.get(suspended.id)).toEqual([]);
  });
});

describe("revoking and renewing", () => {
  it("revokes once, with the reason and its audit entry: the badge loses it at once", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const id = await recordCheck(s, asAdmin(admin.id), taxExemption(ngo.id));
    expect(await failure(revokeCheck(s, asAdmin(admin.id), id, "  "))).toMatchObject({ kind: "invalid", field: "reason" });
    const results = await Promise.allSettled([1, 2, 3].map(() => revokeCheck(s, asAdmin(admin.id), id, "FBR withdrew the approval")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await failure(revokeCheck(s, asAdmin(admin.id), id, "again"))).toMatchObject({
      kind: "conflict",
      message: "checks:errors.notCurrent",
    });
    expect(await failureKind(revokeCheck(s, asAdmin(admin.id), crypto.randomUUID(), "x"))).toBe("not_found");
    expect((await standingChecks(s.db, [ngo.id])).get(ngo.id)).toEqual([]);
    // A revoked approval is named on no statement, of any period.
    expect(await taxExemptionReferences(s.db, [ngo.id], { from: addDays(today, -400), to: today })).toEqual(new Map());
    const { checks } = await checksOfNgo(s.db, asAdmin(admin.id), ngo.id);
    expect(checks[0]).toMatchObject({ state: "revoked", revokedByEmail: admin.email, revokedReason: "FBR withdrew the approval" });
    const audit = await s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, ngo.id), eq(auditLog.action, "check.revoked")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ checkId: id, reason: "FBR withdrew the approval" });
  });

  it("renews once: the new check stands with its new last day and the old one ends, keeping its document", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const id = await recordCheck(
      s,
      asAdmin(admin.id),
      taxExemption(ngo.id, { checkedOn: addDays(today, -400), expiresOn: addDays(today, -5), document: pdf() }),
    );
    expect(await taxExemptionReferences(s.db, [ngo.id], day(today))).toEqual(new Map());
    expect(await failure(renewCheck(s, asAdmin(admin.id), id, { checkedOn: today }))).toMatchObject({ field: "expiresOn" });
    const results = await Promise.allSettled(
      [1, 2].map(() => renewCheck(s, asAdmin(admin.id), id, { checkedOn: today, expiresOn: addDays(today, 1095) })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rows = await rowsOf(ngo.id);
    expect(rows).toHaveLength(2);
    const [old, renewed] = [rows.find((r) => r.id === id)!, rows.find((r) => r.id !== id)!];
    expect(old.renewedAt).not.toBeNull();
    expect(renewed).toMatchObject({
      reference: old.reference,
      checkedOn: today,
      expiresOn: addDays(today, 1095),
      documentKey: old.documentKey,
    });
    expect(await taxExemptionReferences(s.db, [ngo.id], day(today))).toEqual(new Map([[ngo.id, "FBR/2(36)/KHI/0457"]]));
    // The renewed (ended) check still speaks for the time it covered, before the renewal was checked.
    expect(await taxExemptionReferences(s.db, [ngo.id], day(addDays(today, -200)))).toEqual(new Map([[ngo.id, "FBR/2(36)/KHI/0457"]]));
    expect(await failureKind(revokeCheck(s, asAdmin(admin.id), id, "old one"))).toBe("conflict");
    expect(
      await s.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetUserId, ngo.id), eq(auditLog.action, "check.renewed"))),
    ).toHaveLength(1);
  });
});

describe("taxExemptionReferences", () => {
  it("gives each NGO's tax-exemption reference valid in the period, the newest when there are several, and nothing else", async () => {
    const a = await makeUser(s.db, "ngo");
    const b = await makeUser(s.db, "ngo");
    const none = await makeUser(s.db, "ngo");
    const expired = await makeUser(s.db, "ngo");
    await recordCheck(s, asAdmin(admin.id), taxExemption(a.id, { reference: "OLD-A", checkedOn: addDays(today, -30) }));
    await recordCheck(s, asAdmin(admin.id), taxExemption(a.id, { reference: "NEW-A" }));
    await recordCheck(s, asAdmin(admin.id), taxExemption(b.id, { reference: "B-1" }));
    await recordCheck(s, asAdmin(admin.id), registration(none.id));
    await recordCheck(s, asAdmin(admin.id), { ...taxExemption(none.id), kind: "pcp", reference: "PCP-NOT-TAX" });
    await recordCheck(s, asAdmin(admin.id), taxExemption(expired.id, { checkedOn: addDays(today, -60), expiresOn: addDays(today, -1) }));
    const refs = await taxExemptionReferences(s.db, [a.id, b.id, none.id, expired.id, "not-a-uuid", a.id], day(today));
    expect(refs).toEqual(
      new Map([
        [a.id, "NEW-A"],
        [b.id, "B-1"],
      ]),
    );
    // A period before any check was made names none; one that ends before the newest check names the older one.
    const past = { from: addDays(today, -90), to: addDays(today, -61) };
    expect(await taxExemptionReferences(s.db, [a.id, b.id, expired.id], past)).toEqual(new Map());
    const lastMonth = { from: addDays(today, -40), to: addDays(today, -20) };
    expect(await taxExemptionReferences(s.db, [a.id, b.id, expired.id], lastMonth)).toEqual(
      new Map([
        [a.id, "OLD-A"],
        [expired.id, "FBR/2(36)/KHI/0457"],
      ]),
    );
    expect(await taxExemptionReferences(s.db, [], day(today))).toEqual(new Map());
  });
});
