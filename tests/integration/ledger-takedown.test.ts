import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, notifications, spendingRecords } from "#server/db/schema.ts";
import type { Actor } from "#server/domain/policy.ts";
import { mayReadSpendingDocument } from "#server/domain/ledger/policy.ts";
import { fundBalances, ledgerPages, publicLedger } from "#server/domain/ledger/ledger.ts";
import { campaignSpending, publishSpending, writeSpending } from "#server/domain/ledger/spending.ts";
import { spendingForAdmin, takeDownSpending } from "#server/domain/ledger/takedown.ts";
import { TAKEDOWN_REASON_MAX_LENGTH } from "#shared/statuses.ts";
import { asAdmin, asDonor, asNgo } from "#tests/helpers/actors.ts";
import { makeCampaign, makeDonation, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { makeSpending } from "#tests/helpers/ledger.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The administrator takes a published spending record down (decision 049), on both databases: only the administrator,
 * with a reason, once under concurrent requests (one audit entry, one notice), the document private again, the public
 * ledger saying it was removed and when, and the totals without it.
 */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s?.close());

async function cast() {
  const owner = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
  const partner = await makeUser(s.db, "ngo");
  const stranger = await makeUser(s.db, "ngo");
  const donor = await makeUser(s.db, "donor");
  const admin = await makeUser(s.db, "admin");
  const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
  return { owner, partner, stranger, donor, admin, campaign };
}

const REASON = "The invoice shows a donor's CNIC number.";

describe("taking a published spending record down", () => {
  it("is refused to anyone but the administrator, and changes nothing", async () => {
    const { owner, partner, stranger, donor, campaign } = await cast();
    const record = await makeSpending(s, campaign, { status: "published" });
    for (const actor of [asNgo(owner.id), asNgo(partner.id), asNgo(stranger.id), asDonor(donor.id)]) {
      expect(await failure(takeDownSpending(s, actor, record.id, REASON)), actor.id).toEqual({
        kind: "not_found",
        message: "errors:notFound",
      });
    }
    const [row] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, record.id));
    expect(row).toMatchObject({ status: "published", takenDownAt: null, takedownReason: null });
  });

  it("needs a reason: blank, too long or with control characters is refused", async () => {
    const { admin, campaign } = await cast();
    const record = await makeSpending(s, campaign, { status: "published" });
    const invalid = { kind: "invalid", message: "ledger:errors.takedownReasonInvalid", field: "reason" };
    for (const reason of ["   ", "x".repeat(TAKEDOWN_REASON_MAX_LENGTH + 1), "Private\u0000data", "bell\u0007"]) {
      expect(await failure(takeDownSpending(s, asAdmin(admin.id), record.id, reason))).toEqual(invalid);
    }
    expect((await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, record.id)))[0]!.status).toBe("published");
  });

  it("takes a draft down never, and a record twice never", async () => {
    const { admin, campaign } = await cast();
    const draft = await makeSpending(s, campaign);
    expect(await failure(takeDownSpending(s, asAdmin(admin.id), draft.id, REASON))).toEqual({
      kind: "conflict",
      message: "ledger:errors.notPublished",
    });
    expect(await failure(takeDownSpending(s, asAdmin(admin.id), "00000000-0000-4000-8000-000000000000", REASON))).toEqual({
      kind: "not_found",
      message: "errors:notFound",
    });
    expect(await failure(takeDownSpending(s, asAdmin(admin.id), "not-a-uuid", REASON))).toMatchObject({ kind: "not_found" });
  });

  it("happens exactly once when administrators send it at once: one audit entry, one notice to the NGO with the reason", async () => {
    const { owner, admin, campaign } = await cast();
    const second = await makeUser(s.db, "admin");
    const record = await makeSpending(s, campaign, { status: "published" });
    const results = await Promise.all(
      [admin, second, admin, second, admin].map((a) => failure(takeDownSpending(s, asAdmin(a.id), record.id, `${REASON} (${a.id})`))),
    );
    expect(results.filter((r) => r === "no error")).toHaveLength(1);
    for (const r of results.filter((x) => x !== "no error"))
      expect(r).toEqual({ kind: "conflict", message: "ledger:errors.alreadyTakenDown" });
    const [row] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, record.id));
    expect(row!.status).toBe("taken_down");
    expect(row!.takedownReason).toContain(REASON);
    const audits = await s.db.select().from(auditLog).where(eq(auditLog.action, "spending.taken_down"));
    expect(audits.filter((a) => a.details.spendingId === record.id)).toHaveLength(1);
    const told = await s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, owner.id), eq(notifications.type, "spendingTakenDown")));
    expect(told).toHaveLength(1);
    expect(told[0]!.params.reason).toBe(row!.takedownReason);
    expect(told[0]!.link).toBe(`/campaigns/${campaign.id}/spending`);
  });

  it("tells both the partner that wrote the record and the campaign's owner, once each, and no other NGO", async () => {
    const { owner, partner, stranger, admin, campaign } = await cast();
    const record = await makeSpending(s, campaign, { status: "published", ngoId: partner.id });
    await takeDownSpending(s, asAdmin(admin.id), record.id, REASON);
    const told = await s.db.select().from(notifications).where(eq(notifications.type, "spendingTakenDown"));
    const about = told.filter((n) => n.link === `/campaigns/${campaign.id}/spending`);
    expect(about.map((n) => n.userId).sort()).toEqual([owner.id, partner.id].sort());
    expect(about.every((n) => n.params.reason === REASON)).toBe(true);
    expect(told.some((n) => n.userId === stranger.id)).toBe(false);
  });

  it("makes the document private to the administrator and the campaign's NGOs, and the ledger say only that it was removed", async () => {
    const { owner, partner, stranger, donor, admin, campaign } = await cast();
    await makeDonation(s.db, campaign, donor.id, { amount: 10_000, status: "approved", decidedAt: new Date() });
    const kept = await makeSpending(s, campaign, { status: "published", amount: 1_000, purpose: "Ration bags" });
    const record = await makeSpending(s, campaign, { status: "published", amount: 4_000, purpose: "Invoice with a CNIC" });
    expect(await fundBalances(s.db, campaign.id)).toEqual([{ fund: "general", raised: 10_000, spent: 5_000, balance: 5_000 }]);
    const mayRead = (key: string, actor: Actor | null) => mayReadSpendingDocument(s.db, key, actor);
    expect(await mayRead(record.documentKey, null)).toBe(true);

    await takeDownSpending(s, asAdmin(admin.id), record.id, REASON);

    expect(await mayRead(record.documentKey, null)).toBe(false);
    expect(await mayRead(record.documentKey, asDonor(donor.id))).toBe(false);
    expect(await mayRead(record.documentKey, asNgo(stranger.id))).toBe(false);
    expect(await mayRead(record.documentKey, asNgo(owner.id))).toBe(true);
    expect(await mayRead(record.documentKey, asNgo(partner.id))).toBe(true);
    expect(await mayRead(record.documentKey, asAdmin(admin.id))).toBe(true);
    // The other record's document stays public.
    expect(await mayRead(kept.documentKey, null)).toBe(true);

    // It no longer counts as spent: the balance rises by its amount.
    expect(await fundBalances(s.db, campaign.id)).toEqual([{ fund: "general", raised: 10_000, spent: 1_000, balance: 9_000 }]);
    const ledger = await publicLedger(s.db, campaign.slug);
    const removed = ledger.spending.find((r) => r.id === record.id)!;
    expect(removed).toMatchObject({ amount: null, purpose: null, documentKey: null });
    expect(removed.takenDownAt).toBeInstanceOf(Date);
    expect(JSON.stringify(ledger)).not.toContain("Invoice with a CNIC");
    expect(JSON.stringify(ledger)).not.toContain(record.documentKey);
    const pages = await ledgerPages(s.db, campaign.slug, { gifts: 1, goods: 1, spending: 1 });
    expect(pages.spending.total).toBe(2);

    // The NGO sees it taken down, with the reason, and can do nothing more to it.
    const own = await campaignSpending(s.db, asNgo(owner.id), campaign.id, 1);
    const row = own.records.rows.find((r) => r.id === record.id)!;
    expect(row.status).toBe("taken_down");
    expect(row.takenDown?.reason).toBe(REASON);
    expect(row.actions).toEqual([]);
    // Not corrected either: the spending is recorded again as a new entry.
    const document = new File([new Uint8Array(await makeProofPng())], "r.png", { type: "image/png" });
    const again = { intent: "write" as const, fund: "general" as const, amount: 4_000, spentOn: "2026-02-01", purpose: "Ration", document };
    expect(await failure(writeSpending(s, asNgo(owner.id), campaign.id, { ...again, correctsId: record.id }))).toMatchObject({
      kind: "invalid",
    });
    const { id } = await writeSpending(s, asNgo(owner.id), campaign.id, { ...again, correctsId: undefined });
    expect(await failure(publishSpending(s.db, asNgo(owner.id), record.id))).toEqual({
      kind: "conflict",
      message: "ledger:errors.alreadyTakenDown",
    });
    await publishSpending(s.db, asNgo(owner.id), id);
    expect((await fundBalances(s.db, campaign.id))[0]!.spent).toBe(5_000);
  });

  it("lists every campaign's published and taken-down spending for the administrator only", async () => {
    const { owner, admin, campaign } = await cast();
    const record = await makeSpending(s, campaign, { status: "published", purpose: "Listed for the administrator" });
    await makeSpending(s, campaign, { purpose: "A draft the administrator does not see" });
    const list = await spendingForAdmin(s.db, asAdmin(admin.id), { page: 1 });
    expect(list.rows.some((r) => r.id === record.id && r.campaignTitle === campaign.title && r.takenDown === null)).toBe(true);
    expect(list.rows.some((r) => r.purpose === "A draft the administrator does not see")).toBe(false);
    expect(await failure(spendingForAdmin(s.db, asNgo(owner.id), { page: 1 }))).toMatchObject({ kind: "not_found" });
  });
});
