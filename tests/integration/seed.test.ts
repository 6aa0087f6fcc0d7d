import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, campaignPartners, campaigns, donations, files, users } from "../../server/db/schema";
import { seedDemoData, DEMO_ACCOUNTS } from "../../server/db/seed";
import { reviewQueue } from "../../server/domain/donations/cash";
import { createTestServices, type TestServices } from "../helpers/services";

describe("demo data", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
    await seedDemoData(s);
  });
  afterAll(async () => s.close());

  const idOf = async (email: string) => (await s.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

  it("loads the demo accounts once", async () => {
    await seedDemoData(s);
    const [{ n }] = (await s.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.email, DEMO_ACCOUNTS.ngo))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("has campaigns at real places, one joint and one successful, whose totals equal their approved gifts", async () => {
    const all = await s.db.select().from(campaigns);
    expect(all).toHaveLength(7);
    expect(all.every((c) => c.lat > 23 && c.lat < 38 && c.lng > 60 && c.lng < 78 && c.pictureKey)).toBe(true);
    expect(await s.db.select().from(campaignPartners).where(eq(campaignPartners.status, "accepted"))).not.toHaveLength(0);
    for (const c of all) {
      const [{ total }] = (await s.db
        .select({ total: sql<number>`coalesce(sum(${donations.amount}), 0)::int` })
        .from(donations)
        .where(sql`${donations.campaignId} = ${c.id} and ${donations.status} = 'approved'`)) as [{ total: number }];
      expect(c.collectedAmount, c.title).toBe(total);
    }
    expect(all.reduce((sum, c) => sum + c.collectedAmount, 0)).toBe(25_000 + 60_000 + 15_500 + 100_000 + 12_000 + 5_000 + 10_000 + 7_500 + 50_000 + 70_000 + 50_000);
    // The ambulance fund reached its target through the last approval and moved to Successful.
    const done = all.filter((c) => c.status === "completed");
    expect(done.map((c) => c.title)).toEqual(["Ambulance fuel fund Islamabad"]);
    expect(done[0]!.collectedAmount).toBe(done[0]!.targetAmount);
    expect(done[0]!.completedAt!.getTime()).toBeLessThan(Date.now() - 24 * 3600 * 1000);
  });

  it("gave every gift through the proof form and the review: a stored proof, a decision, an audit entry, receipts in date order", async () => {
    const approved = await s.db.select().from(donations).where(eq(donations.status, "approved")).orderBy(asc(donations.createdAt));
    expect(approved).toHaveLength(11);
    for (const d of approved) {
      expect(d.proofKey).toMatch(/^proof\//);
      expect(await s.storage.get(d.proofKey!)).not.toBeNull();
      expect(await s.db.select().from(files).where(and(eq(files.key, d.proofKey!), eq(files.ownerId, d.donorId)))).toHaveLength(1);
      expect(d).toMatchObject({ kind: "cash", phone: "03211234567", decidedBy: d.recipientNgoId });
      expect(d.transactionId).toMatch(/^\d{11}$/);
      expect(d.decidedAt!.getTime()).toBeGreaterThan(d.createdAt.getTime());
      const audit = await s.db.select().from(auditLog).where(sql`${auditLog.details}->>'donationId' = ${d.id}`);
      expect(audit).toMatchObject([{ action: "donation.approved", actorId: d.recipientNgoId }]);
    }
    // Backdated over the last weeks, as gifts come in.
    expect(approved[0]!.createdAt.getTime()).toBeLessThan(Date.now() - 10 * 24 * 3600 * 1000);
    // Each NGO numbers its receipts 1, 2, 3… in the order the gifts were made.
    const byNgo = new Map<string, number[]>();
    for (const d of approved) byNgo.set(d.recipientNgoId, [...(byNgo.get(d.recipientNgoId) ?? []), d.receiptNumber!]);
    expect(byNgo.size).toBe(3);
    for (const numbers of byNgo.values()) expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // Transaction IDs of the approved gifts are all different.
    expect(new Set(approved.map((d) => d.transactionId)).size).toBe(approved.length);
  });

  it("leaves Roshni Welfare Trust three donations to review, two of them with the same proof, and one it disapproved", async () => {
    const ngoId = await idOf(DEMO_ACCOUNTS.ngo);
    const donorId = await idOf(DEMO_ACCOUNTS.donor);
    const queue = await reviewQueue(s.db, ngoId, { page: 1 });
    expect(queue.total).toBe(3);
    const pending = await s.db.select().from(donations).where(and(eq(donations.recipientNgoId, ngoId), eq(donations.status, "pending")));
    expect(pending).toHaveLength(3);
    for (const d of pending) {
      expect(d).toMatchObject({ donorId, kind: "cash", receiptNumber: null, decidedAt: null });
      expect(await s.storage.get(d.proofKey!)).not.toBeNull();
      expect(d.proofFingerprint).not.toBeNull();
    }
    expect(queue.rows.filter((r) => r.duplicateTransaction)).toHaveLength(2);
    expect(queue.rows.filter((r) => r.duplicateImage).length).toBeGreaterThanOrEqual(2);
    expect(new Set(queue.rows.map((r) => r.method)).size).toBeGreaterThan(1);

    const rejected = await s.db.select().from(donations).where(eq(donations.status, "rejected"));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ donorId, recipientNgoId: ngoId, decidedBy: ngoId, receiptNumber: null });
    expect(rejected[0]!.rejectionReason).toMatch(/transaction ID/);
  });
});
