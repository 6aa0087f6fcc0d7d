import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { ApplicationValues } from "#shared/forms/volunteering.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { ApplicationStatus } from "#shared/statuses.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { donorProfiles, ngoProfiles, users, volunteerApplications, volunteerPositions } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { isUuid, paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { pakistanToday } from "#server/domain/dates.ts";
import { DomainError, conflict, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile, savePdf } from "#server/domain/files/files.ts";
import { appLink, notify, tellWithin } from "#server/domain/notifications/notifications.ts";
import { applicationScope, decisionScope, type ApplicationActor } from "./policy.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { isOpen, isOpenSql, ngoInGoodStanding } from "./positions.ts";
import { applicationStates } from "./states.ts";

/**
 * What an applicant sees of their application: waiting while the position is open (`live`), waiting after it
 * closed (`closed`), or the NGO's decision.
 */
export type ApplicationState = "live" | "closed" | "approved" | "declined";

export function applicationState(status: ApplicationStatus, positionOpen: boolean): ApplicationState {
  if (status === "pending") return positionOpen ? "live" : "closed";
  return status;
}

type VolunteerServices = Pick<Services, "db" | "storage" | "mailer" | "config" | "log">;

async function applicationOf(db: DbOrTx, positionId: string, donorId: string) {
  const [row] = await db
    .select({ id: volunteerApplications.id, idempotencyKey: volunteerApplications.idempotencyKey })
    .from(volunteerApplications)
    .where(and(eq(volunteerApplications.positionId, positionId), eq(volunteerApplications.donorId, donorId)))
    .limit(1);
  return row ?? null;
}

/** The same form sent again is the application it made; any other second application is refused. */
function sameFormOrRefuse(existing: { id: string; idempotencyKey: string }, key: string): { id: string; created: false } {
  if (existing.idempotencyKey === key) return { id: existing.id, created: false };
  throw conflict("volunteer.already_applied");
}

/**
 * A donor applies to an open position, once: the database's unique index decides between concurrent requests.
 * A resubmission of the same form (a double click, a retried request) returns the application it made. The
 * resume is checked by content and stored privately; if the application is not written it is removed again.
 * The NGO is told in the app and by email.
 */
export async function applyToPosition(
  services: VolunteerServices,
  actor: Actor,
  values: ApplicationValues,
  now = new Date(),
): Promise<{ id: string; created: boolean }> {
  const donorId = idAs(actor, "donor");
  const { db } = services;
  if (!isUuid(values.positionId)) throw notFound();
  const earlier = await applicationOf(db, values.positionId, donorId);
  if (earlier) return sameFormOrRefuse(earlier, values.idempotencyKey);

  const [position] = await db
    .select({ position: volunteerPositions, ngoEmail: users.email })
    .from(volunteerPositions)
    .innerJoin(users, eq(users.id, volunteerPositions.ngoId))
    .where(and(eq(volunteerPositions.id, values.positionId), ngoInGoodStanding))
    .limit(1);
  if (!position) throw notFound();
  if (!isOpen(position.position, pakistanToday(now))) throw invalid("volunteer.position_closed");

  const resumeKey = values.resume
    ? await savePdf(services, { file: values.resume, kind: "resume", ownerId: donorId, field: "resume" })
    : null;
  let id: string | undefined;
  try {
    // The application and the NGO's notice are one transaction: a notice exists exactly when its application does.
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(volunteerApplications)
        .values({
          positionId: values.positionId,
          donorId,
          motivation: values.motivation,
          experience: values.experience ?? null,
          resumeKey,
          idempotencyKey: values.idempotencyKey,
        })
        .onConflictDoNothing({ target: [volunteerApplications.positionId, volunteerApplications.donorId] })
        .returning({ id: volunteerApplications.id });
      if (!row) return undefined;
      await tellWithin(services, { applicationId: row.id }, async () => {
        const [donor] = await tx
          .select({ firstName: donorProfiles.firstName, lastName: donorProfiles.lastName })
          .from(donorProfiles)
          .where(eq(donorProfiles.userId, donorId))
          .limit(1);
        const params = { name: donor ? `${donor.firstName} ${donor.lastName}` : "", position: position.position.title };
        const link = `/vol3?application=${row.id}`;
        await notify(
          { ...services, db: tx },
          {
            userId: position.position.ngoId,
            type: "volunteerApplied",
            params,
            link,
            email: {
              subject: "volunteer:mail.applied.subject",
              body: "volunteer:mail.applied.body",
              params: { ...params, link: appLink(services.config, link) },
            },
          },
        );
      });
      return row.id;
    });
  } catch (err) {
    await deleteFile(services, resumeKey);
    throw err;
  }
  if (!id) {
    // Another request of this donor for this position wrote its row first.
    await deleteFile(services, resumeKey);
    const first = await applicationOf(db, values.positionId, donorId);
    if (!first) throw conflict("volunteer.apply_failed");
    return sameFormOrRefuse(first, values.idempotencyKey);
  }

  return { id, created: true };
}

export interface DecisionResult {
  status: Exclude<ApplicationStatus, "pending">;
  /** False when the application had already been decided this way (a repeated or concurrent click). */
  changed: boolean;
}

/**
 * The NGO of the position approves or declines a waiting application, once (who may is the transition table of
 * states.ts; anyone else is told it is not found, policy.ts). The position's row is locked while
 * its approvals are counted, so two approvals at once cannot both slip past the number needed: approving beyond
 * it must be confirmed (an error with `needed` and `accepted` otherwise). The applicant's notice is written in the
 * same transaction (decision 042).
 */
export async function decideApplication(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: ApplicationActor,
  decision: { applicationId: string; approve: true; confirm?: boolean } | { applicationId: string; approve: false; message?: string },
): Promise<DecisionResult> {
  const { db } = services;
  if (!isUuid(decision.applicationId)) throw notFound();
  const action = decision.approve ? ("approve" as const) : ("decline" as const);
  const status = applicationStates.target(action, "pending") as DecisionResult["status"];
  const message = decision.approve ? null : decision.message?.trim() || null;

  const outcome = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ positionId: volunteerApplications.positionId })
      .from(volunteerApplications)
      .innerJoin(volunteerPositions, eq(volunteerPositions.id, volunteerApplications.positionId))
      .where(and(eq(volunteerApplications.id, decision.applicationId), decisionScope(actor, action)))
      .limit(1);
    if (!found) throw notFound();
    const [position] = await tx.select().from(volunteerPositions).where(eq(volunteerPositions.id, found.positionId)).for("update");
    const [current] = await tx.select().from(volunteerApplications).where(eq(volunteerApplications.id, decision.applicationId));
    // Decided already: the same decision again is a repeat, answered as done; any other is refused by the table.
    const step = applicationStates.assertTransition(action, current!.status, "positionNgo", () => conflict("volunteer.already_decided"));
    if (step.repeat) return { changed: false as const };
    if (decision.approve && !decision.confirm) {
      const [accepted] = await tx
        .select({ n: count() })
        .from(volunteerApplications)
        .where(and(eq(volunteerApplications.positionId, found.positionId), eq(volunteerApplications.status, "approved")));
      const n = accepted?.n ?? 0;
      if (n >= position!.volunteersNeeded) {
        throw new DomainError("conflict", "volunteer.confirm_overfill", undefined, {
          needed: String(position!.volunteersNeeded),
          accepted: String(n),
        });
      }
    }
    const [row] = await tx
      .update(volunteerApplications)
      .set({ status, decisionMessage: message, decidedBy: actor.id, decidedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(volunteerApplications.id, decision.applicationId),
          inArray(volunteerApplications.status, applicationStates.fromStates(action)),
        ),
      )
      .returning();
    await recordAudit(tx, {
      actorId: actor.id,
      action: status === "approved" ? "volunteer.applicationApproved" : "volunteer.applicationDeclined",
      targetUserId: row!.donorId,
      details: { applicationId: row!.id, positionId: found.positionId, title: position!.title, message },
    });
    await tellApplicant({ ...services, db: tx }, row!, position!, status, message);
    return { changed: true as const };
  });

  return { status, changed: outcome.changed };
}

async function tellApplicant(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  application: typeof volunteerApplications.$inferSelect,
  position: typeof volunteerPositions.$inferSelect,
  status: "approved" | "declined",
  message: string | null,
): Promise<void> {
  await tellWithin(services, { applicationId: application.id }, async () => {
    const [info] = await services.db
      .select({ ngo: ngoProfiles.name, firstName: donorProfiles.firstName })
      .from(ngoProfiles)
      .leftJoin(donorProfiles, eq(donorProfiles.userId, application.donorId))
      .where(eq(ngoProfiles.userId, position.ngoId))
      .limit(1);
    const params = { position: position.title, ngo: info?.ngo ?? "", message: message ?? "" };
    const bodyKey = status === "declined" && message ? "declinedWithMessage" : status;
    await notify(services, {
      userId: application.donorId,
      type: status === "approved" ? "volunteerApproved" : "volunteerDeclined",
      params,
      link: "/dvh2",
      email: {
        subject: `volunteer:mail.${status}.subject`,
        body: `volunteer:mail.${bodyKey}.body`,
        params: { ...params, name: info?.firstName ?? "", link: appLink(services.config, "/dvh2") },
      },
    });
  });
}

const applicantName = sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`;

export interface NgoApplicationRow {
  id: string;
  createdAt: Date;
  decidedAt: Date | null;
  applicantName: string;
  applicantEmail: string;
  positionId: string;
  positionTitle: string;
  hasResume: boolean;
}

/**
 * One page of the applications to an NGO's positions in one state: waiting ones oldest first (first come,
 * first read), decided ones most recently decided first; optionally of one position. Only the NGO's own.
 */
export async function applicationsForNgo(
  db: DbOrTx,
  actor: ApplicationActor,
  opts: { status: ApplicationStatus; positionId?: string; page: number },
): Promise<Paged<NgoApplicationRow>> {
  const where = and(
    applicationScope({ id: idAs(actor, "ngo"), role: "ngo" }, "list"),
    eq(volunteerApplications.status, opts.status),
    opts.positionId && isUuid(opts.positionId) ? eq(volunteerApplications.positionId, opts.positionId) : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(volunteerApplications)
    .innerJoin(volunteerPositions, eq(volunteerPositions.id, volunteerApplications.positionId))
    .where(where);
  const rows = await db
    .select({
      id: volunteerApplications.id,
      createdAt: volunteerApplications.createdAt,
      decidedAt: volunteerApplications.decidedAt,
      applicantName,
      applicantEmail: users.email,
      positionId: volunteerPositions.id,
      positionTitle: volunteerPositions.title,
      hasResume: sql<boolean>`${volunteerApplications.resumeKey} is not null`,
    })
    .from(volunteerApplications)
    .innerJoin(volunteerPositions, eq(volunteerPositions.id, volunteerApplications.positionId))
    .innerJoin(users, eq(users.id, volunteerApplications.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, volunteerApplications.donorId))
    .where(where)
    .orderBy(
      ...(opts.status === "pending"
        ? [asc(volunteerApplications.createdAt), asc(volunteerApplications.id)]
        : [desc(volunteerApplications.decidedAt), desc(volunteerApplications.id)]),
    )
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  return paged(rows, opts.page, total?.n ?? 0);
}

/** How many applications to the NGO's positions wait for its answer (its home). */
export async function pendingApplicationCount(db: DbOrTx, actor: ApplicationActor): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(volunteerApplications)
    .innerJoin(volunteerPositions, eq(volunteerPositions.id, volunteerApplications.positionId))
    .where(and(applicationScope({ id: idAs(actor, "ngo"), role: "ngo" }, "list"), eq(volunteerApplications.status, "pending")));
  return row?.n ?? 0;
}

export interface NgoApplicationDetail {
  id: string;
  status: ApplicationStatus;
  createdAt: Date;
  decidedAt: Date | null;
  decisionMessage: string | null;
  motivation: string;
  experience: string | null;
  resumeKey: string | null;
  applicant: { name: string; email: string; phone: string | null; address: string | null };
  position: { id: string; title: string; volunteersNeeded: number; accepted: number; open: boolean };
}

/** One application to the NGO's own position, with the applicant's contact details (/vol3, /volPSDAA). Anyone else's is not found. */
export async function applicationForNgo(
  db: DbOrTx,
  actor: ApplicationActor,
  applicationId: string,
  now = new Date(),
): Promise<NgoApplicationDetail> {
  if (!isUuid(applicationId)) throw notFound();
  const apps = volunteerApplications;
  const [row] = await db
    .select({
      application: apps,
      applicantName,
      email: users.email,
      phone: donorProfiles.contactNumber,
      address: donorProfiles.address,
      positionTitle: volunteerPositions.title,
      needed: volunteerPositions.volunteersNeeded,
      open: sql<boolean>`${isOpenSql(pakistanToday(now))}`,
      accepted:
        sql<number>`(select count(*) from ${apps} a2 where a2.position_id = ${volunteerPositions.id} and a2.status = 'approved')`.mapWith(
          Number,
        ),
    })
    .from(apps)
    .innerJoin(volunteerPositions, eq(volunteerPositions.id, apps.positionId))
    .innerJoin(users, eq(users.id, apps.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, apps.donorId))
    .where(and(eq(apps.id, applicationId), applicationScope(actor, "detail")))
    .limit(1);
  if (!row) throw notFound();
  const a = row.application;
  return {
    id: a.id,
    status: a.status,
    createdAt: a.createdAt,
    decidedAt: a.decidedAt,
    decisionMessage: a.decisionMessage,
    motivation: a.motivation,
    experience: a.experience,
    resumeKey: a.resumeKey,
    applicant: { name: row.applicantName, email: row.email, phone: row.phone, address: row.address },
    position: { id: a.positionId, title: row.positionTitle, volunteersNeeded: row.needed, accepted: row.accepted, open: row.open },
  };
}

export interface DonorApplicationRow {
  id: string;
  createdAt: Date;
  decidedAt: Date | null;
  state: ApplicationState;
  decisionMessage: string | null;
  positionId: string;
  positionTitle: string;
  ngoName: string;
  /** The position's timings as the NGO wrote them ("Saturdays 10 am to 2 pm"): when the work happens. */
  timings: string;
  /** How to reach the NGO: given to an approved volunteer only, who now has to work with them. */
  ngoContact: NgoContact | null;
}

export interface NgoContact {
  address: string;
  phone: string;
  email: string;
}

/** One page of a donor's own applications, newest first, with each one's state (/dvh2). */
export async function applicationsOfDonor(
  db: DbOrTx,
  actor: ApplicationActor,
  page: number,
  now = new Date(),
): Promise<Paged<DonorApplicationRow>> {
  // The "list" reading grants the position's NGO too: this is the donor's page, so only a donor's own count.
  const where = applicationScope({ id: idAs(actor, "donor"), role: "donor" }, "list");
  const [total] = await db.select({ n: count() }).from(volunteerApplications).where(where);
  const rows = await db
    .select({
      id: volunteerApplications.id,
      createdAt: volunteerApplications.createdAt,
      decidedAt: volunteerApplications.decidedAt,
      status: volunteerApplications.status,
      decisionMessage: volunteerApplications.decisionMessage,
      positionId: volunteerPositions.id,
      positionTitle: volunteerPositions.title,
      timings: volunteerPositions.timings,
      ngoName: ngoProfiles.name,
      ngoAddress: ngoProfiles.address,
      ngoPhone: ngoProfiles.contactNumber,
      ngoEmail: users.email,
      open: sql<boolean>`${isOpenSql(pakistanToday(now))}`,
    })
    .from(volunteerApplications)
    .innerJoin(volunteerPositions, eq(volunteerPositions.id, volunteerApplications.positionId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, volunteerPositions.ngoId))
    .innerJoin(users, eq(users.id, volunteerPositions.ngoId))
    .where(where)
    .orderBy(desc(volunteerApplications.createdAt), desc(volunteerApplications.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(
    rows.map(({ status, open, ngoAddress, ngoPhone, ngoEmail, ...r }) => ({
      ...r,
      state: applicationState(status, open),
      decisionMessage: status === "declined" ? r.decisionMessage : null,
      ngoContact: status === "approved" ? { address: ngoAddress, phone: ngoPhone, email: ngoEmail } : null,
    })),
    page,
    total?.n ?? 0,
  );
}
