import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, campaigns, donations, users } from "../../server/db/schema";
import { seedDemoData, DEMO_ACCOUNTS } from "../../server/db/seed";
import { createTestServices, type TestServices } from "../helpers/services";

describe("demo data", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
    await seedDemoData(s);
  });
  afterAll(async () => s.close());

  it("loads the demo accounts once", async () => {
    await seedDemoData(s);
    const [{ n }] = (await s.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.email, DEMO_ACCOUNTS.ngo))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("has campaigns at real places, one joint and one successful, whose totals equal their approved gifts", async () => {
    const all = await s.db.select().from(campaigns);
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.every((c) => c.lat > 23 && c.lat < 38 && c.lng > 60 && c.lng < 78 && c.pictureKey)).toBe(true);
    expect(all.filter((c) => c.status === "completed").length).toBeGreaterThanOrEqual(1);
    expect(await s.db.select().from(campaignPartners).where(eq(campaignPartners.status, "accepted"))).not.toHaveLength(0);
    for (const c of all) {
      const [{ total }] = (await s.db
        .select({ total: sql<number>`coalesce(sum(${donations.amount}), 0)::int` })
        .from(donations)
        .where(sql`${donations.campaignId} = ${c.id} and ${donations.status} = 'approved'`)) as [{ total: number }];
      expect(c.collectedAmount, c.title).toBe(total);
    }
  });
});
