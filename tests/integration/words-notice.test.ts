import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "#server/db/schema.ts";
import { markAllRead } from "#server/domain/notifications/notifications.ts";
import { writeWords } from "#server/domain/updates/words.ts";
import { asDonor } from "#tests/helpers/actors.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The NGOs are told that words of support wait for them (decision 050), without a flood: one unread notice per NGO and
 * campaign at a time, decided by a partial unique index, so words written at once tell each NGO once.
 */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s?.close());

describe("the notice that words of support wait", () => {
  it("reaches the owner and each accepted partner once however many donors write at once, and again once it was read", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const invited = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const other = await makeCampaign(s.db, owner.id);
    const donors = await Promise.all(Array.from({ length: 6 }, () => makeUser(s.db, "donor")));
    for (const d of donors) {
      await makeDonation(s.db, campaign, d.id, { status: "approved" });
      await makeDonation(s.db, other, d.id, { status: "approved" });
    }
    const waiting = async (ngoId: string, campaignId = campaign.id) =>
      (
        await s.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, ngoId), eq(notifications.type, "supportWordsWaiting")))
      ).filter((n) => n.params.campaignId === campaignId);

    await Promise.all(donors.slice(0, 5).map((d, i) => writeWords(s, asDonor(d.id), campaign.slug, `Thank you, ${i}`)));
    for (const ngo of [owner, partner]) {
      const told = await waiting(ngo.id);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ link: `/campaigns/${campaign.id}/words`, readAt: null });
      expect(told[0]!.params.campaign).toBe(campaign.title);
    }
    expect(await waiting(invited.id)).toEqual([]);
    // A rewrite while unread adds nothing; words for another campaign are a notice of their own.
    await writeWords(s, asDonor(donors[0]!.id), campaign.slug, "Thank you again");
    await writeWords(s, asDonor(donors[0]!.id), other.slug, "For the other one");
    expect(await waiting(owner.id)).toHaveLength(1);
    expect(await waiting(owner.id, other.id)).toHaveLength(1);

    // Once the owner read it, the next words tell the owner again; the partner, who has not read, still has one.
    await markAllRead(s.db, owner.id);
    await writeWords(s, asDonor(donors[5]!.id), campaign.slug, "Late words");
    expect((await waiting(owner.id)).filter((n) => n.readAt === null)).toHaveLength(1);
    expect(await waiting(owner.id)).toHaveLength(2);
    expect(await waiting(partner.id)).toHaveLength(1);
  });
});
