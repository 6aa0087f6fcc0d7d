import { and, count, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import { campaignSchema, type CampaignInput, type CampaignValues } from "#shared/forms/campaigns.ts";
import { PAGE_SIZE, type CampaignTab } from "#shared/constants.ts";
import type { Db, DbOrTx } from "#server/db/client.ts";
import { isForeignKeyViolation, isUniqueViolation } from "#server/db/errors.ts";
import { campaigns, donations, partneredCampaigns } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { DomainError, invalid, invalidInput } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { resolvePlace, type SavedPlace } from "#server/domain/places/resolve.ts";
import { campaignFor, ngosOfCampaigns, type Campaign, type CampaignNgo, type CampaignRole } from "./access.ts";
import { setCampaignFunds } from "./funds.ts";
import { campaignScope } from "./policy.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import type { FundKind } from "#shared/statuses.ts";
import { assertTransition, canTransition, fromStates } from "./states.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

const TITLE_INDEX = "campaigns_active_title_unique";
const SLUG_INDEX = "campaigns_slug_unique";

/**
 * Parses campaign input with the form's schema (the routes do this with the submitted form; other callers
 * and tests use this); the first problem becomes a field error.
 */
export function parseCampaign(input: CampaignInput): CampaignValues {
  const result = z.safeParse(campaignSchema, input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(issue.message, String(issue.path[0] ?? ""));
}

/**
 * The active campaign with this title (case-insensitively), other than `exceptId`. A duplicate is refused
 * with the specification's message and, when another NGO runs it, the way to ask to collaborate on it.
 */
async function assertTitleFree(db: DbOrTx, ngoId: string, title: string, exceptId?: string): Promise<void> {
  const [existing] = await db
    .select({ id: campaigns.id, ownerId: campaigns.ownerId })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.status, "active"),
        sql`lower(${campaigns.title}) = lower(${title})`,
        exceptId ? ne(campaigns.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (existing) throw duplicateTitle(existing.ownerId === ngoId ? null : existing.id);
}

function duplicateTitle(otherCampaignId: string | null): DomainError {
  return new DomainError("conflict", "campaigns.title_taken", "title", otherCampaignId ? { collaborateWith: otherCampaignId } : undefined);
}

function resolveLocation(services: Pick<Services, "geocoder">, values: CampaignValues) {
  return resolvePlace(
    services.geocoder,
    values.location,
    { lat: values.locationLat, lng: values.locationLng },
    { message: "campaigns:errors.locationInvalid", field: "location" },
  );
}

/** The columns the create and edit forms set. */
function editableColumns(values: CampaignValues, location: SavedPlace, pictureKey: string | null) {
  return {
    title: values.title,
    description: values.description,
    targetAmount: values.targetAmount,
    otherItems: values.otherItems ?? null,
    locationLabel: location.label,
    locationLabelUr: location.labelUr,
    lat: location.lat,
    lng: location.lng,
    pictureKey,
    cause: values.cause,
  };
}

/** A readable URL part from a title: letters and digits of any script, joined by dashes. */
export function slugify(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return base || "campaign";
}

async function freeSlug(db: DbOrTx, title: string, attempt: number): Promise<string> {
  const base = slugify(title);
  if (attempt > 0) return `${base}-${Math.random().toString(36).slice(2, 8)}`;
  const taken = await db
    .select({ slug: campaigns.slug })
    .from(campaigns)
    .where(sql`${campaigns.slug} = ${base} or ${campaigns.slug} like ${`${base}-%`}`);
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Creates a campaign for an NGO from parsed form values (`parseCampaign`): the location resolved to a place, the picture
 * stored, and the title unique among active campaigns even against a concurrent request (the database's
 * partial unique index decides). Returns the new campaign.
 */
export async function createCampaign(
  services: Pick<Services, "db" | "storage" | "geocoder">,
  actor: Actor,
  values: CampaignValues,
  /** The language the NGO read the Zakat attestation in, which the attestation keeps (decision 048). */
  lang: Lang = "en",
): Promise<Campaign> {
  const ngoId = idAs(actor, "ngo");
  await assertTitleFree(services.db, ngoId, values.title);
  const location = await resolveLocation(services, values);
  const pictureKey = values.picture
    ? await saveImage(services, { file: values.picture, kind: "campaign", ownerId: ngoId, field: "picture" })
    : null;
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await services.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(campaigns)
            .values({
              slug: await freeSlug(tx, values.title, attempt),
              ownerId: ngoId,
              ...editableColumns(values, location, pictureKey),
            })
            .returning();
          const acceptedFunds = await setCampaignFunds(tx, { campaignId: row!.id, actorId: ngoId, chosen: values.funds, lang });
          await recordAudit(tx, { actorId: ngoId, action: "campaign.created", details: { campaignId: row!.id, title: row!.title } });
          return { ...row!, acceptedFunds };
        });
      } catch (err) {
        if (isUniqueViolation(err, SLUG_INDEX) && !isUniqueViolation(err, TITLE_INDEX) && attempt < 3) continue;
        throw err;
      }
    }
  } catch (err) {
    await deleteFile(services, pictureKey);
    if (isUniqueViolation(err, TITLE_INDEX)) {
      // Lost a race with a campaign of the same title: say who has it now.
      await assertTitleFree(services.db, ngoId, values.title);
      throw duplicateTitle(null);
    }
    throw err;
  }
}

/**
 * Changes a campaign's text, target, place, picture or the funds it takes (with the Zakat attestation, funds.ts). Only its owner may; partners get
 * "forbidden". Lowering the target to what is already collected completes the campaign.
 */
export async function updateCampaign(
  services: Pick<Services, "db" | "storage" | "geocoder">,
  actor: Actor,
  campaignId: string,
  values: CampaignValues,
  lang: Lang = "en",
): Promise<Campaign> {
  const ngoId = idAs(actor, "ngo");
  const current = await campaignFor(services.db, campaignId, actor, "edit");
  assertTransition("edit", current.status, "owner", () => invalid("campaigns.archived"));
  if (current.status === "active") await assertTitleFree(services.db, ngoId, values.title, campaignId);
  const location =
    (values.location === current.locationLabel || values.location === current.locationLabelUr) && values.locationLat === undefined
      ? { label: current.locationLabel, labelUr: current.locationLabelUr, lat: current.lat, lng: current.lng }
      : await resolveLocation(services, values);
  const pictureKey = values.picture
    ? await saveImage(services, { file: values.picture, kind: "campaign", ownerId: ngoId, field: "picture" })
    : current.pictureKey;
  try {
    const updated = await services.db.transaction(async (tx) => {
      const locked = await campaignFor(tx, campaignId, actor, "edit", { forUpdate: true });
      assertTransition("edit", locked.status, "owner", () => invalid("campaigns.archived"));
      const completes = canTransition("complete", locked.status, "system") && locked.collectedAmount >= values.targetAmount;
      const [row] = await tx
        .update(campaigns)
        .set({
          ...editableColumns(values, location, pictureKey),
          updatedAt: sql`now()`,
          ...(completes ? { status: "completed" as const, completedAt: sql`now()` } : {}),
        })
        .where(eq(campaigns.id, campaignId))
        .returning();
      const acceptedFunds = await setCampaignFunds(tx, { campaignId, actorId: ngoId, chosen: values.funds, lang });
      await recordAudit(tx, { actorId: ngoId, action: "campaign.edited", details: { campaignId, title: values.title } });
      return { ...row!, acceptedFunds };
    });
    if (values.picture && current.pictureKey) await deleteFile(services, current.pictureKey);
    return updated;
  } catch (err) {
    if (values.picture) await deleteFile(services, pictureKey);
    if (isUniqueViolation(err, TITLE_INDEX)) throw duplicateTitle(null);
    throw err;
  }
}

/** The owner ends an active campaign early: it becomes completed and moves to Successful. */
export async function closeCampaign(db: Db, actor: Actor, campaignId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  const campaign = await campaignFor(db, campaignId, actor, "close");
  assertTransition("close", campaign.status, "owner", () => invalid("campaigns.not_active"));
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(campaigns)
      .set({ status: "completed", completedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(campaigns.id, campaignId), inArray(campaigns.status, fromStates("close"))))
      .returning({ id: campaigns.id });
    if (rows.length === 0) throw invalid("campaigns.not_active");
    await recordAudit(tx, { actorId: ngoId, action: "campaign.closed", details: { campaignId } });
  });
}

/**
 * Completes an active campaign whose approved total has reached its target. The cash flow calls it in
 * the same transaction that adds an approved amount; it changes nothing otherwise.
 */
export async function completeIfTargetReached(tx: DbOrTx, campaignId: string): Promise<boolean> {
  const rows = await tx
    .update(campaigns)
    .set({ status: "completed", completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.id, campaignId),
        inArray(campaigns.status, fromStates("complete")),
        sql`${campaigns.collectedAmount} >= ${campaigns.targetAmount}`,
      ),
    )
    .returning({ id: campaigns.id });
  return rows.length > 0;
}

/**
 * Deletes a campaign, or archives it when it has donations so that no donation loses its campaign.
 * Only the owner may. A donation arriving at the same moment makes the database refuse the delete,
 * and the campaign is archived instead.
 */
export async function deleteCampaign(
  services: Pick<Services, "db" | "storage">,
  actor: Actor,
  campaignId: string,
): Promise<"deleted" | "archived"> {
  const ngoId = idAs(actor, "ngo");
  const campaign = await campaignFor(services.db, campaignId, actor, "delete");
  assertTransition("delete", campaign.status, "owner", () => invalid("campaigns.archived"));
  const archive = async () =>
    services.db.transaction(async (tx) => {
      await tx
        .update(campaigns)
        .set({ status: "archived", archivedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(campaigns.id, campaignId));
      await recordAudit(tx, { actorId: ngoId, action: "campaign.archived", details: { campaignId, title: campaign.title } });
      return "archived" as const;
    });
  try {
    const outcome = await services.db.transaction(async (tx) => {
      await campaignFor(tx, campaignId, actor, "delete", { forUpdate: true });
      const [given] = await tx.select({ n: count() }).from(donations).where(eq(donations.campaignId, campaignId));
      if ((given?.n ?? 0) > 0) return "has-donations" as const;
      await tx.delete(campaigns).where(eq(campaigns.id, campaignId));
      await recordAudit(tx, { actorId: ngoId, action: "campaign.deleted", details: { campaignId, title: campaign.title } });
      return "deleted" as const;
    });
    if (outcome === "has-donations") return await archive();
    await deleteFile(services, campaign.pictureKey);
    return "deleted";
  } catch (err) {
    if (isForeignKeyViolation(err)) return archive();
    throw err;
  }
}

export interface CampaignListItem {
  id: string;
  slug: string;
  title: string;
  description: string;
  targetAmount: number;
  collectedAmount: number;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
  pictureKey: string | null;
  /** The funds it takes (decision 048). */
  acceptedFunds: FundKind[];
  status: Campaign["status"];
  createdAt: Date;
  completedAt: Date | null;
  role: CampaignRole;
  ngos: CampaignNgo[];
}

/** A searched list reads its own matching campaigns by the title's index, not in order, when at most this many match. */
const SEARCH_BY_INDEX_MAX = 200;

/**
 * One page of the campaigns an NGO runs (owned or as a partner) under a tab, newest first, optionally
 * searched by title (case-insensitively), with every partner of each.
 */
export async function listCampaigns(
  db: DbOrTx,
  actor: Actor,
  opts: { tab: CampaignTab; q?: string; page: number },
): Promise<Paged<CampaignListItem>> {
  const ngoId = idAs(actor, "ngo");
  const q = searchTerm(opts.q);
  const status = opts.tab === "ongoing" ? "active" : "completed";
  const sortKey = opts.tab === "ongoing" ? sql.raw("created_at") : sql.raw("completed_at");
  const titled = (alias: string) => (q ? sql` and ${sql.raw(alias)}.title ilike ${likePattern(q)}` : sql``);
  // The same search read from the NGO's own trigrams (campaigns_owner_title_trgm_idx, partnered_campaigns_ngo_title_
  // trgm_idx, migration 0032): `by` is the row's NGO column. It only narrows (a title that contains the search has each
  // of its three characters in a row); the ILIKE above decides. A search of one or two characters has none to look up.
  const keyed = (alias: string, by: SQL) =>
    q && [...q].length >= 3
      ? sql` and ngo_title_trigrams(${by}, ${sql.raw(alias)}.title) @> ngo_title_trigrams(${ngoId}::uuid, ${q})`
      : sql``;
  // How many: its own from campaign_counts (kept by a trigger, migration 0024) or, searched, from its titles' trigrams
  // (where the title's trigram index and campaigns_owner_status_idx read every campaign with the word and every
  // campaign of the NGO, to intersect them); and its partnered ones.
  const owned = q
    ? sql`(select count(*) from ${campaigns} o where o.owner_id = ${ngoId} and o.status = ${status}${titled("o")}${keyed("o", sql.raw("o.owner_id"))})`
    : sql`coalesce((select n from campaign_counts where owner_id = ${ngoId} and status = ${status}), 0)`;
  // Its accepted partnerships in the state, from their kept copy (partnered_campaigns, migration 0028): the entries of
  // one index range, where each partnered campaign was looked up by its id, or searched, its titles' trigrams. A
  // campaign it also owns (the domain refuses such a partnership) is counted once, as its own.
  const partnered = sql`(select count(*) from ${partneredCampaigns} p where p.ngo_id = ${ngoId} and p.partnership = 'accepted'
    and p.status = ${status} and p.owner_id <> p.ngo_id${titled("p")}${keyed("p", sql.raw("p.ngo_id"))})`;
  const [counts] = await db
    .execute(sql`select ${owned}::int as owned, ${partnered}::int as partnered`)
    .then((r) => (r as unknown as { rows: { owned: number; partnered: number }[] }).rows);
  const ownedCount = Number(counts?.owned ?? 0);
  // The campaigns it runs (campaignScope's "run": owned, or an accepted partner's), told what the list keeps: its own
  // are read in the order of campaigns_owner_status_idx up to the page's end, its partnered ones through their kept
  // copy (partnered_campaigns, decision 044). Read whole, they were a hash of every campaign the NGO runs, looked up one by
  // one and sorted. Searched, when few of its own match (the count above says how many) they are read from the
  // NGO's titles' trigrams instead: walking its 10,000 campaigns in order for a word only one holds read them all. The
  // walk leaves the trigrams out, so that PostgreSQL keeps to the order's index and stops at the page's end.
  const walk = !q || ownedCount > SEARCH_BY_INDEX_MAX;
  const runs = campaignScope(actor, "run", {
    where: (t, by) => sql`${sql.raw(t)}.status = ${status}${titled(t)}${walk ? sql`` : keyed(t, by)}`,
    ...(walk
      ? {
          first: {
            orderBy: (t: string) => sql`${sql.raw(t)}.${sortKey} desc, ${sql.raw(t)}.id desc`,
            limit: pageOffset(opts.page) + PAGE_SIZE,
          },
        }
      : {}),
  });
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(runs, eq(campaigns.status, status), q ? sql`${campaigns.title} ilike ${likePattern(q)}` : undefined))
    .orderBy(desc(opts.tab === "ongoing" ? campaigns.createdAt : campaigns.completedAt), desc(campaigns.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  const ngos = await ngosOfCampaigns(
    db,
    rows.map((r) => r.id),
  );
  return paged(
    rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      description: r.description,
      targetAmount: r.targetAmount,
      collectedAmount: r.collectedAmount,
      locationLabel: r.locationLabel,
      locationLabelUr: r.locationLabelUr,
      pictureKey: r.pictureKey,
      acceptedFunds: r.acceptedFunds,
      status: r.status,
      createdAt: r.createdAt,
      completedAt: r.completedAt,
      role: r.ownerId === ngoId ? ("owner" as const) : ("partner" as const),
      ngos: ngos.get(r.id) ?? [],
    })),
    opts.page,
    ownedCount + Number(counts?.partnered ?? 0),
  );
}

/** Whether any donation (of any state) names the campaign: such a campaign is archived, not deleted. */
export async function campaignHasDonations(db: DbOrTx, campaignId: string): Promise<boolean> {
  const [row] = await db.select({ id: donations.id }).from(donations).where(eq(donations.campaignId, campaignId)).limit(1);
  return row !== undefined;
}
