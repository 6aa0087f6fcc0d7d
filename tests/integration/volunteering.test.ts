import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { applicationSchema, type ApplicationValues, type PositionInput } from "#shared/forms/volunteering.ts";
import { PAGE_SIZE, POSITION_CLOSES_MAX_DAYS, RESUME_MAX_BYTES, VOLUNTEERS_NEEDED_MAX } from "#shared/constants.ts";
import {
  auditLog,
  files,
  mailOutbox,
  ngoProfiles,
  notifications,
  users,
  volunteerApplications,
  volunteerPositions,
} from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { DomainError } from "#server/domain/errors.ts";
import { mayRead, findFileForUser } from "#server/domain/files/files.ts";
import {
  applicationForNgo,
  applicationsForNgo,
  applicationsOfDonor,
  applyToPosition,
  decideApplication,
} from "#server/domain/volunteering/applications.ts";
import {
  closePosition,
  createPosition,
  openPositions,
  parsePosition,
  positionForDonor,
  positionsOfNgo,
  reopenPosition,
} from "#server/domain/volunteering/positions.ts";
import { createApp } from "#server/http/app.ts";
import { makeApplication, makePdf, makePosition, makeUser, asSessionUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { NOT_FOUND, failure } from "#tests/helpers/failure.ts";
import { asNgo } from "#tests/helpers/actors.ts";

/** The domain error a call fails with (kind, message key, field, params), or "no error". */

/** The error `parsePosition` gives for an input, or "no error". */
function parseFailure(input: PositionInput): { message: string; field?: string } | "no error" {
  try {
    parsePosition(input);
    return "no error";
  } catch (err) {
    if (err instanceof DomainError) return { message: err.message, ...(err.field ? { field: err.field } : {}) };
    throw err;
  }
}

const uid = () => randomUUID().slice(0, 8);
const DAY = 24 * 3600 * 1000;

/** A valid position form, unique title, no city, no closing day. */
const positionInput = (overrides: Partial<PositionInput> = {}): PositionInput => ({
  title: `Weekend reading teacher ${uid()}`,
  description: "Teach children to read at our weekend school.",
  responsibilities: "Prepare lessons; keep attendance.",
  workingHours: "4 hours a day",
  duration: "3 months",
  timings: "Saturdays 10 am to 2 pm",
  volunteersNeeded: "2",
  ...overrides,
});

const pdfFile = (bytes: Buffer = makePdf(`Resume ${uid()}`), name = "resume.pdf", type = "application/pdf") =>
  new File([new Uint8Array(bytes)], name, { type });

async function posterFile(colour = "#0f766e"): Promise<File> {
  const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(png)], "poster.png", { type: "image/png" });
}

/** The application form's values, as the server action has them after parsing. */
const applicationValues = (positionId: string, overrides: Partial<Record<keyof ApplicationValues, unknown>> = {}): ApplicationValues =>
  z.parse(applicationSchema, {
    positionId,
    idempotencyKey: randomUUID(),
    motivation: "I want to help children learn to read.",
    experience: "Two years of tutoring.",
    ...overrides,
  });

describe("volunteering", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const resumeDir = () => path.join(s.config.dataDir, "files", "resume");
  const storedResumes = () =>
    fs.existsSync(resumeDir())
      ? fs
          .readdirSync(resumeDir())
          .map((f) => `resume/${f}`)
          .sort()
      : [];

  /**
   * After every scenario: every stored resume has one files row and belongs to exactly one application, and every
   * application's resume exists: nothing half-written, no orphans.
   */
  afterEach(async () => {
    const rows = (await s.db.select({ key: files.key }).from(files).where(eq(files.kind, "resume"))).map((r) => r.key).sort();
    const referenced = (
      await s.db
        .select({ key: volunteerApplications.resumeKey })
        .from(volunteerApplications)
        .where(sql`${volunteerApplications.resumeKey} is not null`)
    )
      .map((r) => r.key!)
      .sort();
    expect(storedResumes(), "resumes in storage = resumes in the files table").toEqual(rows);
    expect(rows, "resumes in the files table = resumes of applications").toEqual(referenced);
  });

  const ngo = (name?: string, verification?: "pending" | "verified") =>
    makeUser(s.db, "ngo", { name: name ?? `Helping Hands ${uid()}`, verification });
  const donor = () => makeUser(s.db, "donor");
  const positionRow = async (id: string) => (await s.db.select().from(volunteerPositions).where(eq(volunteerPositions.id, id)))[0]!;
  const applicationRow = async (id: string) =>
    (await s.db.select().from(volunteerApplications).where(eq(volunteerApplications.id, id)))[0]!;
  const applicationsTo = (positionId: string) =>
    s.db.select().from(volunteerApplications).where(eq(volunteerApplications.positionId, positionId));
  const filesOf = (ownerId: string) => s.db.select().from(files).where(eq(files.ownerId, ownerId));
  const positionsBy = (ngoId: string) => s.db.select().from(volunteerPositions).where(eq(volunteerPositions.ngoId, ngoId));
  const notificationsOf = (userId: string, type: string) =>
    s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  const mailTo = (email: string) =>
    s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(asc(mailOutbox.createdAt));
  const auditFor = (key: "positionId" | "applicationId", id: string) =>
    s.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.details}->>${key} = ${id}`)
      .orderBy(asc(auditLog.id));
  const create = (ngoId: string, overrides: Partial<PositionInput> = {}, now?: Date) =>
    createPosition(s, asNgo(ngoId), parsePosition(positionInput(overrides)), now);

  describe("creating a position", () => {
    it("requires title, description, working hours, timings and a positive whole number of volunteers", () => {
      expect(parseFailure(positionInput())).toBe("no error");
      expect(parseFailure(positionInput({ title: "   " }))).toEqual({ message: "volunteer:errors.titleRequired", field: "title" });
      expect(parseFailure(positionInput({ description: "" }))).toEqual({
        message: "volunteer:errors.descriptionRequired",
        field: "description",
      });
      expect(parseFailure(positionInput({ workingHours: " " }))).toEqual({
        message: "volunteer:errors.hoursRequired",
        field: "workingHours",
      });
      expect(parseFailure(positionInput({ timings: "" }))).toEqual({ message: "volunteer:errors.timingsRequired", field: "timings" });
      const needed = (v: string) => parseFailure(positionInput({ volunteersNeeded: v }));
      expect(needed("")).toEqual({ message: "volunteer:errors.neededRequired", field: "volunteersNeeded" });
      for (const bad of ["0", "-1", "1.5", "abc"])
        expect(needed(bad), bad).toEqual({ message: "volunteer:errors.neededPositive", field: "volunteersNeeded" });
      expect(needed(String(VOLUNTEERS_NEEDED_MAX + 1))).toEqual({ message: "volunteer:errors.neededTooMany", field: "volunteersNeeded" });
      expect(needed(String(VOLUNTEERS_NEEDED_MAX))).toBe("no error");
      expect(parsePosition(positionInput({ volunteersNeeded: " 1,000 " })).volunteersNeeded).toBe(1000);
    });

    it("collapses the spaces of a title", () => {
      expect(parsePosition(positionInput({ title: "  Weekend   reading \n teacher  " })).title).toBe("Weekend reading teacher");
    });

    it("stores a position with a city resolved by the offline geocoder, a poster as a public file and an audit entry", async () => {
      const n = await ngo();
      const p = await create(n.id, { city: "Lahore", volunteersNeeded: "3", poster: await posterFile() });
      expect(p).toMatchObject({ ngoId: n.id, status: "active", volunteersNeeded: 3, closesOn: null, closedAt: null });
      expect(p.cityLabel).toMatch(/^Lahore, /);
      expect(p.cityLat).toBeCloseTo(31.55, 1);
      expect(p.cityLng).toBeCloseTo(74.35, 1);
      expect(p.posterKey).toMatch(/^poster\/[0-9a-f-]{36}\.webp$/);
      expect(await filesOf(n.id)).toMatchObject([{ key: p.posterKey, kind: "poster", ownerId: n.id, contentType: "image/webp" }]);
      expect(await s.storage.get(p.posterKey!)).not.toBeNull();
      // Posters are public: anyone, signed in or not, may read them.
      expect((await findFileForUser(s, p.posterKey!, null))?.public).toBe(true);
      expect(await auditFor("positionId", p.id)).toMatchObject([
        { action: "volunteer.positionCreated", actorId: n.id, details: { title: p.title } },
      ]);
    });

    it("refuses a city it cannot find, and takes no city as work from anywhere", async () => {
      const n = await ngo();
      expect(await failure(create(n.id, { city: "Atlantis under the sea" }))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.cityInvalid",
        field: "city",
      });
      const anywhere = await create(n.id, { city: "" });
      expect(anywhere).toMatchObject({ cityLabel: null, cityLat: null, cityLng: null });
      expect(await positionsBy(n.id)).toHaveLength(1);
    });

    it("takes a closing day from today up to a year ahead, and only real days", async () => {
      const n = await ngo();
      const now = new Date();
      const today = pakistanToday(now);
      const range = { kind: "invalid", message: "volunteer:errors.closesOnRange", field: "closesOn" };
      expect(await failure(create(n.id, { closesOn: "2026-02-30" }, now))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.closesOnInvalid",
        field: "closesOn",
      });
      expect(await failure(create(n.id, { closesOn: addDays(today, -1) }, now))).toEqual(range);
      expect(await failure(create(n.id, { closesOn: addDays(today, POSITION_CLOSES_MAX_DAYS + 1) }, now))).toEqual(range);
      expect((await create(n.id, { closesOn: today }, now)).closesOn).toBe(today);
      expect((await create(n.id, { closesOn: addDays(today, POSITION_CLOSES_MAX_DAYS) }, now)).closesOn).toBe(
        addDays(today, POSITION_CLOSES_MAX_DAYS),
      );
      expect(await positionsBy(n.id)).toHaveLength(2);
    });

    it("refuses a poster that is not an image and stores nothing", async () => {
      const n = await ngo();
      const fake = new File(["<html><script>alert(1)</script></html>"], "poster.png", { type: "image/png" });
      expect(await failure(create(n.id, { poster: fake }))).toEqual({
        kind: "invalid",
        message: "validation:imageInvalid",
        field: "poster",
      });
      expect(await filesOf(n.id)).toEqual([]);
      expect(await positionsBy(n.id)).toEqual([]);
      expect(await s.db.select().from(auditLog).where(eq(auditLog.actorId, n.id))).toEqual([]);
    });
  });

  describe("open and closed", () => {
    it("the owner closes a position once; another NGO cannot close it", async () => {
      const owner = await ngo();
      const other = await ngo();
      const p = await create(owner.id);
      expect(await failure(closePosition(s.db, other, p.id))).toEqual(NOT_FOUND);
      expect(await positionRow(p.id)).toMatchObject({ status: "active", closedAt: null });
      expect(await failure(closePosition(s.db, owner, "not-a-uuid"))).toEqual(NOT_FOUND);

      await closePosition(s.db, owner, p.id);
      const closed = await positionRow(p.id);
      expect(closed.status).toBe("closed");
      expect(closed.closedAt).toBeInstanceOf(Date);
      expect(await failure(closePosition(s.db, owner, p.id))).toEqual({ kind: "conflict", message: "volunteer:errors.alreadyClosed" });
      expect((await auditFor("positionId", p.id)).map((a) => a.action)).toEqual(["volunteer.positionCreated", "volunteer.positionClosed"]);
      const lists = {
        open: (await positionsOfNgo(s.db, owner, { state: "open", page: 1 })).rows.map((r) => r.id),
        closed: (await positionsOfNgo(s.db, owner, { state: "closed", page: 1 })).rows,
      };
      expect(lists.open).not.toContain(p.id);
      expect(lists.closed).toMatchObject([{ id: p.id, status: "closed", closedByDate: false }]);
    });

    it("closes by itself after its closing day, with no job: still open on the day itself", async () => {
      const owner = await ngo();
      const applicant = await donor();
      const day = new Date("2031-03-10T12:00:00Z");
      const nextDay = new Date(day.getTime() + DAY);
      const title = `Closing day ${uid()}`;
      const p = await create(owner.id, { title, closesOn: "2031-03-10" }, day);

      // On its closing day (Pakistan time) it is open.
      expect((await positionsOfNgo(s.db, owner, { state: "open", page: 1 }, day)).rows.map((r) => r.id)).toEqual([p.id]);
      expect((await openPositions(s.db, applicant, { q: title, page: 1 }, day)).rows.map((r) => r.id)).toEqual([p.id]);
      expect((await positionForDonor(s.db, p.id, applicant, day)).open).toBe(true);

      // The day after, nothing was written, yet it is closed everywhere.
      expect((await positionRow(p.id)).status).toBe("active");
      expect((await positionsOfNgo(s.db, owner, { state: "open", page: 1 }, nextDay)).rows).toEqual([]);
      expect((await positionsOfNgo(s.db, owner, { state: "closed", page: 1 }, nextDay)).rows).toMatchObject([
        { id: p.id, status: "active", closesOn: "2031-03-10", closedByDate: true },
      ]);
      expect((await openPositions(s.db, applicant, { q: title, page: 1 }, nextDay)).rows).toEqual([]);
      expect((await positionForDonor(s.db, p.id, applicant, nextDay)).open).toBe(false);
      expect(await failure(applyToPosition(s, applicant, applicationValues(p.id), nextDay))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.positionClosed",
      });
      expect(await applicationsTo(p.id)).toEqual([]);
      // Still taking applications on the day itself.
      expect((await applyToPosition(s, applicant, applicationValues(p.id), day)).created).toBe(true);
    });

    it("refuses applications to a position its NGO closed", async () => {
      const owner = await ngo();
      const applicant = await donor();
      const p = await create(owner.id);
      await closePosition(s.db, owner, p.id);
      expect(await failure(applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile() })))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.positionClosed",
      });
      expect(await applicationsTo(p.id)).toEqual([]);
      expect(await filesOf(applicant.id)).toEqual([]);
    });

    it("reopens: without a date a passed closing day is cleared, with one it is set; open ones and past dates are refused", async () => {
      const owner = await ngo();
      const other = await ngo();
      const day = new Date("2031-05-20T12:00:00Z");
      const later = new Date(day.getTime() + 3 * DAY);
      const laterDay = pakistanToday(later);

      const passed = await create(owner.id, { closesOn: "2031-05-20" }, day);
      expect(await failure(reopenPosition(s.db, owner, passed.id, undefined, day))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.alreadyOpen",
      });
      expect(await failure(reopenPosition(s.db, other, passed.id, undefined, later))).toEqual(NOT_FOUND);
      expect(await failure(reopenPosition(s.db, owner, passed.id, addDays(laterDay, -1), later))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.closesOnRange",
        field: "closesOn",
      });
      expect(await positionRow(passed.id)).toMatchObject({ status: "active", closesOn: "2031-05-20" });
      await reopenPosition(s.db, owner, passed.id, undefined, later);
      expect(await positionRow(passed.id)).toMatchObject({ status: "active", closesOn: null, closedAt: null });
      expect((await positionsOfNgo(s.db, owner, { state: "open", page: 1 }, later)).rows.map((r) => r.id)).toContain(passed.id);

      const byHand = await create(owner.id, {}, day);
      await closePosition(s.db, owner, byHand.id, later);
      await reopenPosition(s.db, owner, byHand.id, addDays(laterDay, 5), later);
      expect(await positionRow(byHand.id)).toMatchObject({ status: "active", closesOn: addDays(laterDay, 5), closedAt: null });
      expect(await failure(reopenPosition(s.db, owner, byHand.id, undefined, later))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.alreadyOpen",
      });
      expect((await auditFor("positionId", byHand.id)).map((a) => a.action)).toEqual([
        "volunteer.positionCreated",
        "volunteer.positionClosed",
        "volunteer.positionReopened",
      ]);
    });
  });

  describe("the NGO's lists", () => {
    it("counts each position's applications: needed, applied, accepted and waiting", async () => {
      const owner = await ngo();
      const open = await create(owner.id, { volunteersNeeded: "3" });
      const closed = await create(owner.id, { volunteersNeeded: "1" });
      const quiet = await create(owner.id);
      const states = ["approved", "declined", "pending", "pending"] as const;
      for (const status of states) await makeApplication(s.db, open.id, (await donor()).id, { status });
      await makeApplication(s.db, closed.id, (await donor()).id, { status: "approved" });
      await makeApplication(s.db, closed.id, (await donor()).id);
      await closePosition(s.db, owner, closed.id);

      const openRows = (await positionsOfNgo(s.db, owner, { state: "open", page: 1 })).rows;
      expect(openRows.map((r) => r.id)).toEqual([quiet.id, open.id]);
      expect(openRows.find((r) => r.id === open.id)).toMatchObject({ volunteersNeeded: 3, applied: 4, accepted: 1, waiting: 2 });
      expect(openRows.find((r) => r.id === quiet.id)).toMatchObject({ applied: 0, accepted: 0, waiting: 0 });
      expect((await positionsOfNgo(s.db, owner, { state: "closed", page: 1 })).rows).toMatchObject([
        { id: closed.id, volunteersNeeded: 1, applied: 2, accepted: 1, waiting: 1 },
      ]);
      // The donor's list shows the same number accepted.
      const seen = await openPositions(s.db, await donor(), { q: open.title, page: 1 });
      expect(seen.rows).toMatchObject([{ id: open.id, accepted: 1 }]);
    });
  });

  describe("browsing", () => {
    it("searches title, NGO name and city, case-insensitively, with LIKE wildcards taken literally", async () => {
      const token = uid();
      const trust = await ngo(`Zephyr Trust ${token}`);
      const applicant = await donor();
      const byTitle = await makePosition(s.db, (await ngo()).id, { title: `Library helper ${token} 100% sure` });
      const plain = await makePosition(s.db, (await ngo()).id, { title: `Library helper ${token} 100 sure` });
      const ofTrust = await makePosition(s.db, trust.id, { title: `Kitchen helper ${uid()}` });
      const inTown = await makePosition(s.db, (await ngo()).id, { title: `Field helper ${uid()}`, cityLabel: `Qasba${token}, Punjab` });
      const ids = async (q: string) => (await openPositions(s.db, applicant, { q, page: 1 })).rows.map((r) => r.id).sort();

      expect(await ids(`LIBRARY HELPER ${token.toUpperCase()}`)).toEqual([byTitle.id, plain.id].sort());
      expect(await ids(`zephyr trust ${token}`)).toEqual([ofTrust.id]);
      expect(await ids(`qasba${token}`)).toEqual([inTown.id]);
      expect(await ids(token)).toEqual([byTitle.id, plain.id, ofTrust.id, inTown.id].sort());
      // "%" and "_" are letters, not wildcards.
      expect(await ids(`${token} 100%`)).toEqual([byTitle.id]);
      expect(await ids(`${token}_100`)).toEqual([]);
      expect(await ids(`helper ${token}%sure`)).toEqual([]);
      const percent = (await openPositions(s.db, applicant, { q: "%", page: 1 })).rows;
      expect(percent.map((r) => r.id)).toContain(byTitle.id);
      for (const r of percent) expect(`${r.title} ${r.ngoName} ${r.cityLabel}`).toContain("%");
    });

    it("hides the positions of a suspended or unverified NGO, and closed ones", async () => {
      const token = uid();
      const applicant = await donor();
      const suspended = await ngo();
      const pending = await ngo(undefined, "pending");
      const good = await ngo();
      const ofSuspended = await makePosition(s.db, suspended.id, { title: `Hidden ${token} a` });
      const ofPending = await makePosition(s.db, pending.id, { title: `Hidden ${token} b` });
      const closed = await makePosition(s.db, good.id, { title: `Hidden ${token} c`, status: "closed" });
      const shown = await makePosition(s.db, good.id, { title: `Hidden ${token} d` });
      await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));

      expect((await openPositions(s.db, applicant, { q: `hidden ${token}`, page: 1 })).rows.map((r) => r.id)).toEqual([shown.id]);
      expect(await failure(positionForDonor(s.db, ofSuspended.id, applicant))).toEqual(NOT_FOUND);
      expect(await failure(positionForDonor(s.db, ofPending.id, applicant))).toEqual(NOT_FOUND);
      expect(await failure(applyToPosition(s, applicant, applicationValues(ofSuspended.id)))).toEqual(NOT_FOUND);
      expect(await failure(applyToPosition(s, applicant, applicationValues(ofPending.id)))).toEqual(NOT_FOUND);
      expect((await positionForDonor(s.db, closed.id, applicant)).open).toBe(false);
      expect(await failure(positionForDonor(s.db, randomUUID(), applicant))).toEqual(NOT_FOUND);
      expect(await failure(positionForDonor(s.db, "nope", applicant))).toEqual(NOT_FOUND);
    });

    it("pages without overlap and marks what the asking donor applied to", async () => {
      const token = uid();
      const n = await ngo();
      const me = await donor();
      const someoneElse = await donor();
      const made = [];
      for (let i = 0; i < PAGE_SIZE + 2; i++) made.push(await makePosition(s.db, n.id, { title: `Pager ${token} ${i}` }));
      const page1 = await openPositions(s.db, me, { q: `pager ${token}`, page: 1 });
      const page2 = await openPositions(s.db, me, { q: `pager ${token}`, page: 2 });
      expect(page1).toMatchObject({ page: 1, pages: 2, total: PAGE_SIZE + 2 });
      expect(page1.rows).toHaveLength(PAGE_SIZE);
      expect(page2.rows).toHaveLength(2);
      const all = [...page1.rows, ...page2.rows].map((r) => r.id);
      expect(new Set(all).size).toBe(PAGE_SIZE + 2);
      expect(all.sort()).toEqual(made.map((p) => p.id).sort());

      await makeApplication(s.db, made[0]!.id, me.id);
      await makeApplication(s.db, made[1]!.id, someoneElse.id);
      const mine = [
        ...(await openPositions(s.db, me, { q: `pager ${token}`, page: 1 })).rows,
        ...(await openPositions(s.db, me, { q: `pager ${token}`, page: 2 })).rows,
      ];
      expect(mine.filter((r) => r.applied).map((r) => r.id)).toEqual([made[0]!.id]);
      const theirs = [
        ...(await openPositions(s.db, someoneElse, { q: `pager ${token}`, page: 1 })).rows,
        ...(await openPositions(s.db, someoneElse, { q: `pager ${token}`, page: 2 })).rows,
      ];
      expect(theirs.filter((r) => r.applied).map((r) => r.id)).toEqual([made[1]!.id]);
    });
  });

  describe("applying", () => {
    it("applies once: the same form again is the same application, another form is refused", async () => {
      const owner = await ngo();
      const applicant = await donor();
      const p = await create(owner.id);
      const values = applicationValues(p.id);
      const first = await applyToPosition(s, applicant, values);
      expect(first.created).toBe(true);
      expect(await applicationRow(first.id)).toMatchObject({
        positionId: p.id,
        donorId: applicant.id,
        status: "pending",
        motivation: values.motivation,
        experience: values.experience,
        resumeKey: null,
        idempotencyKey: values.idempotencyKey,
      });
      expect(await applyToPosition(s, applicant, values)).toEqual({ id: first.id, created: false });
      expect(await failure(applyToPosition(s, applicant, applicationValues(p.id)))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.alreadyApplied",
      });
      expect(await applicationsTo(p.id)).toHaveLength(1);
      expect((await positionForDonor(s.db, p.id, applicant)).application).toMatchObject({ id: first.id, status: "pending" });
    });

    it("makes one application of 10 concurrent submissions of the same form", async () => {
      const p = await create((await ngo()).id);
      const applicant = await donor();
      const values = applicationValues(p.id, { resume: pdfFile() });
      const results = await Promise.all(Array.from({ length: 10 }, () => applyToPosition(s, applicant, values)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const rows = await applicationsTo(p.id);
      expect(rows).toHaveLength(1);
      // One resume kept: the one of the application.
      expect((await filesOf(applicant.id)).map((f) => f.key)).toEqual([rows[0]!.resumeKey]);
    });

    it("makes one application of 10 concurrent different forms, refuses the others and removes their resumes", async () => {
      const p = await create((await ngo()).id);
      const applicant = await donor();
      const [{ n: filesBefore }] = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files)) as [{ n: number }];
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          applyToPosition(s, applicant, applicationValues(p.id, { motivation: `Form ${i}`, resume: pdfFile() })),
        ),
      );
      const ok = settled.filter((r) => r.status === "fulfilled");
      expect(ok).toHaveLength(1);
      expect(ok[0]!.value.created).toBe(true);
      for (const r of settled.filter((r) => r.status === "rejected")) {
        expect(r.reason).toMatchObject({ kind: "conflict", message: "volunteer:errors.alreadyApplied" });
      }
      const rows = await applicationsTo(p.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).toBe(ok[0]!.value.id);
      const [{ n: filesAfter }] = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files)) as [{ n: number }];
      expect(filesAfter - filesBefore).toBe(1);
      expect((await filesOf(applicant.id)).map((f) => f.key)).toEqual([rows[0]!.resumeKey]);
    });

    it("stores a PDF resume privately, owned by the donor", async () => {
      const p = await create((await ngo()).id);
      const applicant = await donor();
      const pdf = makePdf("Ayesha Khan, tutor");
      const { id } = await applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(pdf, "My CV.PDF") }));
      const row = await applicationRow(id);
      expect(row.resumeKey).toMatch(/^resume\/[0-9a-f-]{36}\.pdf$/);
      expect(await filesOf(applicant.id)).toMatchObject([
        { key: row.resumeKey, kind: "resume", ownerId: applicant.id, contentType: "application/pdf", size: pdf.length },
      ]);
      expect((await s.storage.get(row.resumeKey!))?.equals(pdf)).toBe(true);
      expect(await findFileForUser(s, row.resumeKey!, null)).toBeNull();
    });

    it("refuses a resume that is not a PDF by content, or too large, and stores nothing", async () => {
      const p = await create((await ngo()).id);
      const applicant = await donor();
      const png = Buffer.from(await (await posterFile()).arrayBuffer());
      const notPdf = { kind: "invalid", message: "volunteer:errors.resumeNotPdf", field: "resume" };
      expect(await failure(applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(png) })))).toEqual(notPdf);
      expect(
        await failure(
          applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(Buffer.from("<html><script>alert(1)</script>")) })),
        ),
      ).toEqual(notPdf);

      // Too large: the form says so, and so does the server if the form is bypassed.
      const pdf = makePdf("big");
      const big = Buffer.concat([pdf, Buffer.alloc(RESUME_MAX_BYTES + 1 - pdf.length, 0x20)]);
      const form = z.safeParse(applicationSchema, {
        positionId: p.id,
        idempotencyKey: randomUUID(),
        motivation: "Help",
        resume: pdfFile(big),
      });
      expect(form.success).toBe(false);
      expect(form.error?.issues[0]).toMatchObject({ path: ["resume"], message: "volunteer:errors.resumeTooLarge" });
      const bypass: ApplicationValues = { ...applicationValues(p.id), resume: pdfFile(big) };
      expect(await failure(applyToPosition(s, applicant, bypass))).toEqual({
        kind: "invalid",
        message: "volunteer:errors.resumeTooLarge",
        field: "resume",
      });
      // The form refuses a file that does not even claim to be a PDF.
      const named = z.safeParse(applicationSchema, {
        positionId: p.id,
        idempotencyKey: randomUUID(),
        motivation: "Help",
        resume: new File(["x"], "cv.docx", { type: "application/msword" }),
      });
      expect(named.error?.issues[0]).toMatchObject({ path: ["resume"], message: "volunteer:errors.resumeNotPdf" });

      expect(await filesOf(applicant.id)).toEqual([]);
      expect(await applicationsTo(p.id)).toEqual([]);
      // A PDF exactly at the limit is taken.
      const atLimit = Buffer.concat([pdf, Buffer.alloc(RESUME_MAX_BYTES - pdf.length, 0x20)]);
      expect((await applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(atLimit) }))).created).toBe(true);
    });

    it("tells the NGO in the app and by email, naming the position", async () => {
      const owner = await ngo();
      const applicant = await donor();
      const p = await create(owner.id, { title: `Food bank packer ${uid()}` });
      const { id } = await applyToPosition(s, applicant, applicationValues(p.id));
      expect(await notificationsOf(owner.id, "volunteerApplied")).toMatchObject([
        { link: `/vol3?application=${id}`, params: { position: p.title } },
      ]);
      const [told] = await notificationsOf(owner.id, "volunteerApplied");
      expect(told!.params.name).toMatch(/Donor$/);
      const mail = await mailTo(owner.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain(p.title);
      expect(mail[0]!.body).toContain(p.title);
      expect(mail[0]!.body).toContain(`/vol3?application=${id}`);
      // The same form again tells nobody twice.
      await applyToPosition(s, applicant, { ...applicationValues(p.id), idempotencyKey: (await applicationRow(id)).idempotencyKey });
      expect(await notificationsOf(owner.id, "volunteerApplied")).toHaveLength(1);
      expect(await mailTo(owner.email)).toHaveLength(1);
    });

    it("refuses an unknown position", async () => {
      const applicant = await donor();
      expect(await failure(applyToPosition(s, applicant, applicationValues(randomUUID())))).toEqual(NOT_FOUND);
    });
  });

  describe("access", () => {
    it("lets the resume be read by its donor, the position's NGO and the admin only", async () => {
      const owner = await ngo();
      const otherNgo = await ngo();
      const applicant = await donor();
      const otherDonor = await donor();
      const rider = await makeUser(s.db, "rider");
      const admin = await makeUser(s.db, "admin");
      const p = await create(owner.id);
      const pdf = makePdf("private");
      const { id } = await applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(pdf) }));
      const key = (await applicationRow(id)).resumeKey!;
      const [file] = await s.db.select().from(files).where(eq(files.key, key));

      const readers: [string, SessionUser | null, boolean][] = [
        ["the donor", asSessionUser(applicant, "donor"), true],
        ["the position's NGO", asSessionUser(owner, "ngo"), true],
        ["the admin", asSessionUser(admin, "admin"), true],
        ["another NGO", asSessionUser(otherNgo, "ngo"), false],
        ["another donor", asSessionUser(otherDonor, "donor"), false],
        ["a rider", asSessionUser(rider, "rider"), false],
        ["anonymous", null, false],
      ];
      for (const [who, user, allowed] of readers) {
        expect(await mayRead(s.db, file!, user), who).toBe(allowed);
        const read = await findFileForUser(s, key, user);
        if (allowed) expect(read?.body.equals(pdf), who).toBe(true);
        else expect(read, who).toBeNull();
      }
      // Another NGO's position does not open it either, even one the donor applied to without it.
      const elsewhere = await create(otherNgo.id);
      await applyToPosition(s, applicant, applicationValues(elsewhere.id));
      expect(await mayRead(s.db, file!, asSessionUser(otherNgo, "ngo"))).toBe(false);
    });

    it("shows an NGO only the applications to its own positions, and a donor only their own", async () => {
      const a = await ngo();
      const b = await ngo();
      const donorA = await donor();
      const donorB = await donor();
      const pa = await create(a.id);
      const pb = await create(b.id);
      const toA = await applyToPosition(s, donorA, applicationValues(pa.id));
      const toB = await applyToPosition(s, donorB, applicationValues(pb.id));
      const alsoToA = await applyToPosition(s, donorB, applicationValues(pa.id));

      expect(await failure(applicationForNgo(s.db, b, toA.id))).toEqual(NOT_FOUND);
      expect(await failure(applicationForNgo(s.db, a, "nope"))).toEqual(NOT_FOUND);
      const detail = await applicationForNgo(s.db, a, toA.id);
      expect(detail).toMatchObject({
        id: toA.id,
        status: "pending",
        applicant: { email: donorA.email, phone: "03001234567", address: "Gulberg, Lahore" },
        position: { id: pa.id, title: pa.title, volunteersNeeded: 2, accepted: 0, open: true },
      });
      expect(detail.applicant.name).toMatch(/Donor$/);

      const listA = await applicationsForNgo(s.db, a, { status: "pending", page: 1 });
      expect(listA.rows.map((r) => r.id).sort()).toEqual([toA.id, alsoToA.id].sort());
      expect(listA.rows.every((r) => r.positionId === pa.id)).toBe(true);
      expect((await applicationsForNgo(s.db, b, { status: "pending", page: 1 })).rows.map((r) => r.id)).toEqual([toB.id]);
      // Filtering by another NGO's position gives nothing.
      expect((await applicationsForNgo(s.db, b, { status: "pending", positionId: pa.id, page: 1 })).rows).toEqual([]);

      expect((await applicationsOfDonor(s.db, donorA, 1)).rows.map((r) => r.id)).toEqual([toA.id]);
      expect((await applicationsOfDonor(s.db, donorB, 1)).rows.map((r) => r.id).sort()).toEqual([toB.id, alsoToA.id].sort());
      // A donor sees their own application on a position, never another's.
      const outsider = await donor();
      expect((await positionForDonor(s.db, pb.id, donorA)).application).toBeNull();
      expect((await positionForDonor(s.db, pa.id, outsider)).application).toBeNull();
      expect((await applicationsOfDonor(s.db, outsider, 1)).rows).toEqual([]);
    });
  });

  describe("deciding", () => {
    async function scene(needed = 2) {
      const owner = await ngo();
      const p = await create(owner.id, { volunteersNeeded: String(needed) });
      return { owner, p };
    }
    async function applicant(positionId: string) {
      const d = await donor();
      const { id } = await applyToPosition(s, d, applicationValues(positionId));
      return { donor: d, id };
    }

    it("the owner approves, tells the applicant, and a second approval changes nothing", async () => {
      const { owner, p } = await scene();
      const other = await ngo();
      const a = await applicant(p.id);
      expect(await failure(decideApplication(s, asNgo(other.id), { applicationId: a.id, approve: true }))).toEqual(NOT_FOUND);
      expect(await applicationRow(a.id)).toMatchObject({ status: "pending", decidedBy: null, decidedAt: null });

      expect(await decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: true })).toEqual({
        status: "approved",
        changed: true,
      });
      const row = await applicationRow(a.id);
      expect(row).toMatchObject({ status: "approved", decidedBy: owner.id, decisionMessage: null });
      expect(row.decidedAt).toBeInstanceOf(Date);
      expect(await decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: true })).toEqual({
        status: "approved",
        changed: false,
      });
      expect(await failure(decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: false, message: "Sorry" }))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.alreadyDecided",
      });
      expect(await applicationRow(a.id)).toMatchObject({ status: "approved", decisionMessage: null });

      expect(await auditFor("applicationId", a.id)).toMatchObject([
        { action: "volunteer.applicationApproved", actorId: owner.id, targetUserId: a.donor.id },
      ]);
      expect(await notificationsOf(a.donor.id, "volunteerApproved")).toMatchObject([{ link: "/dvh2", params: { position: p.title } }]);
      const mail = await mailTo(a.donor.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain(p.title);
      expect((await applicationsOfDonor(s.db, a.donor, 1)).rows).toMatchObject([
        { id: a.id, state: "approved", decisionMessage: null, positionTitle: p.title },
      ]);
      expect((await applicationForNgo(s.db, owner, a.id)).position.accepted).toBe(1);
    });

    it("gives the NGO's contact to an approved volunteer only, with the position's timings", async () => {
      const { owner, p } = await scene(3);
      const approved = await applicant(p.id);
      const waiting = await applicant(p.id);
      const declined = await applicant(p.id);
      await decideApplication(s, asNgo(owner.id), { applicationId: approved.id, approve: true });
      await decideApplication(s, asNgo(owner.id), { applicationId: declined.id, approve: false });
      const [profile] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, owner.id));
      const [row] = (await applicationsOfDonor(s.db, approved.donor, 1)).rows;
      expect(row).toMatchObject({
        state: "approved",
        timings: p.timings,
        ngoContact: { address: profile!.address, phone: profile!.contactNumber, email: owner.email },
      });
      expect((await applicationsOfDonor(s.db, waiting.donor, 1)).rows).toMatchObject([{ state: "live", ngoContact: null }]);
      expect((await applicationsOfDonor(s.db, declined.donor, 1)).rows).toMatchObject([{ state: "declined", ngoContact: null }]);
    });

    it("declines with a message the applicant reads, once", async () => {
      const { owner, p } = await scene();
      const other = await ngo();
      const a = await applicant(p.id);
      const message = "  We have filled this role; please apply again next term.  ";
      expect(await failure(decideApplication(s, asNgo(other.id), { applicationId: a.id, approve: false, message }))).toEqual(NOT_FOUND);
      expect(await decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: false, message })).toEqual({
        status: "declined",
        changed: true,
      });
      expect(await applicationRow(a.id)).toMatchObject({ status: "declined", decisionMessage: message.trim(), decidedBy: owner.id });
      expect(await decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: false })).toEqual({
        status: "declined",
        changed: false,
      });
      expect(await failure(decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: true, confirm: true }))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.alreadyDecided",
      });
      expect((await applicationsOfDonor(s.db, a.donor, 1)).rows).toMatchObject([
        { id: a.id, state: "declined", decisionMessage: message.trim() },
      ]);
      expect(await notificationsOf(a.donor.id, "volunteerDeclined")).toMatchObject([
        { params: { position: p.title, message: message.trim() } },
      ]);
      const mail = await mailTo(a.donor.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain(message.trim());
      expect(mail[0]!.body).toContain(p.title);
      expect(await auditFor("applicationId", a.id)).toMatchObject([
        { action: "volunteer.applicationDeclined", details: { message: message.trim() } },
      ]);
    });

    it("asks to confirm an approval beyond the number needed", async () => {
      const { owner, p } = await scene(1);
      const first = await applicant(p.id);
      const second = await applicant(p.id);
      await decideApplication(s, asNgo(owner.id), { applicationId: first.id, approve: true });
      expect(await failure(decideApplication(s, asNgo(owner.id), { applicationId: second.id, approve: true }))).toEqual({
        kind: "conflict",
        message: "volunteer:errors.confirmOverfill",
        params: { needed: "1", accepted: "1" },
      });
      expect(await applicationRow(second.id)).toMatchObject({ status: "pending", decidedAt: null });
      expect(await auditFor("applicationId", second.id)).toEqual([]);
      expect(await notificationsOf(second.donor.id, "volunteerApproved")).toEqual([]);
      expect(await decideApplication(s, asNgo(owner.id), { applicationId: second.id, approve: true, confirm: true })).toEqual({
        status: "approved",
        changed: true,
      });
      expect((await applicationForNgo(s.db, owner, second.id)).position).toMatchObject({ volunteersNeeded: 1, accepted: 2 });
      // Declining never needs a confirmation.
      const third = await applicant(p.id);
      expect((await decideApplication(s, asNgo(owner.id), { applicationId: third.id, approve: false })).changed).toBe(true);
    });

    it("approves exactly one of 5 concurrent approvals to a position that needs 1", async () => {
      const { owner, p } = await scene(1);
      const apps = [];
      for (let i = 0; i < 5; i++) apps.push(await applicant(p.id));
      const settled = await Promise.allSettled(
        apps.map((a) => decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: true })),
      );
      expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of settled.filter((r) => r.status === "rejected")) {
        expect(r.reason).toMatchObject({
          kind: "conflict",
          message: "volunteer:errors.confirmOverfill",
          params: { needed: "1", accepted: "1" },
        });
      }
      const rows = await applicationsTo(p.id);
      expect(rows.filter((r) => r.status === "approved")).toHaveLength(1);
      expect(rows.filter((r) => r.status === "pending")).toHaveLength(4);
    });

    it("decides once under 20 concurrent approvals of one application", async () => {
      const { owner, p } = await scene();
      const a = await applicant(p.id);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => decideApplication(s, asNgo(owner.id), { applicationId: a.id, approve: true })),
      );
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      expect(results.every((r) => r.status === "approved")).toBe(true);
      expect(await auditFor("applicationId", a.id)).toHaveLength(1);
      expect(await notificationsOf(a.donor.id, "volunteerApproved")).toHaveLength(1);
      expect(await mailTo(a.donor.email)).toHaveLength(1);
    });

    it("shows the donor each application's state: live, closed, approved, declined", async () => {
      const me = await donor();
      const owner = await ngo();
      const live = await create(owner.id, { title: `Live ${uid()}` });
      const closing = await create(owner.id, { title: `Closing ${uid()}` });
      const approving = await create(owner.id, { title: `Approving ${uid()}` });
      const declining = await create(owner.id, { title: `Declining ${uid()}` });
      const ids: Record<string, string> = {};
      for (const [name, p] of Object.entries({ live, closing, approving, declining }))
        ids[name] = (await applyToPosition(s, me, applicationValues(p.id))).id;
      await closePosition(s.db, owner, closing.id);
      await decideApplication(s, asNgo(owner.id), { applicationId: ids.approving!, approve: true });
      await decideApplication(s, asNgo(owner.id), { applicationId: ids.declining!, approve: false, message: "Not this time." });
      // Being decided wins over the position closing afterwards.
      await closePosition(s.db, owner, approving.id);

      const page = await applicationsOfDonor(s.db, me, 1);
      expect(page.total).toBe(4);
      const byId = Object.fromEntries(page.rows.map((r) => [r.id, r]));
      expect(byId[ids.live!]).toMatchObject({ state: "live", decisionMessage: null, positionTitle: live.title });
      expect(byId[ids.closing!]).toMatchObject({ state: "closed", decisionMessage: null });
      expect(byId[ids.approving!]).toMatchObject({ state: "approved" });
      expect(byId[ids.declining!]).toMatchObject({ state: "declined", decisionMessage: "Not this time." });
      expect(page.rows.every((r) => r.ngoName.startsWith("Helping Hands"))).toBe(true);
      // The NGO's lists split the same applications by status.
      expect((await applicationsForNgo(s.db, owner, { status: "approved", page: 1 })).rows.map((r) => r.id)).toEqual([ids.approving]);
      expect((await applicationsForNgo(s.db, owner, { status: "declined", page: 1 })).rows.map((r) => r.id)).toEqual([ids.declining]);
      expect((await applicationsForNgo(s.db, owner, { status: "pending", page: 1 })).rows.map((r) => r.id).sort()).toEqual(
        [ids.live, ids.closing].sort(),
      );
    });
  });

  describe("the /files route", () => {
    function app() {
      return createApp({
        services: s,
        build: () => Promise.reject(new Error("React Router is not part of this test")) as Promise<ServerBuild>,
        mode: "production",
      });
    }
    const cookieOf = async (userId: string) => `${SESSION_COOKIE}=${(await createSession(s.db, userId)).token}`;

    it("serves a resume to its NGO as a private download, and nothing to another NGO", async () => {
      const owner = await ngo();
      const otherNgo = await ngo();
      const applicant = await donor();
      const p = await create(owner.id);
      const pdf = makePdf("download me");
      const { id } = await applyToPosition(s, applicant, applicationValues(p.id, { resume: pdfFile(pdf) }));
      const key = (await applicationRow(id)).resumeKey!;

      const res = await app().request(`/files/${key}`, { headers: { cookie: await cookieOf(owner.id) } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);

      const refused = await app().request(`/files/${key}`, { headers: { cookie: await cookieOf(otherNgo.id) } });
      expect(refused.status).toBe(404);
      expect(Buffer.from(await refused.arrayBuffer()).includes("%PDF-")).toBe(false);
      expect((await app().request(`/files/${key}`)).status).toBe(404);
      expect((await app().request(`/files/${key}`, { headers: { cookie: await cookieOf(applicant.id) } })).status).toBe(200);
    });
  });
});
