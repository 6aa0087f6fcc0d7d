import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { MAX_INVITES } from "#shared/forms/collab.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaignPartners, campaigns, donations, ngoProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { isUuid, likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { conflict, forbidden, invalid, notFound } from "#server/domain/errors.ts";
import { appLink, notify } from "#server/domain/notifications/notifications.ts";
import { campaignOwnedBy, ngosOfCampaigns, type Campaign } from "./access.ts";
import { campaignScope } from "./policy.ts";
import {
  STORED_PARTNERSHIP,
  partnershipState,
  partnershipStates,
  type PartnershipAction,
  type PartnershipRole,
  type PartnershipState,
} from "./states.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

type CollabServices = Pick<Services, "db" | "mailer" | "config" | "log">;

/** Where invitations and join requests are answered. */
export const INVITATIONS_LINK = "/collab#invitations";
export const REQUESTS_LINK = "/collab#requests";
export const JOINT_LINK = "/collab#joint";

async function ngoName(db: DbOrTx, ngoId: string): Promise<string> {
  const [row] = await db.select({ name: ngoProfiles.name }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId)).limit(1);
  return row?.name ?? "";
}

/** Verified, not suspended NGO accounts: the only ones that can take part in a campaign. */
const activeNgo: SQL = and(eq(users.role, "ngo"), eq(users.verification, "verified"), isNull(users.suspendedAt))!;

async function assertActiveNgo(db: DbOrTx, ngoId: string): Promise<void> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ngoId), activeNgo))
    .limit(1);
  if (!row) throw forbidden();
}

export interface InviteOutcome {
  /** NGOs that now have a pending invitation (new, or re-opened after a decline or leaving). */
  invited: string[];
  /** NGOs that had asked to join: the invitation answers their request, and they are partners now. */
  joined: string[];
  /** NGOs already partners or already invited: nothing changed for them. */
  unchanged: string[];
}

/**
 * The owner invites NGOs to its active campaign. Only verified, not suspended NGOs other than the owner
 * can be invited; an NGO that had asked to join becomes a partner at once, since both sides want it.
 * The invitees are told in the app and by email.
 */
/** A campaign's title and owner, for the notice a partner's step sends its owner; undefined when it is gone. */
async function titleAndOwner(db: DbOrTx, campaignId: string) {
  const [campaign] = await db
    .select({ title: campaigns.title, ownerId: campaigns.ownerId })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  return campaign;
}

export async function invitePartners(services: CollabServices, actor: Actor, campaignId: string, ngoIds: string[]): Promise<InviteOutcome> {
  const ownerId = idAs(actor, "ngo");
  const ids = [...new Set(ngoIds)];
  if (ids.length === 0) throw invalid("collab.choose_ngo", "ngoIds");
  if (ids.length > MAX_INVITES) throw invalid("collab.too_many", "ngoIds", { max: String(MAX_INVITES) });
  if (!isUuid(campaignId)) throw notFound();
  if (ids.some((id) => !isUuid(id))) throw invalid("collab.ngo_unavailable", "ngoIds");
  if (ids.includes(ownerId)) throw invalid("collab.not_yourself", "ngoIds");

  return services.db.transaction(async (tx) => {
    // Locking the campaign row serializes every change to its partners (invitations and join requests).
    const campaign = await campaignOwnedBy(tx, campaignId, actor, { forUpdate: true });
    if (campaign.status !== "active") throw invalid("collab.not_active", "campaignId");
    const eligible = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), activeNgo));
    if (eligible.length !== ids.length) throw invalid("collab.ngo_unavailable", "ngoIds");
    const existing = await tx
      .select()
      .from(campaignPartners)
      .where(and(eq(campaignPartners.campaignId, campaignId), inArray(campaignPartners.ngoId, ids)))
      .for("update");
    const byNgo = new Map(existing.map((r) => [r.ngoId, r]));
    const result: InviteOutcome = { invited: [], joined: [], unchanged: [] };
    for (const ngoId of ids) {
      const row = byNgo.get(ngoId);
      // Every state has an "invite" row: the refusal is never reached.
      const step = partnershipStates.assertTransition("invite", partnershipState(row), "owner", () => conflict("collab.already_partner"));
      if (step.repeat) {
        result.unchanged.push(ngoId);
      } else if (!row) {
        await tx.insert(campaignPartners).values({ campaignId, ngoId, direction: "invited", status: "pending" });
        result.invited.push(ngoId);
      } else if (step.to === "accepted") {
        await tx
          .update(campaignPartners)
          .set({ status: "accepted", respondedAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)));
        await recordAudit(tx, { actorId: ownerId, action: "collab.accepted", targetUserId: ngoId, details: { campaignId } });
        result.joined.push(ngoId);
      } else {
        // Declined or left earlier: a new invitation starts over.
        await tx
          .update(campaignPartners)
          .set({ direction: "invited", status: "pending", respondedAt: null, updatedAt: sql`now()` })
          .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)));
        result.invited.push(ngoId);
      }
    }
    // Told in the same transaction (decision 042): each notice and its mail exist exactly when the invitations do.
    const told = { ...services, db: tx };
    const owner = await ngoName(tx, ownerId);
    for (const ngoId of result.invited) {
      const name = await ngoName(tx, ngoId);
      await notify(told, {
        userId: ngoId,
        type: "collabInvited",
        params: { ngo: owner, campaign: campaign.title },
        link: INVITATIONS_LINK,
        email: {
          subject: "collab:mail.invited.subject",
          body: "collab:mail.invited.body",
          params: {
            name,
            ngo: owner,
            campaign: campaign.title,
            link: appLink(services.config, INVITATIONS_LINK),
          },
        },
      });
    }
    for (const ngoId of result.joined) {
      await notify(told, {
        userId: ngoId,
        type: "collabAccepted",
        params: { ngo: owner, campaign: campaign.title },
        link: JOINT_LINK,
      });
    }
    return result;
  });
}

/** What asking to join a campaign did. */
export type JoinOutcome = "requested" | "alreadyRequested" | "joined";

/**
 * An NGO asks to collaborate on another NGO's active campaign (for instance after choosing a title that
 * campaign already has). Asking twice changes nothing; an NGO the owner had already invited becomes a
 * partner at once. The owner is told in the app and by email.
 */
export async function requestToJoin(services: CollabServices, actor: Actor, campaignId: string): Promise<JoinOutcome> {
  const ngoId = idAs(actor, "ngo");
  if (!isUuid(campaignId)) throw notFound();
  await assertActiveNgo(services.db, ngoId);
  return services.db.transaction(async (tx) => {
    const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1).for("update");
    if (!campaign || campaign.status === "archived") throw notFound();
    if (campaign.ownerId === ngoId) throw invalid("collab.own_campaign");
    const [row] = await tx
      .select()
      .from(campaignPartners)
      .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)))
      .for("update");
    const step = partnershipStates.assertTransition("request", partnershipState(row), "ngo", () => conflict("collab.already_partner"));
    if (campaign.status !== "active") throw invalid("collab.not_active");
    if (step.repeat) return "alreadyRequested" as const;
    // Told in the same transaction (decision 042): the notice and its mail exist exactly when the change does.
    const told = { ...services, db: tx };
    if (step.to === "accepted") {
      await tx
        .update(campaignPartners)
        .set({ status: "accepted", respondedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)));
      await recordAudit(tx, { actorId: ngoId, action: "collab.accepted", targetUserId: campaign.ownerId, details: { campaignId } });
      await notify(told, {
        userId: campaign.ownerId,
        type: "collabAccepted",
        params: { ngo: await ngoName(tx, ngoId), campaign: campaign.title },
        link: JOINT_LINK,
      });
      return "joined" as const;
    }
    if (row) {
      await tx
        .update(campaignPartners)
        .set({ direction: "requested", status: "pending", respondedAt: null, updatedAt: sql`now()` })
        .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId)));
    } else {
      await tx.insert(campaignPartners).values({ campaignId, ngoId, direction: "requested", status: "pending" });
    }
    const requester = await ngoName(tx, ngoId);
    const owner = await ngoName(tx, campaign.ownerId);
    await notify(told, {
      userId: campaign.ownerId,
      type: "collabRequested",
      params: { ngo: requester, campaign: campaign.title },
      link: REQUESTS_LINK,
      email: {
        subject: "collab:mail.requested.subject",
        body: "collab:mail.requested.body",
        params: {
          name: owner,
          ngo: requester,
          campaign: campaign.title,
          link: appLink(services.config, REQUESTS_LINK),
        },
      },
    });
    return "requested" as const;
  });
}

/**
 * Answers a pending row, only while it is still pending: of several concurrent answers exactly one
 * changes it. Accepting also needs the campaign to be active still.
 */
async function answer(tx: DbOrTx, campaignId: string, ngoId: string, action: AnswerAction): Promise<boolean> {
  const accept = action === "acceptInvitation" || action === "acceptRequest";
  // One pending state per answer (invited or requested): its stored status and direction are the guard.
  const [from] = partnershipStates.fromStates(action) as Exclude<PartnershipState, "none">[];
  const to = partnershipStates.target(action, from!) as Exclude<PartnershipState, "none">;
  const rows = await tx
    .update(campaignPartners)
    .set({ status: STORED_PARTNERSHIP[to].status, respondedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaignPartners.campaignId, campaignId),
        eq(campaignPartners.ngoId, ngoId),
        eq(campaignPartners.direction, STORED_PARTNERSHIP[from!].direction!),
        eq(campaignPartners.status, STORED_PARTNERSHIP[from!].status),
        accept
          ? sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignId} and ${campaigns.status} = 'active')`
          : undefined,
      ),
    )
    .returning({ ngoId: campaignPartners.ngoId });
  return rows.length > 0;
}

type AnswerAction = Extract<PartnershipAction, "acceptInvitation" | "declineInvitation" | "acceptRequest" | "declineRequest">;

/** Why an answer changed nothing: no such invitation or request, the campaign ended, or it was already answered. */
async function explainNoAnswer(
  db: DbOrTx,
  campaignId: string,
  ngoId: string,
  direction: "invited" | "requested",
  action: AnswerAction,
  role: PartnershipRole,
): Promise<never> {
  const [row] = await db
    .select({ status: campaignPartners.status, campaignStatus: campaigns.status })
    .from(campaignPartners)
    .innerJoin(campaigns, eq(campaigns.id, campaignPartners.campaignId))
    .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, ngoId), eq(campaignPartners.direction, direction)))
    .limit(1);
  if (!row || row.campaignStatus === "archived") throw notFound();
  partnershipStates.assertTransition(action, partnershipState({ status: row.status, direction }), role, () =>
    conflict("collab.already_answered"),
  );
  // The table allows the answer: only the campaign's end stopped it.
  throw invalid("collab.not_active");
}

/** The invited NGO accepts or declines an invitation; the owner is told. */
export async function respondToInvitation(services: CollabServices, actor: Actor, campaignId: string, accept: boolean): Promise<void> {
  const inviteeId = idAs(actor, "ngo");
  if (!isUuid(campaignId)) throw notFound();
  const changed = await services.db.transaction(async (tx) => {
    if (!(await answer(tx, campaignId, inviteeId, accept ? "acceptInvitation" : "declineInvitation"))) return false;
    if (accept) await recordAudit(tx, { actorId: inviteeId, action: "collab.accepted", details: { campaignId } });
    const campaign = await titleAndOwner(tx, campaignId);
    if (campaign) {
      await notify(
        { ...services, db: tx },
        {
          userId: campaign.ownerId,
          type: accept ? "collabAccepted" : "collabDeclined",
          params: { ngo: await ngoName(tx, inviteeId), campaign: campaign.title },
          link: JOINT_LINK,
        },
      );
    }
    return true;
  });
  if (!changed)
    return explainNoAnswer(services.db, campaignId, inviteeId, "invited", accept ? "acceptInvitation" : "declineInvitation", "ngo");
}

/** The owner accepts or declines an NGO's request to join its campaign; the NGO is told. Partners may not answer. */
export async function respondToRequest(
  services: CollabServices,
  actor: Actor,
  campaignId: string,
  requesterId: string,
  accept: boolean,
): Promise<void> {
  const ownerId = idAs(actor, "ngo");
  if (!isUuid(campaignId) || !isUuid(requesterId)) throw notFound();
  const campaign = await campaignOwnedBy(services.db, campaignId, actor);
  const changed = await services.db.transaction(async (tx) => {
    if (!(await answer(tx, campaignId, requesterId, accept ? "acceptRequest" : "declineRequest"))) return false;
    if (accept) {
      await recordAudit(tx, { actorId: ownerId, action: "collab.accepted", targetUserId: requesterId, details: { campaignId } });
    }
    await notify(
      { ...services, db: tx },
      {
        userId: requesterId,
        type: accept ? "collabAccepted" : "collabDeclined",
        params: { ngo: await ngoName(tx, ownerId), campaign: campaign.title },
        link: accept ? JOINT_LINK : "/collab",
      },
    );
    return true;
  });
  if (!changed)
    return explainNoAnswer(services.db, campaignId, requesterId, "requested", accept ? "acceptRequest" : "declineRequest", "owner");
}

/**
 * An accepted partner leaves a joint campaign. The owner cannot leave (it closes or deletes the campaign
 * instead). Donations already paid to the partner stay with the campaign and keep counting toward its target.
 */
export async function leaveCampaign(services: CollabServices, actor: Actor, campaignId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  if (!isUuid(campaignId)) throw notFound();
  const left = await services.db.transaction(async (tx) => {
    const rows = await tx
      .update(campaignPartners)
      .set({ status: "left", respondedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(campaignPartners.campaignId, campaignId),
          eq(campaignPartners.ngoId, ngoId),
          inArray(
            campaignPartners.status,
            partnershipStates.fromStates("leave").map((st) => STORED_PARTNERSHIP[st as Exclude<PartnershipState, "none">].status),
          ),
        ),
      )
      .returning({ ngoId: campaignPartners.ngoId });
    if (rows.length === 0) return false;
    await recordAudit(tx, { actorId: ngoId, action: "collab.left", details: { campaignId } });
    const campaign = await titleAndOwner(tx, campaignId);
    if (campaign) {
      await notify(
        { ...services, db: tx },
        {
          userId: campaign.ownerId,
          type: "collabLeft",
          params: { ngo: await ngoName(tx, ngoId), campaign: campaign.title },
          link: JOINT_LINK,
        },
      );
    }
    return true;
  });
  if (left) return;
  const [campaign] = await services.db
    .select({ ownerId: campaigns.ownerId, status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  if (campaign && campaign.ownerId === ngoId && campaign.status !== "archived") throw invalid("collab.owner_cannot_leave");
  throw notFound();
}

// ---------------------------------------------------------------------------------------------------------
// What /collab shows

/** How a listed NGO stands toward the chosen campaign. */
export type PartnerState = "partner" | "invited" | "requested" | "none";

export interface NgoChoice {
  id: string;
  name: string;
  logoKey: string | null;
  state: PartnerState;
}

export interface Invitation {
  campaignId: string;
  title: string;
  slug: string;
  ngoId: string;
  ngoName: string;
  logoKey: string | null;
  createdAt: Date;
}

export interface JointCampaignNgo {
  id: string;
  name: string;
  logoKey: string | null;
  /** "former": left the campaign, but donations paid to it still count. */
  role: "owner" | "partner" | "former";
  /** Whole rupees of approved cash donations paid to this NGO for the campaign. */
  share: number;
  /** That share as a part (0..1) of what the campaign raised, `raised`; 0 while nothing was raised. */
  shareOfRaised: number;
}

export interface JointCampaign {
  id: string;
  slug: string;
  title: string;
  status: Campaign["status"];
  targetAmount: number;
  collectedAmount: number;
  /** Whole rupees the partners' shares add up to: every approved cash donation of the campaign. */
  raised: number;
  role: "owner" | "partner";
  ngos: JointCampaignNgo[];
}

/** One of the NGO's own active campaigns, listed first on /collab to choose for inviting partners. */
export interface OwnCampaign {
  id: string;
  title: string;
  slug: string;
  /** Accepted partners. */
  partners: number;
  /** Invitations and join requests waiting for an answer. */
  pending: number;
}

export interface CollabOverview {
  /** The NGO's own active campaigns, to invite partners to. */
  campaigns: { id: string; title: string }[];
  /** The same campaigns a page at a time, with how many partners each has, newest first. */
  own: Paged<OwnCampaign>;
  selected: { id: string; title: string } | null;
  q: string;
  ngos: Paged<NgoChoice>;
  invitations: Paged<Invitation>;
  requests: Paged<Invitation>;
  joint: Paged<JointCampaign>;
}

/** Enough to choose from; an NGO with more active campaigns than this picks among the newest. */
const CAMPAIGN_CHOICES = 200;

/**
 * Everything /collab shows to an NGO: its active campaigns to choose from, the NGOs it may invite (searched by
 * name, case-insensitively) with their state toward the chosen campaign, invitations waiting for its answer,
 * requests to join its campaigns, and its joint campaigns with every partner's share.
 */
export async function collabOverview(
  db: DbOrTx,
  actor: Actor,
  opts: {
    campaignId?: string | null;
    q?: string | null;
    page: number;
    invitationsPage?: number;
    requestsPage?: number;
    jointPage?: number;
    ownPage?: number;
  },
): Promise<CollabOverview> {
  const ngoId = idAs(actor, "ngo");
  const own = await db
    .select({ id: campaigns.id, title: campaigns.title })
    .from(campaigns)
    .where(and(eq(campaigns.ownerId, ngoId), eq(campaigns.status, "active")))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(CAMPAIGN_CHOICES);
  let selected = own.find((c) => c.id === opts.campaignId) ?? null;
  if (!selected && isUuid(opts.campaignId)) {
    // An older campaign beyond the list can still be chosen by its link.
    const [row] = await db
      .select({ id: campaigns.id, title: campaigns.title })
      .from(campaigns)
      .where(and(eq(campaigns.id, opts.campaignId), eq(campaigns.ownerId, ngoId), eq(campaigns.status, "active")))
      .limit(1);
    selected = row ?? null;
  }
  const q = searchTerm(opts.q) ?? "";
  const [ownPage, ngos, invitations, requests, joint] = await Promise.all([
    ownCampaigns(db, ngoId, opts.ownPage ?? 1),
    searchNgos(db, ngoId, selected?.id ?? null, q, opts.page),
    pendingInvitations(db, ngoId, opts.invitationsPage ?? 1),
    pendingRequests(db, ngoId, opts.requestsPage ?? 1),
    jointCampaigns(db, actor, opts.jointPage ?? 1),
  ]);
  return { campaigns: own, own: ownPage, selected, q, ngos, invitations, requests, joint };
}

/** The NGO's active campaigns a page at a time, each with its count of partners and of unanswered invitations or requests. */
async function ownCampaigns(db: DbOrTx, ngoId: string, page: number): Promise<Paged<OwnCampaign>> {
  const where = and(eq(campaigns.ownerId, ngoId), eq(campaigns.status, "active"));
  const [total] = await db.select({ n: count() }).from(campaigns).where(where);
  const rows = await db
    .select({
      id: campaigns.id,
      title: campaigns.title,
      slug: campaigns.slug,
      partners: sql<number>`count(*) filter (where ${campaignPartners.status} = 'accepted')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${campaignPartners.status} = 'pending')`.mapWith(Number),
    })
    .from(campaigns)
    .leftJoin(campaignPartners, eq(campaignPartners.campaignId, campaigns.id))
    .where(where)
    .groupBy(campaigns.id)
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}

async function searchNgos(db: DbOrTx, ngoId: string, campaignId: string | null, q: string, page: number): Promise<Paged<NgoChoice>> {
  const where = and(activeNgo, ne(users.id, ngoId), q ? ilike(ngoProfiles.name, likePattern(q)) : undefined);
  const [total] = await db.select({ n: count() }).from(users).innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id)).where(where);
  const rows = await db
    .select({
      id: users.id,
      name: ngoProfiles.name,
      logoKey: ngoProfiles.logoKey,
      status: campaignPartners.status,
      direction: campaignPartners.direction,
    })
    .from(users)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
    .leftJoin(
      campaignPartners,
      and(eq(campaignPartners.ngoId, users.id), campaignId ? eq(campaignPartners.campaignId, campaignId) : sql`false`),
    )
    .where(where)
    .orderBy(sql`lower(${ngoProfiles.name})`, asc(users.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      logoKey: r.logoKey,
      state: r.status === "accepted" ? "partner" : r.status === "pending" ? (r.direction === "invited" ? "invited" : "requested") : "none",
    })),
    page,
    total?.n ?? 0,
  );
}

/** Pending rows of one direction: invitations to `ngoId`, or requests to join campaigns `ngoId` owns. */
async function pendingRows(db: DbOrTx, where: SQL, otherNgo: "owner" | "partner", page: number): Promise<Paged<Invitation>> {
  const other = otherNgo === "owner" ? campaigns.ownerId : campaignPartners.ngoId;
  const base = () => db.select({ n: count() }).from(campaignPartners).innerJoin(campaigns, eq(campaigns.id, campaignPartners.campaignId));
  const [total] = await base().where(where);
  const rows = await db
    .select({
      campaignId: campaigns.id,
      title: campaigns.title,
      slug: campaigns.slug,
      ngoId: ngoProfiles.userId,
      ngoName: ngoProfiles.name,
      logoKey: ngoProfiles.logoKey,
      createdAt: campaignPartners.updatedAt,
    })
    .from(campaignPartners)
    .innerJoin(campaigns, eq(campaigns.id, campaignPartners.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, other))
    .where(where)
    .orderBy(desc(campaignPartners.updatedAt), asc(campaigns.id), asc(campaignPartners.ngoId))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}

function pendingInvitations(db: DbOrTx, ngoId: string, page: number) {
  return pendingRows(
    db,
    and(
      eq(campaignPartners.ngoId, ngoId),
      eq(campaignPartners.direction, "invited"),
      eq(campaignPartners.status, "pending"),
      eq(campaigns.status, "active"),
    )!,
    "owner",
    page,
  );
}

function pendingRequests(db: DbOrTx, ngoId: string, page: number) {
  return pendingRows(
    db,
    and(
      eq(campaigns.ownerId, ngoId),
      eq(campaignPartners.direction, "requested"),
      eq(campaignPartners.status, "pending"),
      eq(campaigns.status, "active"),
    )!,
    "partner",
    page,
  );
}

/** The campaigns the NGO runs together with others (owned with at least one partner, or as a partner), newest first. */
async function jointCampaigns(db: DbOrTx, actor: Actor, page: number): Promise<Paged<JointCampaign>> {
  const ngoId = actor.id;
  const where = and(
    campaignScope(actor, "run"),
    ne(campaigns.status, "archived"),
    sql`exists (select 1 from ${campaignPartners} where ${campaignPartners.campaignId} = ${campaigns.id}
      and ${campaignPartners.status} = 'accepted')`,
  );
  const [total] = await db.select({ n: count() }).from(campaigns).where(where);
  const rows = await db
    .select()
    .from(campaigns)
    .where(where)
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  const ids = rows.map((r) => r.id);
  const [ngos, shares] = await Promise.all([ngosOfCampaigns(db, ids), partnerShares(db, ids)]);
  // NGOs that left but were paid donations keep their share on the campaign: their names are looked up too.
  const formerIds = new Set<string>();
  for (const id of ids) {
    const current = new Set((ngos.get(id) ?? []).map((n) => n.id));
    for (const ngo of (shares.get(id) ?? new Map()).keys()) if (!current.has(ngo)) formerIds.add(ngo);
  }
  const formerNames = new Map<string, { name: string; logoKey: string | null }>();
  if (formerIds.size > 0) {
    const found = await db
      .select({ id: ngoProfiles.userId, name: ngoProfiles.name, logoKey: ngoProfiles.logoKey })
      .from(ngoProfiles)
      .where(inArray(ngoProfiles.userId, [...formerIds]));
    for (const f of found) formerNames.set(f.id, { name: f.name, logoKey: f.logoKey });
  }
  return paged(
    rows.map((r) => {
      const byNgo = shares.get(r.id) ?? new Map<string, number>();
      let raised = 0;
      for (const share of byNgo.values()) raised += share;
      const part = (share: number) => (raised > 0 ? share / raised : 0);
      const list: JointCampaignNgo[] = (ngos.get(r.id) ?? []).map((n) => {
        const share = byNgo.get(n.id) ?? 0;
        return { ...n, share, shareOfRaised: part(share) };
      });
      for (const [id, share] of byNgo) {
        if (list.some((n) => n.id === id)) continue;
        const former = formerNames.get(id);
        list.push({ id, name: former?.name ?? "", logoKey: former?.logoKey ?? null, role: "former", share, shareOfRaised: part(share) });
      }
      return {
        id: r.id,
        slug: r.slug,
        title: r.title,
        status: r.status,
        targetAmount: r.targetAmount,
        collectedAmount: r.collectedAmount,
        raised,
        role: r.ownerId === ngoId ? ("owner" as const) : ("partner" as const),
        ngos: list,
      };
    }),
    page,
    total?.n ?? 0,
  );
}

/** Approved cash donations per campaign and receiving NGO, in whole rupees: each partner's share of the total. */
export async function partnerShares(db: DbOrTx, campaignIds: string[]): Promise<Map<string, Map<string, number>>> {
  const result = new Map<string, Map<string, number>>(campaignIds.map((id) => [id, new Map()]));
  if (campaignIds.length === 0) return result;
  const rows = await db
    .select({
      campaignId: donations.campaignId,
      ngoId: donations.recipientNgoId,
      total: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number),
    })
    .from(donations)
    .where(and(inArray(donations.campaignId, campaignIds), eq(donations.kind, "cash"), eq(donations.status, "approved")))
    .groupBy(donations.campaignId, donations.recipientNgoId);
  for (const r of rows) result.get(r.campaignId)?.set(r.ngoId, r.total);
  return result;
}

/** A campaign another NGO may ask to join, and how the asking NGO stands toward it. */
export interface JoinTarget {
  id: string;
  slug: string;
  title: string;
  description: string;
  locationLabel: string;
  locationLabelUr: string | null;
  status: Campaign["status"];
  ownerName: string;
  ownerLogoKey: string | null;
  state: "owner" | PartnerState;
  /** This NGO's partnership with the campaign, as the transition table sees it ("none" for its owner). */
  partnership: PartnershipState;
}

/** What /collab/join/:campaignId shows; archived or unknown campaigns are not found. */
export async function joinTarget(db: DbOrTx, actor: Actor, campaignId: string): Promise<JoinTarget> {
  const ngoId = idAs(actor, "ngo");
  if (!isUuid(campaignId)) throw notFound();
  const [row] = await db
    .select({
      id: campaigns.id,
      slug: campaigns.slug,
      title: campaigns.title,
      description: campaigns.description,
      locationLabel: campaigns.locationLabel,
      locationLabelUr: campaigns.locationLabelUr,
      status: campaigns.status,
      ownerId: campaigns.ownerId,
      ownerName: ngoProfiles.name,
      ownerLogoKey: ngoProfiles.logoKey,
      partnerStatus: campaignPartners.status,
      direction: campaignPartners.direction,
    })
    .from(campaigns)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, campaigns.ownerId))
    .leftJoin(campaignPartners, and(eq(campaignPartners.campaignId, campaigns.id), eq(campaignPartners.ngoId, ngoId)))
    .where(and(eq(campaigns.id, campaignId), ne(campaigns.status, "archived")))
    .limit(1);
  if (!row) throw notFound();
  const state: JoinTarget["state"] =
    row.ownerId === ngoId
      ? "owner"
      : row.partnerStatus === "accepted"
        ? "partner"
        : row.partnerStatus === "pending"
          ? row.direction === "invited"
            ? "invited"
            : "requested"
          : "none";
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    locationLabel: row.locationLabel,
    locationLabelUr: row.locationLabelUr,
    status: row.status,
    ownerName: row.ownerName,
    ownerLogoKey: row.ownerLogoKey,
    state,
    partnership: partnershipState({ status: row.partnerStatus, direction: row.direction }),
  };
}
