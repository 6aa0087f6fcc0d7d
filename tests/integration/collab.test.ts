import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLog, campaignPartners, campaigns, mailOutbox, notifications, users } from "#server/db/schema.ts";
import { campaignForNgo, campaignOwnedBy } from "#server/domain/campaigns/access.ts";
import {
  collabOverview,
  invitePartners,
  joinTarget,
  leaveCampaign,
  requestToJoin,
  respondToInvitation,
  respondToRequest,
} from "#server/domain/campaigns/collaboration.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { changedTables, databaseFingerprint } from "#tests/helpers/app.ts";

/** The domain error a call fails with (kind and message key), or "no error". */

describe("collaboration", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function row(campaignId: string, ngoId: string) {
    const [r] = await s.db
      .select()
      .from(campaignPartners)
      .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)));
    return r ?? null;
  }

  async function notificationsOf(userId: string) {
    return s.db.select().from(notifications).where(eq(notifications.userId, userId));
  }

  it("the owner invites NGOs: a pending invitation each, told in the app and by email", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Alpha Welfare" });
    const b = await makeUser(s.db, "ngo", { name: "Bravo Trust" });
    const c = await makeUser(s.db, "ngo", { name: "Charlie Foundation" });
    const campaign = await makeCampaign(s.db, owner.id, { title: "Flood relief Sukkur" });

    const outcome = await invitePartners(s, owner, campaign.id, [b.id, c.id, b.id]);
    expect(outcome.invited.sort()).toEqual([b.id, c.id].sort());
    expect(outcome.joined).toEqual([]);
    expect(await row(campaign.id, b.id)).toMatchObject({ direction: "invited", status: "pending" });
    expect(await row(campaign.id, c.id)).toMatchObject({ direction: "invited", status: "pending" });

    const told = await notificationsOf(b.id);
    expect(told).toMatchObject([
      { type: "collabInvited", params: { ngo: "Alpha Welfare", campaign: "Flood relief Sukkur" }, link: "/collab#invitations" },
    ]);
    const mail = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain("Alpha Welfare");
    expect(mail[0]!.body).toContain("Flood relief Sukkur");
    expect(mail[0]!.body).toContain("/collab#invitations");

    // Inviting again changes nothing and tells nobody twice.
    const again = await invitePartners(s, owner, campaign.id, [b.id]);
    expect(again).toEqual({ invited: [], joined: [], unchanged: [b.id] });
    expect(await notificationsOf(b.id)).toHaveLength(1);
    // Not a partner until accepted.
    expect(await failure(campaignForNgo(s.db, campaign.id, b))).toEqual({ kind: "not_found", message: "errors:notFound" });
  });

  it("refuses invitations from anyone but the owner, and to the owner itself, unverified or suspended NGOs", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const other = await makeUser(s.db, "ngo");
    const pending = await makeUser(s.db, "ngo", { verification: "pending" });
    const suspended = await makeUser(s.db, "ngo");
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });

    expect(await failure(invitePartners(s, partner, campaign.id, [other.id]))).toMatchObject({ kind: "forbidden" });
    expect(await failure(invitePartners(s, stranger, campaign.id, [other.id]))).toMatchObject({ kind: "not_found" });
    expect(await failure(invitePartners(s, owner, campaign.id, [owner.id]))).toMatchObject({
      kind: "invalid",
      message: "collab:errors.notYourself",
      field: "ngoIds",
    });
    for (const bad of [pending.id, suspended.id, donor.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      expect(await failure(invitePartners(s, owner, campaign.id, [other.id, bad]))).toMatchObject({
        kind: "invalid",
        message: "collab:errors.ngoUnavailable",
      });
    }
    expect(await failure(invitePartners(s, owner, campaign.id, []))).toMatchObject({ message: "collab:errors.chooseNgo" });
    // Nothing was written by any refused call.
    expect(await row(campaign.id, other.id)).toBeNull();
    expect(await notificationsOf(other.id)).toHaveLength(0);

    // An accepted partner is skipped; a completed campaign takes no new partners.
    expect(await invitePartners(s, owner, campaign.id, [partner.id])).toEqual({ invited: [], joined: [], unchanged: [partner.id] });
    await s.db.update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, campaign.id));
    expect(await failure(invitePartners(s, owner, campaign.id, [other.id]))).toMatchObject({
      kind: "invalid",
      message: "collab:errors.notActive",
    });
  });

  it("the invitee accepts: the campaign is theirs to see as a partner, but its text stays the owner's", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Delta Relief" });
    const b = await makeUser(s.db, "ngo", { name: "Echo Care" });
    const other = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    await invitePartners(s, owner, campaign.id, [b.id]);

    // Only the invitee may answer: another NGO and the owner are refused, nothing changes.
    expect(await failure(respondToInvitation(s, other, campaign.id, true))).toMatchObject({ kind: "not_found" });
    expect(await failure(respondToInvitation(s, owner, campaign.id, true))).toMatchObject({ kind: "not_found" });
    expect(await row(campaign.id, b.id)).toMatchObject({ status: "pending" });

    await respondToInvitation(s, b, campaign.id, true);
    expect(await row(campaign.id, b.id)).toMatchObject({ status: "accepted" });
    expect((await row(campaign.id, b.id))!.respondedAt).toBeInstanceOf(Date);
    const seen = await campaignForNgo(s.db, campaign.id, b);
    expect(seen.role).toBe("partner");
    expect(seen.campaign.id).toBe(campaign.id);
    expect(await failure(campaignOwnedBy(s.db, campaign.id, b))).toMatchObject({ kind: "forbidden" });
    expect((await campaignOwnedBy(s.db, campaign.id, owner)).id).toBe(campaign.id);

    // The owner is told, and the acceptance is in the audit log.
    expect(await notificationsOf(owner.id)).toMatchObject([
      { type: "collabAccepted", params: { ngo: "Echo Care", campaign: campaign.title } },
    ]);
    const audit = await s.db.select().from(auditLog).where(eq(auditLog.actorId, b.id));
    expect(audit.map((a) => a.action)).toEqual(["collab.accepted"]);

    // Answering again is refused as already answered.
    expect(await failure(respondToInvitation(s, b, campaign.id, false))).toMatchObject({
      kind: "conflict",
      message: "collab:errors.alreadyAnswered",
    });
    expect(await row(campaign.id, b.id)).toMatchObject({ status: "accepted" });
  });

  it("the invitee declines; a new invitation opens it again", async () => {
    const owner = await makeUser(s.db, "ngo");
    const b = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    await invitePartners(s, owner, campaign.id, [b.id]);
    await respondToInvitation(s, b, campaign.id, false);
    expect(await row(campaign.id, b.id)).toMatchObject({ status: "declined" });
    expect(await failure(campaignForNgo(s.db, campaign.id, b))).toMatchObject({ kind: "not_found" });
    expect((await notificationsOf(owner.id)).map((n) => n.type)).toEqual(["collabDeclined"]);

    expect((await invitePartners(s, owner, campaign.id, [b.id])).invited).toEqual([b.id]);
    expect(await row(campaign.id, b.id)).toMatchObject({ direction: "invited", status: "pending", respondedAt: null });
  });

  it("of two concurrent answers to one invitation exactly one changes it", async () => {
    const owner = await makeUser(s.db, "ngo");
    const b = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    await invitePartners(s, owner, campaign.id, [b.id]);
    const results = await Promise.allSettled([
      respondToInvitation(s, b, campaign.id, true),
      respondToInvitation(s, b, campaign.id, true),
      respondToInvitation(s, b, campaign.id, false),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ kind: "conflict", message: "collab:errors.alreadyAnswered" });
    }
    // One answer, one notification to the owner, at most one audit entry.
    expect(await notificationsOf(owner.id)).toHaveLength(1);
    const audit = await s.db.select().from(auditLog).where(eq(auditLog.actorId, b.id));
    expect(audit.length).toBeLessThanOrEqual(1);
    expect(["accepted", "declined"]).toContain((await row(campaign.id, b.id))!.status);
  });

  it("an NGO asks to join another's campaign; only the owner answers", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Foxtrot Aid" });
    const asker = await makeUser(s.db, "ngo", { name: "Golf Helpers" });
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });

    expect(await joinTarget(s.db, asker, campaign.id)).toMatchObject({ title: campaign.title, ownerName: "Foxtrot Aid", state: "none" });
    expect(await requestToJoin(s, asker, campaign.id)).toBe("requested");
    expect(await requestToJoin(s, asker, campaign.id)).toBe("alreadyRequested");
    expect(await row(campaign.id, asker.id)).toMatchObject({ direction: "requested", status: "pending" });
    expect(await joinTarget(s.db, asker, campaign.id)).toMatchObject({ state: "requested" });
    // The owner is told once, in the app and by email.
    expect(await notificationsOf(owner.id)).toMatchObject([
      { type: "collabRequested", params: { ngo: "Golf Helpers", campaign: campaign.title }, link: "/collab#requests" },
    ]);
    const mail = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, owner.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain("Golf Helpers");

    // The owner sees the request on /collab; the asker sees nothing to answer.
    const ownerView = await collabOverview(s.db, owner, { page: 1 });
    expect(ownerView.requests.rows).toMatchObject([{ campaignId: campaign.id, ngoId: asker.id, ngoName: "Golf Helpers" }]);
    expect((await collabOverview(s.db, asker, { page: 1 })).invitations.rows).toEqual([]);

    // Neither a partner, the asker, nor a stranger may answer it.
    expect(await failure(respondToRequest(s, partner, campaign.id, asker.id, true))).toMatchObject({ kind: "forbidden" });
    expect(await failure(respondToRequest(s, stranger, campaign.id, asker.id, true))).toMatchObject({ kind: "not_found" });
    expect(await failure(respondToRequest(s, asker, campaign.id, asker.id, true))).toMatchObject({ kind: "not_found" });
    // The request is not an invitation: the asker cannot accept it themselves.
    expect(await failure(respondToInvitation(s, asker, campaign.id, true))).toMatchObject({ kind: "not_found" });
    expect(await row(campaign.id, asker.id)).toMatchObject({ status: "pending" });

    await respondToRequest(s, owner, campaign.id, asker.id, true);
    expect((await campaignForNgo(s.db, campaign.id, asker)).role).toBe("partner");
    expect(await notificationsOf(asker.id)).toMatchObject([{ type: "collabAccepted", params: { ngo: "Foxtrot Aid" } }]);
    expect(await failure(requestToJoin(s, asker, campaign.id))).toMatchObject({
      kind: "conflict",
      message: "collab:errors.alreadyPartner",
    });
  });

  it("the owner declines a request; its own campaign, archived or ended ones cannot be asked for", async () => {
    const owner = await makeUser(s.db, "ngo");
    const asker = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    await requestToJoin(s, asker, campaign.id);
    await respondToRequest(s, owner, campaign.id, asker.id, false);
    expect(await row(campaign.id, asker.id)).toMatchObject({ status: "declined" });
    expect((await notificationsOf(asker.id)).map((n) => n.type)).toEqual(["collabDeclined"]);
    expect(await failure(respondToRequest(s, owner, campaign.id, asker.id, true))).toMatchObject({ kind: "conflict" });

    expect(await failure(requestToJoin(s, owner, campaign.id))).toMatchObject({ kind: "invalid", message: "collab:errors.ownCampaign" });
    const ended = await makeCampaign(s.db, owner.id, { status: "completed" });
    expect(await failure(requestToJoin(s, asker, ended.id))).toMatchObject({ kind: "invalid", message: "collab:errors.notActive" });
    const archived = await makeCampaign(s.db, owner.id, { status: "archived" });
    expect(await failure(requestToJoin(s, asker, archived.id))).toMatchObject({ kind: "not_found" });
    expect(await failure(joinTarget(s.db, asker, archived.id))).toMatchObject({ kind: "not_found" });
    expect(await failure(requestToJoin(s, asker, "nope"))).toMatchObject({ kind: "not_found" });
    const unverified = await makeUser(s.db, "ngo", { verification: "pending" });
    expect(await failure(requestToJoin(s, unverified, campaign.id))).toMatchObject({ kind: "forbidden" });
  });

  it("an invitation answers a pending request at once, and the other way round", async () => {
    const owner = await makeUser(s.db, "ngo");
    const asker = await makeUser(s.db, "ngo");
    const invitee = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    await requestToJoin(s, asker, campaign.id);
    expect(await invitePartners(s, owner, campaign.id, [asker.id])).toEqual({ invited: [], joined: [asker.id], unchanged: [] });
    expect(await row(campaign.id, asker.id)).toMatchObject({ status: "accepted" });

    await invitePartners(s, owner, campaign.id, [invitee.id]);
    expect(await requestToJoin(s, invitee, campaign.id)).toBe("joined");
    expect((await campaignForNgo(s.db, campaign.id, invitee)).role).toBe("partner");
  });

  it("re-inviting NGOs already invited or partners writes nothing and tells nobody again", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const invited = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    await invitePartners(s, owner, campaign.id, [invited.id]);

    const before = await databaseFingerprint(s.db);
    const again = await invitePartners(s, owner, campaign.id, [partner.id, invited.id]);
    expect(again.invited).toEqual([]);
    expect(again.joined).toEqual([]);
    expect(again.unchanged.sort()).toEqual([partner.id, invited.id].sort());
    // No row of any table was added or changed: no partnership, notification, mail or audit entry.
    expect(changedTables(before, await databaseFingerprint(s.db))).toEqual([]);
    expect(await notificationsOf(invited.id)).toHaveLength(1);
    expect(await notificationsOf(partner.id)).toHaveLength(0);
  });

  it("a joint campaign with nothing raised yet gives every partner a share of 0", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const joint = (await collabOverview(s.db, owner, { page: 1 })).joint.rows.find((j) => j.id === campaign.id)!;
    expect(joint.raised).toBe(0);
    expect(joint.ngos.map((n) => [n.share, n.shareOfRaised])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("a partner leaves; the owner cannot; paid donations keep counting", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Hotel Relief" });
    const b = await makeUser(s.db, "ngo", { name: "India Trust" });
    const c = await makeUser(s.db, "ngo", { name: "Juliet Aid" });
    const stranger = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [b.id, c.id], collectedAmount: 3500 });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 2000 });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 1500, recipientNgoId: b.id });
    await makeDonation(s.db, campaign, donor.id, { status: "pending", amount: 9999, recipientNgoId: c.id });

    // Everyone in the joint campaign sees every partner and each one's share of the approved total.
    const before = await collabOverview(s.db, c, { page: 1 });
    const joint = before.joint.rows.find((j) => j.id === campaign.id)!;
    expect(joint.role).toBe("partner");
    expect(joint.collectedAmount).toBe(3500);
    // Each share is a part of what was raised (the pending gift not counted), not of the target.
    expect(joint.raised).toBe(3500);
    expect(joint.ngos).toEqual([
      { id: owner.id, name: "Hotel Relief", logoKey: null, role: "owner", share: 2000, shareOfRaised: 2000 / 3500 },
      { id: b.id, name: "India Trust", logoKey: null, role: "partner", share: 1500, shareOfRaised: 1500 / 3500 },
      { id: c.id, name: "Juliet Aid", logoKey: null, role: "partner", share: 0, shareOfRaised: 0 },
    ]);

    expect(await failure(leaveCampaign(s, owner, campaign.id))).toMatchObject({
      kind: "invalid",
      message: "collab:errors.ownerCannotLeave",
    });
    expect(await failure(leaveCampaign(s, stranger, campaign.id))).toMatchObject({ kind: "not_found" });
    await leaveCampaign(s, b, campaign.id);
    expect(await row(campaign.id, b.id)).toMatchObject({ status: "left" });
    expect(await failure(campaignForNgo(s.db, campaign.id, b))).toMatchObject({ kind: "not_found" });
    expect(await failure(leaveCampaign(s, b, campaign.id))).toMatchObject({ kind: "not_found" });
    expect(await notificationsOf(owner.id)).toMatchObject([{ type: "collabLeft", params: { ngo: "India Trust" } }]);

    // The campaign's total is unchanged and the former partner's share still shows.
    const [after] = await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(after!.collectedAmount).toBe(3500);
    const ownerView = await collabOverview(s.db, owner, { page: 1 });
    expect(ownerView.joint.rows.find((j) => j.id === campaign.id)!.ngos).toEqual([
      { id: owner.id, name: "Hotel Relief", logoKey: null, role: "owner", share: 2000, shareOfRaised: 2000 / 3500 },
      { id: c.id, name: "Juliet Aid", logoKey: null, role: "partner", share: 0, shareOfRaised: 0 },
      { id: b.id, name: "India Trust", logoKey: null, role: "former", share: 1500, shareOfRaised: 1500 / 3500 },
    ]);
    expect((await collabOverview(s.db, b, { page: 1 })).joint.rows.map((j) => j.id)).not.toContain(campaign.id);
  });

  it("lists the NGO's own active campaigns and searches the NGOs it may invite, with their state", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const owner = await makeUser(s.db, "ngo", { name: `Kilo ${tag} Owner` });
    const partner = await makeUser(s.db, "ngo", { name: `kilo ${tag} partner` });
    const invited = await makeUser(s.db, "ngo", { name: `KILO ${tag} invited` });
    const asker = await makeUser(s.db, "ngo", { name: `Kilo ${tag} asker` });
    const fresh = await makeUser(s.db, "ngo", { name: `Kilo ${tag} fresh` });
    await makeUser(s.db, "ngo", { name: `Kilo ${tag} pending`, verification: "pending" });
    const suspended = await makeUser(s.db, "ngo", { name: `Kilo ${tag} suspended` });
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    await makeCampaign(s.db, owner.id, { status: "completed" });
    const otherOwners = await makeCampaign(s.db, partner.id);
    await invitePartners(s, owner, campaign.id, [invited.id]);
    await requestToJoin(s, asker, campaign.id);

    const view = await collabOverview(s.db, owner, { campaignId: campaign.id, q: `kilo ${tag}`, page: 1 });
    expect(view.campaigns).toEqual([{ id: campaign.id, title: campaign.title }]);
    expect(view.selected).toEqual({ id: campaign.id, title: campaign.title });
    // Itself, unverified and suspended NGOs are never offered; the search ignores case.
    expect(view.ngos.total).toBe(4);
    expect(Object.fromEntries(view.ngos.rows.map((n) => [n.id, n.state]))).toEqual({
      [partner.id]: "partner",
      [invited.id]: "invited",
      [asker.id]: "requested",
      [fresh.id]: "none",
    });
    // A campaign it does not own cannot be chosen.
    const foreign = await collabOverview(s.db, owner, { campaignId: otherOwners.id, q: `kilo ${tag}`, page: 1 });
    expect(foreign.selected).toBeNull();
    expect(foreign.ngos.rows.every((n) => n.state === "none")).toBe(true);
    // Wildcards are searched for as text.
    expect((await collabOverview(s.db, owner, { q: "%", page: 1 })).ngos.total).toBe(0);
    // The invitee sees the invitation with who sent it.
    const invitedView = await collabOverview(s.db, invited, { page: 1 });
    expect(invitedView.invitations.rows).toMatchObject([{ campaignId: campaign.id, ngoId: owner.id, ngoName: `Kilo ${tag} Owner` }]);
  });

  it("lists the NGO's own active campaigns a page at a time, with their partners, without any search", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const asker = await makeUser(s.db, "ngo");
    const made: string[] = [];
    for (let i = 0; i < 11; i++) made.push((await makeCampaign(s.db, owner.id)).id);
    await makeCampaign(s.db, owner.id, { status: "completed" });
    await makeCampaign(s.db, partner.id);
    const joint = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    await requestToJoin(s, asker, joint.id);
    made.push(joint.id);

    const one = await collabOverview(s.db, owner, { page: 1 });
    const two = await collabOverview(s.db, owner, { page: 1, ownPage: 2 });
    expect(one.own.total).toBe(12);
    expect(one.own.pages).toBe(2);
    expect(one.own.rows).toHaveLength(10);
    // Newest first: the joint one heads the list, with its partner and the request waiting.
    expect(one.own.rows[0]).toEqual({ id: joint.id, title: joint.title, slug: joint.slug, partners: 1, pending: 1 });
    expect(one.own.rows[1]).toMatchObject({ partners: 0, pending: 0 });
    expect([...one.own.rows, ...two.own.rows].map((c) => c.id).sort()).toEqual(made.sort());
    // Another NGO's list holds only its own.
    expect((await collabOverview(s.db, partner, { page: 1 })).own.total).toBe(1);
  });

  it("pages the NGOs to choose from so every one is reachable", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const owner = await makeUser(s.db, "ngo");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await makeUser(s.db, "ngo", { name: `Lima ${tag} ${String(i).padStart(2, "0")}` })).id);
    const one = await collabOverview(s.db, owner, { q: `lima ${tag}`, page: 1 });
    const two = await collabOverview(s.db, owner, { q: `lima ${tag}`, page: 2 });
    expect(one.ngos.pages).toBe(2);
    expect(one.ngos.rows).toHaveLength(10);
    expect([...one.ngos.rows, ...two.ngos.rows].map((n) => n.id).sort()).toEqual(ids.sort());
  });
});
