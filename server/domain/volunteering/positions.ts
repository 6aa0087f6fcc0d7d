import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import { positionSchema, type PositionInput, type PositionValues } from "#shared/forms/volunteering.ts";
import { PAGE_SIZE, POSITION_CLOSES_MAX_DAYS } from "#shared/constants.ts";
import type { Db, DbOrTx } from "#server/db/client.ts";
import { ngoProfiles, users, volunteerApplications, volunteerPositions } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { isUuid, likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { addDays, isCalendarDay, pakistanToday } from "#server/domain/dates.ts";
import { conflict, invalid, notFound, invalidInput } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { resolvePlace } from "#server/domain/places/resolve.ts";
import { positionState, positionStates, type PositionState } from "./states.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { positionScope } from "./policy.ts";

export type Position = typeof volunteerPositions.$inferSelect;

/**
 * Parses position input with the form's schema (the routes do this with the submitted form; the seed and tests
 * use this); the first problem becomes a field error.
 */
export function parsePosition(input: PositionInput): PositionValues {
  const result = z.safeParse(positionSchema, input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(issue.message, String(issue.path[0] ?? ""));
}

/**
 * Whether a position takes applications: the NGO has not closed it and its closing day (inclusive, Pakistan
 * time) has not passed. Worked out on every read, so a position closes by itself on its day.
 */
export function isOpenSql(today: string): SQL {
  return sql`(${volunteerPositions.status} = 'active' and (${volunteerPositions.closesOn} is null or ${volunteerPositions.closesOn} >= ${today}))`;
}

export function isOpen(p: Pick<Position, "status" | "closesOn">, today: string): boolean {
  return positionState(p, today) === "open";
}

/** A closing day must be a real day from today up to a year ahead. */
function checkClosingDay(day: string | undefined, today: string): void {
  if (day === undefined) return;
  if (!isCalendarDay(day)) throw invalid("volunteer.closes_on_invalid", "closesOn");
  if (day < today || day > addDays(today, POSITION_CLOSES_MAX_DAYS)) throw invalid("volunteer.closes_on_range", "closesOn");
}

/** Verified NGOs that are not suspended: only their positions are shown to donors and take applications. */
export const ngoInGoodStanding = and(eq(users.verification, "verified"), isNull(users.suspendedAt));

/**
 * Posts a position for an NGO from parsed form values: the closing day checked against today, the city
 * resolved to a place, the poster checked and stored. A failure after the poster was stored removes it again.
 */
export async function createPosition(
  services: Pick<Services, "db" | "storage" | "geocoder">,
  actor: Actor,
  values: PositionValues,
  now = new Date(),
): Promise<Position> {
  const ngoId = idAs(actor, "ngo");
  checkClosingDay(values.closesOn, pakistanToday(now));
  const city = values.city
    ? await resolvePlace(
        services.geocoder,
        values.city,
        { lat: values.cityLat, lng: values.cityLng },
        { message: "volunteer:errors.cityInvalid", field: "city" },
      )
    : null;
  const posterKey = values.poster
    ? await saveImage(services, { file: values.poster, kind: "poster", ownerId: ngoId, field: "poster" })
    : null;
  try {
    return await services.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(volunteerPositions)
        .values({
          ngoId,
          title: values.title,
          description: values.description,
          responsibilities: values.responsibilities ?? null,
          workingHours: values.workingHours,
          duration: values.duration ?? null,
          timings: values.timings,
          cityLabel: city?.label ?? null,
          cityLabelUr: city?.labelUr ?? null,
          cityLat: city?.lat ?? null,
          cityLng: city?.lng ?? null,
          volunteersNeeded: values.volunteersNeeded,
          closesOn: values.closesOn ?? null,
          posterKey,
        })
        .returning();
      await recordAudit(tx, { actorId: ngoId, action: "volunteer.positionCreated", details: { positionId: row!.id, title: row!.title } });
      return row!;
    });
  } catch (err) {
    await deleteFile(services, posterKey);
    throw err;
  }
}

/** The NGO's own position; anyone else's (or an unknown id) is "not found", never "forbidden", so ids reveal nothing. */
export async function positionOwnedBy(db: DbOrTx, positionId: string, actor: Actor, opts: { forUpdate?: boolean } = {}): Promise<Position> {
  if (!isUuid(positionId)) throw notFound();
  const query = db
    .select()
    .from(volunteerPositions)
    .where(and(eq(volunteerPositions.id, positionId), positionScope(actor, "own")))
    .limit(1);
  const [row] = await (opts.forUpdate ? query.for("update") : query);
  if (!row) throw notFound();
  return row;
}

/** The NGO closes an open position: it takes no more applications and moves to /volClosed. */
export async function closePosition(db: Db, actor: Actor, positionId: string, now = new Date()): Promise<void> {
  const today = pakistanToday(now);
  await db.transaction(async (tx) => {
    const position = await positionOwnedBy(tx, positionId, actor, { forUpdate: true });
    positionStates.assertTransition("close", positionState(position, today), "owner", () => conflict("volunteer.already_closed"));
    await tx
      .update(volunteerPositions)
      .set({ status: "closed", closedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(volunteerPositions.id, positionId));
    await recordAudit(tx, {
      actorId: actor.id,
      action: "volunteer.positionClosed",
      details: { positionId, title: position.title, closingDayPassed: isOpen(position, today) ? null : position.closesOn },
    });
  });
}

/**
 * The NGO reopens a closed position (closed by hand, or by its closing day). A new closing day may be given;
 * without one, a closing day that has passed is removed, so the reopened position is open.
 */
export async function reopenPosition(
  db: Db,
  actor: Actor,
  positionId: string,
  closesOn: string | undefined,
  now = new Date(),
): Promise<void> {
  const today = pakistanToday(now);
  checkClosingDay(closesOn, today);
  await db.transaction(async (tx) => {
    const position = await positionOwnedBy(tx, positionId, actor, { forUpdate: true });
    positionStates.assertTransition("reopen", positionState(position, today), "owner", () => conflict("volunteer.already_open"));
    const nextClosesOn = closesOn ?? (position.closesOn !== null && position.closesOn < today ? null : position.closesOn);
    await tx
      .update(volunteerPositions)
      .set({ status: "active", closedAt: null, closesOn: nextClosesOn, updatedAt: sql`now()` })
      .where(eq(volunteerPositions.id, positionId));
    await recordAudit(tx, {
      actorId: actor.id,
      action: "volunteer.positionReopened",
      details: { positionId, title: position.title, closesOn: nextClosesOn },
    });
  });
}

/**
 * The outer position's id, written with its table: in a select from one table drizzle leaves columns
 * unqualified, and inside the subqueries below a bare "id" would be the application's own id.
 */
const outerPositionId = sql`${sql.identifier("volunteer_positions")}.${sql.identifier("id")}`;

/** The applications of a position by state, for the NGO's lists. */
function countsColumns() {
  const apps = volunteerApplications;
  return {
    applied: sql<number>`(select count(*) from ${apps} where ${apps.positionId} = ${outerPositionId})`.mapWith(Number),
    accepted:
      sql<number>`(select count(*) from ${apps} where ${apps.positionId} = ${outerPositionId} and ${apps.status} = 'approved')`.mapWith(
        Number,
      ),
    waiting:
      sql<number>`(select count(*) from ${apps} where ${apps.positionId} = ${outerPositionId} and ${apps.status} = 'pending')`.mapWith(
        Number,
      ),
  };
}

export interface NgoPosition {
  id: string;
  title: string;
  workingHours: string;
  duration: string | null;
  timings: string;
  cityLabel: string | null;
  cityLabelUr: string | null;
  posterKey: string | null;
  volunteersNeeded: number;
  closesOn: string | null;
  status: Position["status"];
  closedAt: Date | null;
  createdAt: Date;
  /** Every application, whatever its state. */
  applied: number;
  accepted: number;
  /** Applications still waiting for a decision. */
  waiting: number;
  /** Closed by its closing day rather than by the NGO. */
  closedByDate: boolean;
  state: PositionState;
}

/**
 * One page of an NGO's own positions, newest first: the open ones (/vol0) or the closed ones, by hand or by
 * their closing day (/volClosed), with the numbers needed, applied and accepted.
 */
export async function positionsOfNgo(
  db: DbOrTx,
  actor: Actor,
  opts: { state: "open" | "closed"; page: number },
  now = new Date(),
): Promise<Paged<NgoPosition>> {
  const today = pakistanToday(now);
  const open = isOpenSql(today);
  const where = and(positionScope(actor, "own"), opts.state === "open" ? open : sql`not ${open}`);
  const [total] = await db.select({ n: count() }).from(volunteerPositions).where(where);
  const rows = await db
    .select({
      id: volunteerPositions.id,
      title: volunteerPositions.title,
      workingHours: volunteerPositions.workingHours,
      duration: volunteerPositions.duration,
      timings: volunteerPositions.timings,
      cityLabel: volunteerPositions.cityLabel,
      cityLabelUr: volunteerPositions.cityLabelUr,
      posterKey: volunteerPositions.posterKey,
      volunteersNeeded: volunteerPositions.volunteersNeeded,
      closesOn: volunteerPositions.closesOn,
      status: volunteerPositions.status,
      closedAt: volunteerPositions.closedAt,
      createdAt: volunteerPositions.createdAt,
      ...countsColumns(),
    })
    .from(volunteerPositions)
    .where(where)
    .orderBy(desc(volunteerPositions.createdAt), desc(volunteerPositions.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  return paged(
    rows.map((r) => ({ ...r, closedByDate: positionState(r, today) === "lapsed", state: positionState(r, today) })),
    opts.page,
    total?.n ?? 0,
  );
}

/** The NGO's positions for the applications lists' filter, newest first (a bounded list). */
export async function positionChoices(db: DbOrTx, actor: Actor): Promise<{ id: string; title: string }[]> {
  return db
    .select({ id: volunteerPositions.id, title: volunteerPositions.title })
    .from(volunteerPositions)
    .where(positionScope(actor, "own"))
    .orderBy(desc(volunteerPositions.createdAt))
    .limit(200);
}

export interface OpenPosition {
  id: string;
  title: string;
  description: string;
  workingHours: string;
  duration: string | null;
  timings: string;
  cityLabel: string | null;
  cityLabelUr: string | null;
  posterKey: string | null;
  volunteersNeeded: number;
  accepted: number;
  closesOn: string | null;
  createdAt: Date;
  ngoName: string;
  /** The donor who asks has applied to it already. */
  applied: boolean;
}

/**
 * One page of open positions from every NGO in good standing, newest first, for donors (/vfg1). The search
 * looks in the title, the NGO's name and the city, case-insensitively, with LIKE's wildcards taken literally.
 */
export async function openPositions(
  db: DbOrTx,
  actor: Actor,
  opts: { q?: string; page: number },
  now = new Date(),
): Promise<Paged<OpenPosition>> {
  const donorId = idAs(actor, "donor");
  const q = searchTerm(opts.q);
  const where = and(
    isOpenSql(pakistanToday(now)),
    ngoInGoodStanding,
    q
      ? or(
          ilike(volunteerPositions.title, likePattern(q)),
          ilike(ngoProfiles.name, likePattern(q)),
          ilike(volunteerPositions.cityLabel, likePattern(q)),
          ilike(volunteerPositions.cityLabelUr, likePattern(q)),
        )
      : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(volunteerPositions)
    .innerJoin(users, eq(users.id, volunteerPositions.ngoId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, volunteerPositions.ngoId))
    .where(where);
  const apps = volunteerApplications;
  const rows = await db
    .select({
      id: volunteerPositions.id,
      title: volunteerPositions.title,
      description: volunteerPositions.description,
      workingHours: volunteerPositions.workingHours,
      duration: volunteerPositions.duration,
      timings: volunteerPositions.timings,
      cityLabel: volunteerPositions.cityLabel,
      cityLabelUr: volunteerPositions.cityLabelUr,
      posterKey: volunteerPositions.posterKey,
      volunteersNeeded: volunteerPositions.volunteersNeeded,
      accepted: countsColumns().accepted,
      closesOn: volunteerPositions.closesOn,
      createdAt: volunteerPositions.createdAt,
      ngoName: ngoProfiles.name,
      applied: sql<boolean>`exists (select 1 from ${apps} where ${apps.positionId} = ${volunteerPositions.id} and ${apps.donorId} = ${donorId})`,
    })
    .from(volunteerPositions)
    .innerJoin(users, eq(users.id, volunteerPositions.ngoId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, volunteerPositions.ngoId))
    .where(where)
    .orderBy(desc(volunteerPositions.createdAt), desc(volunteerPositions.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  return paged(rows, opts.page, total?.n ?? 0);
}

export interface PositionDetail extends Omit<OpenPosition, "applied"> {
  responsibilities: string | null;
  ngoLogoKey: string | null;
  open: boolean;
  /** The asking donor's application to it, if any. */
  application: { id: string; status: (typeof volunteerApplications.$inferSelect)["status"]; createdAt: Date } | null;
}

/**
 * A position as a donor reads it (/vfg2, /vfg3): open or closed, with the donor's own application if there is
 * one. A position of an NGO that is not in good standing is not found.
 */
export async function positionForDonor(db: DbOrTx, positionId: string, actor: Actor, now = new Date()): Promise<PositionDetail> {
  const donorId = idAs(actor, "donor");
  if (!isUuid(positionId)) throw notFound();
  const [row] = await db
    .select({
      position: volunteerPositions,
      ngoName: ngoProfiles.name,
      ngoLogoKey: ngoProfiles.logoKey,
      accepted: countsColumns().accepted,
    })
    .from(volunteerPositions)
    .innerJoin(users, eq(users.id, volunteerPositions.ngoId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, volunteerPositions.ngoId))
    .where(and(eq(volunteerPositions.id, positionId), ngoInGoodStanding))
    .limit(1);
  if (!row) throw notFound();
  const [application] = await db
    .select({ id: volunteerApplications.id, status: volunteerApplications.status, createdAt: volunteerApplications.createdAt })
    .from(volunteerApplications)
    .where(and(eq(volunteerApplications.positionId, positionId), eq(volunteerApplications.donorId, donorId)))
    .limit(1);
  const p = row.position;
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    responsibilities: p.responsibilities,
    workingHours: p.workingHours,
    duration: p.duration,
    timings: p.timings,
    cityLabel: p.cityLabel,
    cityLabelUr: p.cityLabelUr,
    posterKey: p.posterKey,
    volunteersNeeded: p.volunteersNeeded,
    accepted: row.accepted,
    closesOn: p.closesOn,
    createdAt: p.createdAt,
    ngoName: row.ngoName,
    ngoLogoKey: row.ngoLogoKey,
    open: isOpen(p, pakistanToday(now)),
    application: application ?? null,
  };
}
