import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLog, donations, mailOutbox, ngoProfiles, notifications, users } from "#server/db/schema.ts";
import { createSession, findSessionUser, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { listOutbox } from "#server/domain/admin/outbox.ts";
import { accept, listAccounts, listPending, reject, restore, suspend } from "#server/domain/admin/vetting.ts";
import { listAudit, recordAudit } from "#server/domain/audit/audit.ts";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asSessionUser, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { makeOlder } from "#tests/helpers/time.ts";

describe("vetting by the administrator", () => {
  let s: TestServices;
  let admin: SessionUser;
  beforeAll(async () => {
    s = await createTestServices();
    const a = await makeUser(s.db, "admin");
    admin = { ...asSessionUser(a, "admin"), displayName: a.email };
  });
  afterAll(async () => s.close());

  const asActor = (id: string, role: SessionUser["role"]): SessionUser => asSessionUser({ id, email: "x@test.pk" }, role);

  async function userRow(id: string) {
    const [row] = await s.db.select().from(users).where(eq(users.id, id));
    return row!;
  }
  const auditFor = (id: string) => s.db.select().from(auditLog).where(eq(auditLog.targetUserId, id));
  const notificationsFor = (id: string) => s.db.select().from(notifications).where(eq(notifications.userId, id));
  const mailTo = (email: string) => s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

  it("lists pending NGOs and riders with the fields they gave, and not verified ones", async () => {
    const ngo = await makeUser(s.db, "ngo", { verification: "pending", name: "Pending Trust" });
    const verified = await makeUser(s.db, "ngo", { verification: "verified" });
    const rider = await makeUser(s.db, "rider", { verification: "pending", name: "Pending Rider" });
    const ngos = await listPending(s.db, admin, "ngo", 1);
    const row = ngos.rows.find((r) => r.id === ngo.id);
    expect(row).toMatchObject({
      name: "Pending Trust",
      email: ngo.email,
      registrationNumber: "REG-1",
      contactNumber: "03001234567",
      address: "Saddar, Karachi",
    });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(ngos.rows.some((r) => r.id === verified.id)).toBe(false);
    const riders = await listPending(s.db, admin, "rider", 1);
    expect(riders.rows.find((r) => r.id === rider.id)).toMatchObject({
      firstName: "Pending Rider",
      lastName: "Rider",
      cnic: "4210112345671",
    });
    expect(riders.rows.some((r) => r.id === ngo.id)).toBe(false);
  });

  it("refuses every decision from an actor who is not the administrator", async () => {
    const target = await makeUser(s.db, "ngo", { verification: "pending" });
    for (const role of ["ngo", "donor", "rider"] as const) {
      const other = await makeUser(s.db, role);
      const actor = asActor(other.id, role);
      await expect(accept(s, actor, target.id)).rejects.toMatchObject({ kind: "forbidden" });
      await expect(reject(s, actor, target.id, "No")).rejects.toMatchObject({ kind: "forbidden" });
      await expect(suspend(s, actor, target.id)).rejects.toMatchObject({ kind: "forbidden" });
      await expect(restore(s, actor, target.id)).rejects.toMatchObject({ kind: "forbidden" });
      await expect(listOutbox(s.db, actor, 1)).rejects.toMatchObject({ kind: "forbidden" });
    }
    expect((await userRow(target.id)).verification).toBe("pending");
    expect(await auditFor(target.id)).toHaveLength(0);
  });

  it("accepts a pending NGO: verified, audited with actor/target/time, told in the app and by email", async () => {
    const ngo = await makeUser(s.db, "ngo", { verification: "pending", name: "Roshan Trust" });
    const before = Date.now();
    await accept(s, admin, ngo.id);
    const row = await userRow(ngo.id);
    expect(row.verification).toBe("verified");
    expect(row.rejectionReason).toBeNull();
    const entries = await auditFor(ngo.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, action: "account.accepted", targetUserId: ngo.id });
    expect(entries[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5000);
    const notes = await notificationsFor(ngo.id);
    expect(notes).toMatchObject([{ type: "accountAccepted", params: { name: "Roshan Trust" }, link: "/ngo_home", readAt: null }]);
    // No SMTP configured: the mail is kept in the outbox.
    const mail = await mailTo(ngo.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ status: "kept", subject: "Your Ek Chhat sign-up was accepted" });
    expect(mail[0]!.body).toContain("Roshan Trust");
    expect(mail[0]!.body).toContain("/ngo_signin");
  });

  it("applies 20 concurrent accepts of one user exactly once", async () => {
    const rider = await makeUser(s.db, "rider", { verification: "pending" });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => accept(s, admin, rider.id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ kind: "conflict", message: "admin:alreadyDecided" });
    }
    expect(await auditFor(rider.id)).toHaveLength(1);
    expect(await notificationsFor(rider.id)).toHaveLength(1);
    expect(await mailTo(rider.email)).toHaveLength(1);
  });

  it("refuses to accept or reject an account that is not pending, or that does not exist", async () => {
    const verified = await makeUser(s.db, "ngo", { verification: "verified" });
    const rejected = await makeUser(s.db, "rider", { verification: "rejected" });
    const donor = await makeUser(s.db, "donor");
    await expect(accept(s, admin, verified.id)).rejects.toMatchObject({ kind: "conflict", message: "admin:alreadyDecided" });
    await expect(accept(s, admin, rejected.id)).rejects.toMatchObject({ kind: "conflict" });
    await expect(reject(s, admin, verified.id, "Too late")).rejects.toMatchObject({ kind: "conflict" });
    await expect(accept(s, admin, donor.id)).rejects.toMatchObject({ kind: "conflict" });
    expect((await userRow(rejected.id)).verification).toBe("rejected");
    await expect(accept(s, admin, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ kind: "not_found" });
    await expect(accept(s, admin, "not-a-uuid")).rejects.toMatchObject({ kind: "not_found" });
    expect(await auditFor(verified.id)).toHaveLength(0);
  });

  it("requires a reason to reject, of bounded length", async () => {
    const rider = await makeUser(s.db, "rider", { verification: "pending" });
    await expect(reject(s, admin, rider.id, "")).rejects.toMatchObject({
      kind: "invalid",
      message: "validation:reasonRequired",
      field: "reason",
    });
    await expect(reject(s, admin, rider.id, "   \n ")).rejects.toMatchObject({ message: "validation:reasonRequired" });
    await expect(reject(s, admin, rider.id, "x".repeat(REASON_MAX_LENGTH + 1))).rejects.toMatchObject({ message: "validation:tooLong" });
    expect((await userRow(rider.id)).verification).toBe("pending");
    expect(await auditFor(rider.id)).toHaveLength(0);
  });

  it("rejects with the reason: stored, audited, and emailed with a way to re-submit", async () => {
    const rider = await makeUser(s.db, "rider", { verification: "pending", name: "Kamran" });
    await reject(s, admin, rider.id, "  The CNIC picture is unreadable.  ");
    const row = await userRow(rider.id);
    expect(row).toMatchObject({ verification: "rejected", rejectionReason: "The CNIC picture is unreadable." });
    const entries = await auditFor(rider.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: admin.id,
      action: "account.rejected",
      details: { reason: "The CNIC picture is unreadable." },
    });
    const mail = await mailTo(rider.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain("The CNIC picture is unreadable.");
    expect(mail[0]!.body).toMatch(/sign in .* re-submit/);
    expect(mail[0]!.body).toContain("/rider_signin");
    // A second decision on the same sign-up is refused.
    await expect(reject(s, admin, rider.id, "Again")).rejects.toMatchObject({ kind: "conflict" });
    await expect(accept(s, admin, rider.id)).rejects.toMatchObject({ kind: "conflict" });
  });

  it("suspends an account, ending all of its sessions at once, and restores it", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const one = await createSession(s.db, ngo.id);
    const two = await createSession(s.db, ngo.id);
    expect(await findSessionUser(s.db, one.token)).not.toBeNull();
    await suspend(s, admin, ngo.id);
    expect((await userRow(ngo.id)).suspendedAt).toBeInstanceOf(Date);
    expect(await findSessionUser(s.db, one.token)).toBeNull();
    expect(await findSessionUser(s.db, two.token)).toBeNull();
    // A session created afterwards does not work while suspended either.
    const three = await createSession(s.db, ngo.id);
    expect(await findSessionUser(s.db, three.token)).toBeNull();
    await expect(suspend(s, admin, ngo.id)).rejects.toMatchObject({ kind: "conflict", message: "admin:alreadySuspended" });

    await restore(s, admin, ngo.id);
    expect((await userRow(ngo.id)).suspendedAt).toBeNull();
    expect(await findSessionUser(s.db, three.token)).not.toBeNull();
    // The sessions ended by the suspension stay ended.
    expect(await findSessionUser(s.db, one.token)).toBeNull();
    await expect(restore(s, admin, ngo.id)).rejects.toMatchObject({ kind: "conflict", message: "admin:notSuspended" });

    const actions = (await auditFor(ngo.id)).map((e) => e.action).sort();
    expect(actions).toEqual(["account.restored", "account.suspended"]);
  });

  it("never suspends an administrator", async () => {
    const other = await makeUser(s.db, "admin");
    await expect(suspend(s, admin, other.id)).rejects.toMatchObject({ kind: "forbidden", message: "admin:cannotSuspendAdmin" });
    await expect(suspend(s, admin, admin.id)).rejects.toMatchObject({ kind: "forbidden" });
    expect((await userRow(other.id)).suspendedAt).toBeNull();
  });

  it("applies concurrent suspensions once", async () => {
    const rider = await makeUser(s.db, "rider");
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => suspend(s, admin, rider.id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await auditFor(rider.id)).filter((e) => e.action === "account.suspended")).toHaveLength(1);
  });

  it("lists accounts of one role with their status, searchable by name or email", async () => {
    const tag = `Zulu${Date.now().toString(36)}`;
    const a = await makeUser(s.db, "ngo", { name: `${tag} Welfare` });
    const b = await makeUser(s.db, "ngo", { verification: "pending", name: `${tag} Relief` });
    const c = await makeUser(s.db, "rider", { name: tag });
    await suspend(s, admin, a.id);
    const found = await listAccounts(s.db, admin, "ngo", 1, tag.toLowerCase());
    expect(found.rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.rows.find((r) => r.id === a.id)).toMatchObject({ verification: "verified", role: "ngo" });
    expect(found.rows.find((r) => r.id === a.id)!.suspendedAt).toBeInstanceOf(Date);
    expect(found.rows.find((r) => r.id === b.id)).toMatchObject({ verification: "pending", suspendedAt: null });
    const byEmail = await listAccounts(s.db, admin, "rider", 1, c.email.toUpperCase());
    expect(byEmail.rows.map((r) => r.id)).toEqual([c.id]);
    // LIKE wildcards in a search are taken literally.
    expect((await listAccounts(s.db, admin, "ngo", 1, "%")).rows).toHaveLength(0);
  });

  it("pages long lists", async () => {
    for (let i = 0; i < 12; i++) await makeUser(s.db, "ngo", { verification: "pending" });
    const first = await listPending(s.db, admin, "ngo", 1);
    const second = await listPending(s.db, admin, "ngo", 2);
    expect(first.rows).toHaveLength(10);
    expect(first.pages).toBeGreaterThanOrEqual(2);
    expect(second.rows.length).toBeGreaterThan(0);
    expect(second.rows.some((r) => first.rows.some((f) => f.id === r.id))).toBe(false);
  });
});

describe("audit log", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("lists entries newest first with the actor's email and the target's email and name", async () => {
    const admin = await makeUser(s.db, "admin");
    const ngo = await makeUser(s.db, "ngo", { name: "Audit Trust" });
    const rider = await makeUser(s.db, "rider", { name: "Audit" });
    await recordAudit(s.db, { actorId: admin.id, action: "account.accepted", targetUserId: ngo.id });
    await recordAudit(s.db, { actorId: ngo.id, action: "account.resubmitted", targetUserId: ngo.id });
    await recordAudit(s.db, { actorId: admin.id, action: "account.rejected", targetUserId: rider.id, details: { reason: "Blurry" } });
    const page = await listAudit(s.db, 1);
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => r.action)).toEqual(["account.rejected", "account.resubmitted", "account.accepted"]);
    expect(page.rows[0]).toMatchObject({
      actorEmail: admin.email,
      targetEmail: rider.email,
      targetName: "Audit Rider",
      details: { reason: "Blurry" },
    });
    expect(page.rows[1]).toMatchObject({ actorEmail: ngo.email, targetName: "Audit Trust" });
    expect(page.rows[2]!.createdAt).toBeInstanceOf(Date);
  });

  it("names the campaign an entry points at, and leaves an id that is not one alone", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id, { title: "Audit named campaign" });
    await recordAudit(s.db, { actorId: ngo.id, action: "campaign.edited", details: { campaignId: campaign.id } });
    await recordAudit(s.db, { actorId: ngo.id, action: "campaign.edited", details: { campaignId: "not-an-id" } });
    const [odd, named] = (await listAudit(s.db, 1)).rows;
    expect(named!.campaignTitle).toBe("Audit named campaign");
    expect(odd!.campaignTitle).toBeNull();
  });

  it("pages the log", async () => {
    for (let i = 0; i < 15; i++) await recordAudit(s.db, { actorId: null, action: `test.${i}` });
    const one = await listAudit(s.db, 1);
    const two = await listAudit(s.db, 2);
    expect(one.rows).toHaveLength(10);
    expect(one.pages).toBe(2);
    expect(two.rows.length).toBe(one.total - 10);
    expect(one.rows[0]!.action).toBe("test.14");
  });

  it("names the donation an entry points at by what it was, in one query for the page", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { title: "Audit winter blankets" });
    const [cash] = await s.db
      .insert(donations)
      .values({
        campaignId: campaign.id,
        donorId: donor.id,
        recipientNgoId: ngo.id,
        kind: "cash",
        amount: 5000,
        method: "jazzcash",
        status: "approved",
        receiptNumber: 12,
      })
      .returning({ id: donations.id });
    const [goods] = await s.db
      .insert(donations)
      .values({ campaignId: campaign.id, donorId: donor.id, recipientNgoId: ngo.id, kind: "in_kind", items: "Ten blankets" })
      .returning({ id: donations.id });
    // The gift was disapproved, then approved: only the approval's entry names its receipt.
    await recordAudit(s.db, { actorId: ngo.id, action: "donation.rejected", details: { donationId: cash!.id, campaignId: campaign.id } });
    await recordAudit(s.db, { actorId: ngo.id, action: "donation.approved", details: { donationId: cash!.id, campaignId: campaign.id } });
    await recordAudit(s.db, { actorId: ngo.id, action: "pickup.received", details: { donationId: goods!.id } });
    await recordAudit(s.db, { actorId: ngo.id, action: "donation.approved", details: { donationId: "not-an-id" } });
    const [odd, ofGoods, ofCash, ofRejection] = (await listAudit(s.db, 1)).rows;
    const [series] = await s.db.select({ n: ngoProfiles.receiptSeries }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
    const gift = { kind: "cash", amount: 5000, method: "jazzcash", items: null, campaignTitle: "Audit winter blankets" };
    expect(ofCash!.donation).toEqual({ ...gift, receipt: `N${String(series!.n).padStart(3, "0")}-000012` });
    expect(ofRejection!.donation).toEqual({ ...gift, receipt: null });
    expect(ofGoods!.donation).toMatchObject({
      kind: "in_kind",
      items: "Ten blankets",
      receipt: null,
      campaignTitle: "Audit winter blankets",
    });
    expect(odd!.donation).toBeNull();
  });
});

describe("mail outbox", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("keeps mail in the outbox when no SMTP is configured, listed newest first for the admin", async () => {
    const admin = await makeUser(s.db, "admin");
    const actor: SessionUser = {
      id: admin.id,
      email: admin.email,
      role: "admin",
      verification: "verified",
      displayName: "",
      pictureKey: null,
      unreadNotifications: 0,
    };
    const ngo = await makeUser(s.db, "ngo", { verification: "pending" });
    const rider = await makeUser(s.db, "rider", { verification: "pending" });
    await accept(s, actor, ngo.id);
    // The first mail is a minute older, so the order is defined however fast the two were written.
    await makeOlder(s.db, mailOutbox, mailOutbox.createdAt, eq(mailOutbox.toAddress, ngo.email), 60);
    await reject(s, actor, rider.id, "Missing picture");
    const page = await listOutbox(s.db, actor, 1);
    expect(page.rows.map((m) => m.toAddress)).toEqual([rider.email, ngo.email]);
    expect(page.rows[0]).toMatchObject({ status: "kept", subject: "Your Ek Chhat sign-up needs changes" });
    expect(page.rows[0]!.body).toContain("Missing picture");
    // Searched by recipient, case-insensitively, with LIKE's wildcards taken literally.
    expect((await listOutbox(s.db, actor, 1, { q: rider.email.toUpperCase() })).rows.map((m) => m.toAddress)).toEqual([rider.email]);
    expect((await listOutbox(s.db, actor, 1, { q: "%" })).total).toBe(0);
    const rows = await s.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, rider.email), eq(mailOutbox.status, "kept")));
    expect(rows).toHaveLength(1);
  });
});
