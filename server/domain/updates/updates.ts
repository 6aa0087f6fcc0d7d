import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { UPDATE_PHOTOS_MAX } from "#shared/constants.ts";
import { previewWords } from "#shared/text.ts";
import type { UpdateStatus } from "#shared/statuses.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaignUpdateMails, campaignUpdatePhotos, campaignUpdates, campaigns, donations } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { campaignForNgo, type Campaign } from "#server/domain/campaigns/access.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { appLink, mailUser, notifyAll } from "#server/domain/notifications/notifications.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { updateScope } from "./policy.ts";
import { updateStates, type UpdateAction, type UpdateRole } from "./states.ts";

/**
 * Campaign updates (decision 050): an NGO that runs a campaign writes one (text and up to UPDATE_PHOTOS_MAX photos),
 * keeps it as a draft or publishes it at once; publishing needs every photo of people confirmed with their consent, and
 * tells the campaign's donors (an approved gift) in app at once and by mail through a job, at most one mail a day per
 * campaign per donor.
 */

/** One photo of the form: the file, whether it shows people, and whether the NGO confirms their consent. */
export interface UpdatePhotoInput {
  file: File;
  showsPeople: boolean;
  consent: boolean;
}

export interface UpdateInput {
  body: string;
  photos: UpdatePhotoInput[];
  publish: boolean;
}

/** How many update mails one transaction of the job writes (outbox rows and their mail jobs). */
export const UPDATE_MAIL_BATCH = 200;
/** The most words of an update a mail quotes. */
const MAIL_EXCERPT_WORDS = 40;

/** The public page's updates: where a notice and a mail lead. */
export function updatesPath(slug: string): string {
  return `/campaign/${encodeURIComponent(slug)}#updates`;
}

/** The accounts with an approved gift to the campaign: its donors (decision 050), one row each, from the index. */
export function donorsOf(campaignId: string): SQL {
  return sql`select distinct ${donations.donorId} from ${donations}
    where ${donations.campaignId} = ${campaignId} and ${donations.status} = 'approved'`;
}

const roleIn = (campaign: Campaign, actor: Actor): UpdateRole => (campaign.ownerId === actor.id ? "owner" : "partner");

const refuse = () => conflict("updates.state_changed");

/** Writes an update of a campaign the NGO runs: a draft, or published at once (the consent rule first). */
export async function postUpdate(
  services: Pick<Services, "db" | "storage" | "log" | "jobs">,
  actor: Actor,
  campaignId: string,
  input: UpdateInput,
): Promise<{ id: string; status: UpdateStatus }> {
  const ngoId = idAs(actor, "ngo");
  const { campaign } = await campaignForNgo(services.db, campaignId, actor);
  if (campaign.status === "archived") throw notFound();
  if (input.photos.length > UPDATE_PHOTOS_MAX) throw invalid("updates.too_many_photos");
  // Refused before anything is stored: publishing needs each photo of people confirmed.
  if (input.publish) {
    const index = input.photos.findIndex((p) => p.showsPeople && !p.consent);
    if (index >= 0) throw invalid("updates.consent_missing", `consent${index + 1}`);
  }
  // The pictures are stored before the rows (a crash in between leaves files the sweep removes), as every upload does.
  const keys: string[] = [];
  for (const [i, photo] of input.photos.entries()) {
    keys.push(await saveImage(services, { file: photo.file, kind: "update", ownerId: ngoId, field: `photo${i + 1}` }));
  }
  return services.db.transaction(async (tx) => {
    const { campaign: locked } = await campaignForNgo(tx, campaignId, actor, { forUpdate: true });
    if (locked.status === "archived") throw notFound();
    const [row] = await tx.insert(campaignUpdates).values({ campaignId, authorId: ngoId, body: input.body }).returning();
    if (keys.length > 0) {
      await tx.insert(campaignUpdatePhotos).values(
        input.photos.map((p, i) => ({
          updateId: row!.id,
          key: keys[i]!,
          position: i,
          showsPeople: p.showsPeople,
          consentBy: p.showsPeople && p.consent ? ngoId : null,
          consentAt: p.showsPeople && p.consent ? new Date() : null,
        })),
      );
    }
    await recordAudit(tx, { actorId: ngoId, action: "updates.written", details: { campaignId, updateId: row!.id } });
    if (!input.publish) return { id: row!.id, status: row!.status };
    await publishWithin({ ...services, db: tx }, ngoId, row!.id, locked);
    return { id: row!.id, status: "published" as const };
  });
}

/** The update, locked, when the NGO runs its campaign; "not found" otherwise. Checks the action against its state. */
async function updateFor(tx: DbOrTx, actor: Actor, updateId: string, action: UpdateAction) {
  if (!isUuid(updateId)) throw notFound();
  const [row] = await tx
    .select()
    .from(campaignUpdates)
    .where(and(eq(campaignUpdates.id, updateId), updateScope(actor, "manage")))
    .for("update")
    .limit(1);
  if (!row) throw notFound();
  const { campaign } = await campaignForNgo(tx, row.campaignId, actor, { forUpdate: true });
  updateStates.assertTransition(action, row.status, roleIn(campaign, actor), refuse);
  return { row, campaign };
}

/** Publishes a draft: every photo showing people must have its consent confirmed (the server's rule). */
export async function publishUpdate(services: Pick<Services, "db" | "log" | "jobs">, actor: Actor, updateId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  await services.db.transaction(async (tx) => {
    const { row, campaign } = await updateFor(tx, actor, updateId, "publish");
    if (campaign.status === "archived") throw notFound();
    await publishWithin({ ...services, db: tx }, ngoId, row.id, campaign);
  });
}

/**
 * Publishes a draft inside the caller's transaction (the update and its campaign locked) and tells the donors: a notice
 * each in one statement, a mail claimed for each donor not mailed about this campaign in the last day (one statement),
 * and one `update-mail` job, named by the update, that writes the claimed mails in batches after the commit.
 */
async function publishWithin(
  services: Pick<Services, "db" | "log" | "jobs">,
  ngoId: string,
  updateId: string,
  campaign: Campaign,
): Promise<void> {
  const tx = services.db;
  const [unconsented] = await tx
    .select({ position: campaignUpdatePhotos.position })
    .from(campaignUpdatePhotos)
    .where(
      and(eq(campaignUpdatePhotos.updateId, updateId), eq(campaignUpdatePhotos.showsPeople, true), isNull(campaignUpdatePhotos.consentAt)),
    )
    .orderBy(asc(campaignUpdatePhotos.position))
    .limit(1);
  if (unconsented) throw invalid("updates.consent_missing", `consent${unconsented.position + 1}`);
  const published = await tx
    .update(campaignUpdates)
    .set({ status: "published", publishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(campaignUpdates.id, updateId), inArray(campaignUpdates.status, updateStates.fromStates("publish"))))
    .returning({ id: campaignUpdates.id });
  if (published.length === 0) throw refuse();
  await recordAudit(tx, { actorId: ngoId, action: "updates.published", details: { campaignId: campaign.id, updateId } });
  await notifyAll(services, {
    userIds: donorsOf(campaign.id),
    type: "campaignUpdate",
    params: { campaign: campaign.title },
    link: updatesPath(campaign.slug),
  });
  // A donor mailed about this campaign less than a day ago keeps that claim: the notice above is all they get.
  const claimed = (await tx.execute(sql`with claimed as (
      insert into ${campaignUpdateMails} (campaign_id, donor_id, update_id, claimed_at)
      select ${campaign.id}, donor.id, ${updateId}, now() from (${donorsOf(campaign.id)}) as donor(id)
      on conflict (campaign_id, donor_id) do update
        set update_id = excluded.update_id, claimed_at = excluded.claimed_at, sent_at = null
        where ${campaignUpdateMails.claimedAt} <= now() - interval '1 day'
      returning 1)
    select count(*)::int as n from claimed`)) as unknown as { rows: { n: number }[] };
  if (Number(claimed.rows[0]?.n ?? 0) > 0) await services.jobs.send(tx, "update-mail", { updateId }, { id: updateId });
}

/**
 * The `update-mail` job: writes the mails an update claimed, UPDATE_MAIL_BATCH at a time, each batch's outbox rows (and
 * their mail jobs) and its `sent_at` in one transaction, so a retry after a crash writes none twice. An update removed
 * before its mails went sends none, and gives its claims back (the donor may be mailed about the next one). Returns
 * how many mails it wrote.
 */
export async function sendUpdateMails(services: Pick<Services, "db" | "mailer" | "config">, updateId: string): Promise<number> {
  const [update] = await services.db
    .select({ status: campaignUpdates.status, body: campaignUpdates.body, title: campaigns.title, slug: campaigns.slug })
    .from(campaignUpdates)
    .innerJoin(campaigns, eq(campaigns.id, campaignUpdates.campaignId))
    .where(eq(campaignUpdates.id, updateId))
    .limit(1);
  if (!update) return 0;
  const unsent = and(eq(campaignUpdateMails.updateId, updateId), isNull(campaignUpdateMails.sentAt));
  if (update.status !== "published") {
    await services.db.delete(campaignUpdateMails).where(unsent);
    return 0;
  }
  const mail = {
    subject: "updates:mail.subject",
    body: "updates:mail.body",
    params: {
      title: update.title,
      excerpt: previewWords(update.body, MAIL_EXCERPT_WORDS),
      link: appLink(services.config, updatesPath(update.slug)),
    },
  };
  let written = 0;
  for (;;) {
    const batch = await services.db.transaction(async (tx) => {
      const rows = await tx
        .select({ donorId: campaignUpdateMails.donorId })
        .from(campaignUpdateMails)
        .where(unsent)
        .orderBy(asc(campaignUpdateMails.donorId))
        .limit(UPDATE_MAIL_BATCH)
        .for("update", { skipLocked: true });
      for (const { donorId } of rows) await mailUser({ db: tx, mailer: services.mailer }, donorId, mail);
      if (rows.length > 0) {
        await tx
          .update(campaignUpdateMails)
          .set({ sentAt: sql`now()` })
          .where(
            and(
              unsent,
              inArray(
                campaignUpdateMails.donorId,
                rows.map((r) => r.donorId),
              ),
            ),
          );
      }
      return rows.length;
    });
    written += batch;
    if (batch < UPDATE_MAIL_BATCH) return written;
  }
}

/** Confirms the consent of the people a draft's photo shows (the NGO says it has it). */
export async function confirmConsent(services: Pick<Services, "db">, actor: Actor, updateId: string, photoId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  if (!isUuid(photoId)) throw notFound();
  await services.db.transaction(async (tx) => {
    await updateFor(tx, actor, updateId, "confirmConsent");
    const done = await tx
      .update(campaignUpdatePhotos)
      .set({ consentBy: ngoId, consentAt: sql`now()` })
      .where(
        and(eq(campaignUpdatePhotos.id, photoId), eq(campaignUpdatePhotos.updateId, updateId), eq(campaignUpdatePhotos.showsPeople, true)),
      )
      .returning({ id: campaignUpdatePhotos.id });
    if (done.length === 0) throw notFound();
    await recordAudit(tx, { actorId: ngoId, action: "updates.consentConfirmed", details: { updateId, photoId } });
  });
}

/** Throws a draft away with its photos. */
export async function discardDraft(services: Pick<Services, "db" | "storage">, actor: Actor, updateId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  const keys = await services.db.transaction(async (tx) => {
    const { row } = await updateFor(tx, actor, updateId, "discard");
    const photos = await tx
      .select({ key: campaignUpdatePhotos.key })
      .from(campaignUpdatePhotos)
      .where(eq(campaignUpdatePhotos.updateId, row.id));
    await tx.delete(campaignUpdates).where(and(eq(campaignUpdates.id, row.id), eq(campaignUpdates.status, "draft")));
    await recordAudit(tx, { actorId: ngoId, action: "updates.discarded", details: { campaignId: row.campaignId, updateId } });
    return photos.map((p) => p.key);
  });
  // After the commit: a failure here leaves files that nothing references, which the sweep removes.
  for (const key of keys) await deleteFile(services, key);
}

/** Takes a published update off the public page; it is kept (its donors were told), and not published again. */
export async function removeUpdate(services: Pick<Services, "db">, actor: Actor, updateId: string): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  await services.db.transaction(async (tx) => {
    const { row } = await updateFor(tx, actor, updateId, "remove");
    await tx
      .update(campaignUpdates)
      .set({ status: "removed", removedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(campaignUpdates.id, row.id), inArray(campaignUpdates.status, updateStates.fromStates("remove"))));
    await recordAudit(tx, { actorId: ngoId, action: "updates.removed", details: { campaignId: row.campaignId, updateId } });
  });
}

export interface UpdatePhoto {
  id: string;
  key: string;
  showsPeople: boolean;
  consented: boolean;
}

export interface ManagedUpdate {
  id: string;
  body: string;
  status: UpdateStatus;
  createdAt: Date;
  publishedAt: Date | null;
  photos: UpdatePhoto[];
  actions: UpdateAction[];
}

/** The most updates the NGO's screen lists, newest first. */
export const MANAGED_UPDATES_SHOWN = 50;

/** A campaign's updates for an NGO that runs it: drafts, published and removed ones, newest first. */
export async function updatesForNgo(
  db: DbOrTx,
  actor: Actor,
  campaignId: string,
): Promise<{ campaign: Pick<Campaign, "id" | "title" | "slug" | "status">; updates: ManagedUpdate[] }> {
  const { campaign } = await campaignForNgo(db, campaignId, actor);
  if (campaign.status === "archived") throw notFound();
  const role = roleIn(campaign, actor);
  const rows = await db
    .select()
    .from(campaignUpdates)
    .where(and(eq(campaignUpdates.campaignId, campaign.id), updateScope(actor, "manage")))
    .orderBy(desc(campaignUpdates.createdAt), desc(campaignUpdates.id))
    .limit(MANAGED_UPDATES_SHOWN);
  const photos = await photosOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    campaign: { id: campaign.id, title: campaign.title, slug: campaign.slug, status: campaign.status },
    updates: rows.map((r) => ({
      id: r.id,
      body: r.body,
      status: r.status,
      createdAt: r.createdAt,
      publishedAt: r.publishedAt,
      photos: photos.get(r.id) ?? [],
      actions: updateStates.actionsFor(r.status, role),
    })),
  };
}

/** The photos of these updates, in their order. */
export async function photosOf(db: DbOrTx, updateIds: string[]): Promise<Map<string, UpdatePhoto[]>> {
  const found = new Map<string, UpdatePhoto[]>();
  if (updateIds.length === 0) return found;
  const rows = await db
    .select()
    .from(campaignUpdatePhotos)
    .where(inArray(campaignUpdatePhotos.updateId, updateIds))
    .orderBy(asc(campaignUpdatePhotos.updateId), asc(campaignUpdatePhotos.position));
  for (const r of rows) {
    const list = found.get(r.updateId) ?? [];
    list.push({ id: r.id, key: r.key, showsPeople: r.showsPeople, consented: r.consentAt !== null });
    found.set(r.updateId, list);
  }
  return found;
}
