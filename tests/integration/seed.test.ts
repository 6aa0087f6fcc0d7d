import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  campaignPartners,
  campaigns,
  donations,
  donorProfiles,
  files,
  notifications,
  pickupEvents,
  pickups,
  riderProfiles,
  spendingRecords,
  users,
  volunteerApplications,
  volunteerPositions,
} from "#server/db/schema.ts";
import { seedDemoData, DEMO_ACCOUNTS, DEMO_RIDERS, DEMO_VOLUNTEERS } from "#server/demo/seed.ts";
import { mayRead } from "#server/domain/files/files.ts";
import { publicLedger } from "#server/domain/ledger/ledger.ts";
import { publicUpdatesSection } from "#server/domain/updates/public.ts";
import { applicationsForNgo, applicationsOfDonor } from "#server/domain/volunteering/applications.ts";
import { openPositions, positionsOfNgo } from "#server/domain/volunteering/positions.ts";
import { reviewQueue } from "#server/domain/donations/cash.ts";
import { ngoPickupQueue, pickupsOfDonor, riderChoices, riderPickups } from "#server/domain/pickups/pickups.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";

describe("demo data", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
    // The queue opens first, as at start-up: the demo's updates queue their mails inside their transactions, which
    // PGlite's one connection could not serve while the queue was still being opened.
    await s.jobs.depth();
    await seedDemoData(s);
    // The demo is made through the product's own functions, PDF pages drawn and pictures encoded included: on a
    // loaded two-core machine it takes longer than the default hook allows.
  }, 300_000);
  afterAll(async () => s.close());

  const idOf = async (email: string) => (await s.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

  it("loads the demo accounts once", async () => {
    await seedDemoData(s);
    const [{ n }] = (await s.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.email, DEMO_ACCOUNTS.ngo))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("numbers its audit entries in the order of their dates, so the audit log reads as a story", async () => {
    const entries = await s.db.select({ at: auditLog.createdAt }).from(auditLog).orderBy(asc(auditLog.id));
    expect(entries.length).toBeGreaterThan(10);
    const times = entries.map((e) => e.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const [{ next }] = (await s.db
      .execute(sql`SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))::int AS next`)
      .then((r) => (Array.isArray(r) ? r : (r as unknown as { rows: unknown[] }).rows))) as [{ next: number }];
    expect(next).toBe(entries.length + 1);
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
    expect(all.reduce((sum, c) => sum + c.collectedAmount, 0)).toBe(
      25_000 + 60_000 + 15_500 + 100_000 + 12_000 + 5_000 + 10_000 + 7_500 + 50_000 + 70_000 + 50_000,
    );
    // The ambulance fund reached its target through the last approval and moved to Successful.
    const done = all.filter((c) => c.status === "completed");
    expect(done.map((c) => c.title)).toEqual(["Ambulance fuel fund Islamabad"]);
    expect(done[0]!.collectedAmount).toBe(done[0]!.targetAmount);
    expect(done[0]!.completedAt!.getTime()).toBeLessThan(Date.now() - 24 * 3600 * 1000);
  });

  it("gave every gift through the proof form and the review: a stored proof, a decision, an audit entry, receipts in date order", async () => {
    const approved = await s.db
      .select()
      .from(donations)
      .where(and(eq(donations.status, "approved"), eq(donations.kind, "cash")))
      .orderBy(asc(donations.createdAt));
    expect(approved).toHaveLength(11);
    for (const d of approved) {
      expect(d.proofKey).toMatch(/^proof\//);
      expect(await s.storage.get(d.proofKey!)).not.toBeNull();
      expect(
        await s.db
          .select()
          .from(files)
          .where(and(eq(files.key, d.proofKey!), eq(files.ownerId, d.donorId))),
      ).toHaveLength(1);
      expect(d).toMatchObject({ kind: "cash", phone: "03211234567", decidedBy: d.recipientNgoId });
      expect(d.transactionId).toMatch(/^\d{11}$/);
      expect(d.decidedAt!.getTime()).toBeGreaterThan(d.createdAt.getTime());
      const audit = await s.db
        .select()
        .from(auditLog)
        .where(sql`${auditLog.details}->>'donationId' = ${d.id}`);
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
    const queue = await reviewQueue(s.db, asNgo(ngoId), { page: 1 });
    expect(queue.total).toBe(3);
    const pending = await s.db
      .select()
      .from(donations)
      .where(and(eq(donations.recipientNgoId, ngoId), eq(donations.status, "pending"), eq(donations.kind, "cash")));
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

  it("has three verified demo riders in different cities, Bilal in Karachi", async () => {
    const riders = await s.db
      .select({
        email: users.email,
        verification: users.verification,
        role: users.role,
        first: riderProfiles.firstName,
        area: riderProfiles.areaLabel,
        lat: riderProfiles.areaLat,
        lng: riderProfiles.areaLng,
      })
      .from(users)
      .innerJoin(riderProfiles, eq(riderProfiles.userId, users.id));
    expect(riders.map((r) => r.email).sort()).toEqual(DEMO_RIDERS.map((r) => r.email).sort());
    expect(riders.every((r) => r.role === "rider" && r.verification === "verified" && r.lat !== null && r.lng !== null)).toBe(true);
    const bilal = riders.find((r) => r.email === DEMO_ACCOUNTS.rider)!;
    expect(bilal).toMatchObject({ first: "Bilal", area: "Karachi, Sindh" });
    expect(new Set(riders.map((r) => r.area)).size).toBe(3);
    // From Karachi, Bilal is the NGO's first choice.
    const choices = await riderChoices(s.db, { lat: bilal.lat!, lng: bilal.lng! }, 25);
    expect(choices[0]!.name).toBe("Bilal Ahmed");
    expect(choices[0]!.distanceKm).toBeLessThan(1);
    expect(choices.map((c) => c.distanceKm)).toEqual([...choices.map((c) => c.distanceKm)].sort((a, b) => a! - b!));
  });

  it("has the demo donor's goods for Roshni Welfare Trust in every state a screen shows, with consistent timelines", async () => {
    const ngoId = await idOf(DEMO_ACCOUNTS.ngo);
    const donorId = await idOf(DEMO_ACCOUNTS.donor);
    const bilal = await idOf(DEMO_ACCOUNTS.rider);
    const usman = await idOf(DEMO_RIDERS[1].email);
    const rows = await s.db
      .select({ d: donations, p: pickups })
      .from(pickups)
      .innerJoin(donations, eq(donations.id, pickups.donationId))
      .orderBy(asc(donations.createdAt));
    expect(rows).toHaveLength(4);
    const ours = await s.db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.ownerId, ngoId));
    for (const { d, p } of rows) {
      expect(d).toMatchObject({ kind: "in_kind", donorId, recipientNgoId: ngoId, phone: "03211234567", amount: null });
      expect(ours.map((c) => c.id)).toContain(d.campaignId);
      expect(p.areaLabel).toBe("Karachi, Sindh");
      expect(p.code).toMatch(/^\d{4}$/);
      expect(p.updatedAt.getTime()).toBeGreaterThanOrEqual(d.createdAt.getTime());
    }
    const byStatus = Object.fromEntries(rows.map((r) => [r.p.status, r]));
    expect(Object.keys(byStatus).sort()).toEqual(["accepted", "assigned", "new", "received"]);
    expect(byStatus.new!.p.riderId).toBeNull();
    expect(byStatus.assigned!.p.riderId).toBe(bilal);
    expect(byStatus.accepted!.p.riderId).toBe(bilal);
    expect(byStatus.received!.p.riderId).toBe(bilal);
    expect(byStatus.received!.p.receivedNote).toMatch(/arrived/);
    expect(byStatus.received!.d).toMatchObject({ status: "approved", decidedBy: ngoId, receiptNumber: null });
    for (const st of ["new", "assigned", "accepted"]) expect(byStatus[st]!.d.status).toBe("pending");

    // Each timeline is the real sequence of steps, in time order, after the offer and not in the future.
    const expected: Record<string, string[]> = {
      new: ["requested", "assigned", "declined"],
      assigned: ["requested", "assigned"],
      accepted: ["requested", "assigned", "accepted"],
      received: ["requested", "assigned", "accepted", "collected", "delivered", "received"],
    };
    for (const [status, { d, p }] of Object.entries(byStatus)) {
      const events = await s.db.select().from(pickupEvents).where(eq(pickupEvents.donationId, d.id)).orderBy(asc(pickupEvents.id));
      expect(
        events.map((e) => e.type),
        status,
      ).toEqual(expected[status]);
      const times = events.map((e) => e.createdAt.getTime());
      expect(times[0]).toBe(d.createdAt.getTime());
      expect(times, status).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
      expect(times.at(-1)).toBe(p.updatedAt.getTime());
      expect(times.at(-1)!).toBeLessThan(Date.now());
      // The window was a day from the offer's day on.
      expect(p.windowDate >= new Date(d.createdAt.getTime() + 5 * 3600 * 1000).toISOString().slice(0, 10)).toBe(true);
    }
    const declined = (
      await s.db
        .select()
        .from(pickupEvents)
        .where(and(eq(pickupEvents.donationId, byStatus.new!.d.id), eq(pickupEvents.type, "declined")))
    )[0]!;
    expect(declined).toMatchObject({ riderId: usman, actorId: usman });
    expect(declined.reason).toBeTruthy();
    const audit = await s.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.details}->>'donationId' = ${byStatus.received!.d.id}`);
    expect(audit).toMatchObject([{ action: "pickup.received", actorId: ngoId }]);
    expect(audit[0]!.createdAt.getTime()).toBe(byStatus.received!.p.updatedAt.getTime());

    // What the screens show.
    const queue = await ngoPickupQueue(s.db, { id: ngoId, role: "ngo" as const }, { tab: "new", page: 1 });
    expect(queue.counts).toEqual({ new: 1, active: 2 });
    const mine = await riderPickups(s.db, { id: bilal, role: "rider" as const }, { tab: "pending", page: 1 });
    expect(mine.counts).toEqual({ pending: 1, registered: 1, completed: 1 });
    expect(mine.rows[0]!.distanceKm).toBeLessThan(1);
    const history = await pickupsOfDonor(
      s.db,
      { id: donorId, role: "donor" as const },
      rows.map((r) => r.d.id),
    );
    expect(history.size).toBe(4);
    // The rider was told of each assignment, the NGO of the decline.
    const told = await s.db.select().from(notifications).where(eq(notifications.userId, bilal));
    expect(told.filter((n) => n.type === "pickupAssigned")).toHaveLength(3);
    const ngoTold = await s.db.select().from(notifications).where(eq(notifications.userId, ngoId));
    expect(ngoTold.filter((n) => n.type === "pickupDeclined")).toHaveLength(1);
    expect(ngoTold.filter((n) => n.type === "pickupRequested")).toHaveLength(4);
    for (const n of [...told, ...ngoTold]) expect(n.createdAt.getTime()).toBeLessThan(Date.now());
  });

  it("has Roshni Welfare Trust's volunteer positions, with posters in three cities and one closed, and applications in every state", async () => {
    const ngoId = await idOf(DEMO_ACCOUNTS.ngo);
    const donorId = await idOf(DEMO_ACCOUNTS.donor);
    const volunteers = await s.db
      .select({ email: users.email, role: users.role, first: donorProfiles.firstName })
      .from(users)
      .innerJoin(donorProfiles, eq(donorProfiles.userId, users.id))
      .where(
        sql`${users.email} in (${sql.join(
          DEMO_VOLUNTEERS.map((v) => sql`${v.email}`),
          sql`, `,
        )})`,
      );
    expect(volunteers.map((v) => v.first).sort()).toEqual(DEMO_VOLUNTEERS.map((v) => v.firstName).sort());
    expect(volunteers.every((v) => v.role === "donor")).toBe(true);

    // Only the demo NGO posts positions: three open in different cities, each with a stored poster, and one closed.
    const all = await s.db.select().from(volunteerPositions);
    expect(all.every((p) => p.ngoId === ngoId)).toBe(true);
    const open = (await positionsOfNgo(s.db, asNgo(ngoId), { state: "open", page: 1 })).rows;
    expect(open).toHaveLength(3);
    expect(new Set(open.map((p) => p.cityLabel?.split(",")[0])).size).toBe(3);
    for (const p of open) {
      expect(p.posterKey).toMatch(/^poster\//);
      expect(await s.storage.get(p.posterKey!)).not.toBeNull();
      expect(
        await s.db
          .select()
          .from(files)
          .where(and(eq(files.key, p.posterKey!), eq(files.kind, "poster"), eq(files.ownerId, ngoId))),
      ).toHaveLength(1);
      expect(p.createdAt.getTime()).toBeLessThan(Date.now() - 24 * 3600 * 1000);
    }
    expect(open.filter((p) => p.closesOn !== null)).toHaveLength(1);
    const closed = (await positionsOfNgo(s.db, asNgo(ngoId), { state: "closed", page: 1 })).rows;
    expect(closed).toMatchObject([{ status: "closed", closedByDate: false }]);
    // A donor finds the open ones.
    const found = await openPositions(s.db, asDonor(donorId), { page: 1 });
    expect(found.rows.map((r) => r.id).sort()).toEqual(open.map((p) => p.id).sort());
    expect(found.rows.filter((r) => r.applied)).toHaveLength(3);

    // The demo donor's /dvh2: one application in each state.
    const mine = (await applicationsOfDonor(s.db, asDonor(donorId), 1)).rows;
    expect(mine.map((r) => r.state).sort()).toEqual(["approved", "closed", "declined", "live"]);
    const declined = mine.find((r) => r.state === "declined")!;
    expect(declined.decisionMessage).toMatch(/Thank you/);
    expect(mine.find((r) => r.state === "closed")!.positionId).toBe(closed[0]!.id);

    // The NGO's lists: live applications from three donors (one with a resume), one approved, one declined.
    const pending = await applicationsForNgo(s.db, asNgo(ngoId), { status: "pending", page: 1 });
    expect(pending.total).toBe(5);
    expect((await applicationsForNgo(s.db, asNgo(ngoId), { status: "approved", page: 1 })).total).toBe(1);
    expect((await applicationsForNgo(s.db, asNgo(ngoId), { status: "declined", page: 1 })).total).toBe(1);
    expect(new Set(pending.rows.map((r) => r.applicantEmail))).toEqual(
      new Set([DEMO_ACCOUNTS.donor, ...DEMO_VOLUNTEERS.map((v) => v.email)]),
    );
    const withResume = await s.db
      .select()
      .from(volunteerApplications)
      .where(sql`${volunteerApplications.resumeKey} is not null`);
    expect(withResume).toHaveLength(1);
    const resume = withResume[0]!;
    expect(resume).toMatchObject({ donorId, status: "pending" });
    const [file] = await s.db.select().from(files).where(eq(files.key, resume.resumeKey!));
    expect(file).toMatchObject({ kind: "resume", ownerId: donorId, contentType: "application/pdf" });
    expect((await s.storage.get(resume.resumeKey!))!.subarray(0, 5).toString()).toBe("%PDF-");
    expect(
      await mayRead(s.db, file!, {
        id: ngoId,
        role: "ngo",
        email: DEMO_ACCOUNTS.ngo,
        verification: "verified",
        displayName: "",
        pictureKey: null,
        unreadNotifications: 0,
      }),
    ).toBe(true);

    // Dated in order, in the past; decisions audited and told.
    const apps = await s.db.select().from(volunteerApplications);
    expect(apps).toHaveLength(7);
    for (const a of apps) {
      expect(a.createdAt.getTime()).toBeLessThan(Date.now());
      if (a.decidedAt) expect(a.decidedAt.getTime()).toBeGreaterThan(a.createdAt.getTime());
    }
    const audit = await s.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} like 'volunteer.%'`);
    expect(audit.map((a) => a.action).sort()).toEqual([
      "volunteer.applicationApproved",
      "volunteer.applicationDeclined",
      "volunteer.positionClosed",
      "volunteer.positionCreated",
      "volunteer.positionCreated",
      "volunteer.positionCreated",
      "volunteer.positionCreated",
    ]);
    const ngoTold = await s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ngoId), eq(notifications.type, "volunteerApplied")));
    expect(ngoTold).toHaveLength(7);
    const donorTold = await s.db.select().from(notifications).where(eq(notifications.userId, donorId));
    expect(donorTold.filter((n) => n.type === "volunteerApproved")).toHaveLength(1);
    expect(donorTold.filter((n) => n.type === "volunteerDeclined")).toHaveLength(1);
    for (const n of [...ngoTold, ...donorTold]) expect(n.createdAt.getTime()).toBeLessThan(Date.now());
  });

  it("has a public ledger: what both NGOs of the joint Dadu campaign spent, with their documents, and one draft", async () => {
    const [dadu] = await s.db.select().from(campaigns).where(eq(campaigns.title, "Flood relief for Dadu families"));
    const ledger = await publicLedger(s.db, dadu!.slug);
    expect(ledger.spending.map((r) => [r.amount, r.documentKey!.split(".").pop()])).toEqual([
      [36_500, "webp"],
      [84_000, "pdf"],
    ]);
    expect(new Set(ledger.spending.map((r) => r.ngoName)).size).toBe(2);
    const general = ledger.funds.find((f) => f.fund === "general")!;
    expect(general.spent).toBe(120_500);
    expect(general.balance).toBe(general.raised - 120_500);
    for (const r of ledger.spending) {
      const [file] = await s.db.select().from(files).where(eq(files.key, r.documentKey!));
      expect(await mayRead(s.db, file!, null)).toBe(true);
    }
    const drafts = await s.db.select().from(spendingRecords).where(eq(spendingRecords.status, "draft"));
    expect(drafts).toHaveLength(1);
    const [draftFile] = await s.db.select().from(files).where(eq(files.key, drafts[0]!.documentKey));
    expect(await mayRead(s.db, draftFile!, null)).toBe(false);
  });

  it("has updates on Roshni's campaigns, newest first with photos, and the demo donor's words: approved on Dadu, waiting on Tharparkar", async () => {
    const slugOf = async (title: string) =>
      (await s.db.select({ slug: campaigns.slug }).from(campaigns).where(eq(campaigns.title, title)))[0]!.slug;
    const dadu = await publicUpdatesSection(s.db, await slugOf("Flood relief for Dadu families"));
    expect(dadu.updates.rows.map((u) => u.photos.length)).toEqual([0, 2]);
    expect(dadu.updates.rows[0]!.body).toMatch(/خیرپور/);
    expect(dadu.words.rows.map((w) => w.name)).toEqual([null]);
    expect(dadu.donorCount).toBe(1);
    const thar = await publicUpdatesSection(s.db, await slugOf("Clean water wells in Tharparkar"));
    expect(thar.updates.rows).toHaveLength(1);
    expect(thar.words.rows).toEqual([]);
    const ayesha = await idOf(DEMO_ACCOUNTS.donor);
    const told = await s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ayesha), eq(notifications.type, "campaignUpdate")));
    expect(told).toHaveLength(3);
  });
});
