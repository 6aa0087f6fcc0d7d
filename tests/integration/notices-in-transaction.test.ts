import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { campaigns, donations, mailOutbox, notifications, pickups, volunteerApplications } from "#server/db/schema.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { assignRider } from "#server/domain/pickups/pickups.ts";
import { decideApplication } from "#server/domain/volunteering/applications.ts";
import type { JobQueue } from "#server/jobs/queue.ts";
import type { Logger } from "#server/log.ts";
import { createMailer, type Mailer } from "#server/mail/mailer.ts";
import { asNgo } from "#tests/helpers/actors.ts";
import { makeApplication, makeCampaign, makeCashDonation, makePickup, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { openTestQueue } from "#tests/helpers/queue.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * A notice (the in-app row, the outbox row and the mail's job) is written in the transaction of the change it reports
 * (decision 042): it exists exactly when the change commits. To roll a change back after its notice was written, a
 * deferred trigger refuses, at COMMIT, a notification to an account the test names: everything written before it
 * in that transaction goes with it. Were the notice written after the change's commit, the change would stand and
 * only the notice would be lost, which these tests would see.
 */
describe("notices in their change's transaction", () => {
  let s: TestServices;
  let queue: JobQueue;
  let services: TestServices & { mailer: Mailer };

  beforeAll(async () => {
    s = await createTestServices();
    queue = await openTestQueue(s);
    // A mail server is configured (a queue): each mail is an outbox row and a `mail` job. No worker takes them here.
    services = { ...s, mailer: createMailer({ log: s.log, queue }) };
    await s.db.execute(sql`create table refuse_notice_to (user_id uuid primary key)`);
    await s.db.execute(sql`
      create function refuse_notice() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from refuse_notice_to where user_id = new.user_id) then
          raise exception 'the transaction is refused at its commit, after the notice';
        end if;
        return null;
      end $$`);
    await s.db.execute(sql`
      create constraint trigger refuse_notice after insert on notifications
      deferrable initially deferred for each row execute function refuse_notice()`);
  });
  afterAll(async () => {
    await queue.stop();
    await s.close();
  });

  const refuseNoticesTo = (userId: string) => s.db.execute(sql`insert into refuse_notice_to values (${userId})`);
  const allowNoticesTo = (userId: string) => s.db.execute(sql`delete from refuse_notice_to where user_id = ${userId}`);
  const noticesOf = (userId: string, type: string) =>
    s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  /** The outbox rows to an address, each with how many `mail` jobs carry its id. */
  const mailTo = async (address: string) => {
    const result = (await s.db.execute(sql`
      select o.status, (select count(*)::int from pgboss.job j where j.name = 'mail' and j.data->>'outboxId' = o.id::text) as jobs
      from ${mailOutbox} o where o.to_address = ${address}`)) as unknown as { rows: { status: string; jobs: number }[] };
    return result.rows;
  };

  it("a cash approval: the donor's notice and mail job commit with it, and neither exists when it rolls back", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 1_000_000 });
    const first = await makeCashDonation(s, campaign, donor.id, { amount: 2500 });
    const second = await makeCashDonation(s, campaign, donor.id, { amount: 700 });

    await decideCashDonation(services, asNgo(ngo.id), { donationId: first.id, approve: true });
    expect(await noticesOf(donor.id, "donationApproved")).toHaveLength(1);
    expect(await mailTo(donor.email)).toEqual([{ status: "queued", jobs: 1 }]);

    await refuseNoticesTo(donor.id);
    await expect(decideCashDonation(services, asNgo(ngo.id), { donationId: second.id, approve: true })).rejects.toThrow();
    // The approval went with its notice: still pending, not counted, no receipt number, and no second notice or mail.
    const [pending] = await s.db.select().from(donations).where(eq(donations.id, second.id));
    expect(pending).toMatchObject({ status: "pending", receiptNumber: null });
    expect((await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0]!.collectedAmount).toBe(2500);
    expect(await noticesOf(donor.id, "donationApproved")).toHaveLength(1);
    expect(await mailTo(donor.email)).toHaveLength(1);

    // Tried again, it commits once, with its notice and its mail, and the money is counted once.
    await allowNoticesTo(donor.id);
    await decideCashDonation(services, asNgo(ngo.id), { donationId: second.id, approve: true });
    expect((await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0]!.collectedAmount).toBe(3200);
    expect(await noticesOf(donor.id, "donationApproved")).toHaveLength(2);
    expect(await mailTo(donor.email)).toEqual([
      { status: "queued", jobs: 1 },
      { status: "queued", jobs: 1 },
    ]);
  });

  it("a pick-up step: the rider's and the donor's notices and mail jobs commit with the assignment, or none of them", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const campaign = await makeCampaign(s.db, ngo.id);
    const { donation } = await makePickup(s.db, campaign, donor.id);

    await refuseNoticesTo(donor.id);
    await expect(assignRider(services, asNgo(ngo.id), { donationId: donation.id, riderId: rider.id, reassign: false })).rejects.toThrow();
    expect((await s.db.select().from(pickups).where(eq(pickups.donationId, donation.id)))[0]).toMatchObject({
      status: "new",
      riderId: null,
    });
    // The rider's notice was written before the donor's, in the same transaction: it went too.
    expect(await noticesOf(rider.id, "pickupAssigned")).toHaveLength(0);
    expect(await mailTo(rider.email)).toHaveLength(0);
    expect(await mailTo(donor.email)).toHaveLength(0);

    await allowNoticesTo(donor.id);
    await assignRider(services, asNgo(ngo.id), { donationId: donation.id, riderId: rider.id, reassign: false });
    expect((await s.db.select().from(pickups).where(eq(pickups.donationId, donation.id)))[0]).toMatchObject({
      status: "assigned",
      riderId: rider.id,
    });
    expect(await noticesOf(rider.id, "pickupAssigned")).toHaveLength(1);
    expect(await noticesOf(donor.id, "pickupRiderAssigned")).toHaveLength(1);
    expect(await mailTo(rider.email)).toEqual([{ status: "queued", jobs: 1 }]);
    expect(await mailTo(donor.email)).toEqual([{ status: "queued", jobs: 1 }]);
  });

  it("an application decision: the applicant's notice and mail job commit with it, and neither exists when it rolls back", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const position = await makePosition(s.db, ngo.id);
    const application = await makeApplication(s.db, position.id, donor.id);

    await refuseNoticesTo(donor.id);
    await expect(decideApplication(services, asNgo(ngo.id), { applicationId: application.id, approve: true })).rejects.toThrow();
    expect((await s.db.select().from(volunteerApplications).where(eq(volunteerApplications.id, application.id)))[0]!.status).toBe(
      "pending",
    );
    expect(await noticesOf(donor.id, "volunteerApproved")).toHaveLength(0);
    expect(await mailTo(donor.email)).toHaveLength(0);

    await allowNoticesTo(donor.id);
    expect(await decideApplication(services, asNgo(ngo.id), { applicationId: application.id, approve: true })).toEqual({
      status: "approved",
      changed: true,
    });
    expect(await noticesOf(donor.id, "volunteerApproved")).toHaveLength(1);
    expect(await mailTo(donor.email)).toEqual([{ status: "queued", jobs: 1 }]);
  });

  it("a notice failing for a reason that is not the database's is logged, and the approval stands without it", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 1_000_000 });
    const gift = await makeCashDonation(s, campaign, donor.id, { amount: 1500 });
    const logged: string[] = [];
    const log = { ...s.log, error: (_obj: unknown, msg: string) => logged.push(msg) } as unknown as Logger;
    // The mail's text is made, then the mailer fails on its own (not a statement the database refused).
    const broken: Mailer = {
      async send() {
        throw new Error("the mail template could not be rendered");
      },
    };

    const outcome = await decideCashDonation({ ...s, log, mailer: broken }, asNgo(ngo.id), { donationId: gift.id, approve: true });
    expect(outcome).toMatchObject({ status: "approved", changed: true, receiptNumber: expect.any(Number) });
    expect((await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0]!.collectedAmount).toBe(1500);
    // The notice's savepoint went back whole: no in-app row without its mail.
    expect(await noticesOf(donor.id, "donationApproved")).toHaveLength(0);
    expect(logged).toEqual(["a notice could not be made; the change stands without it"]);
  });

  it("a notice the database refuses rolls the approval back with it (the NGO sees an error and may try again)", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 1_000_000 });
    const gift = await makeCashDonation(s, campaign, donor.id, { amount: 1500 });
    const refusing: Mailer = {
      async send(db) {
        await db.execute(sql`select 1 / 0`);
      },
    };
    await expect(decideCashDonation({ ...s, mailer: refusing }, asNgo(ngo.id), { donationId: gift.id, approve: true })).rejects.toThrow();
    expect((await s.db.select().from(donations).where(eq(donations.id, gift.id)))[0]!.status).toBe("pending");
    expect((await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0]!.collectedAmount).toBe(0);
    expect(await noticesOf(donor.id, "donationApproved")).toHaveLength(0);
  });
});
