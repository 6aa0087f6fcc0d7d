import { and, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isDatabaseError } from "#server/db/errors.ts";
import { unreadOf } from "./unread.ts";
import { notifications, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";

/** An absolute link to a page of the app, for an email. */
export function appLink(config: Services["config"], path: string): string {
  return new URL(path, config.APP_URL).toString();
}

/**
 * An email as translation keys, written out only once its recipient is known: mail goes out in the language
 * the account last used (`users.language`), not in that of whoever triggered it. English fills any gap.
 */
export interface MailText {
  /** Translation keys, e.g. "mail:accepted.subject"; both are interpolated with the parameters. */
  subject: string;
  body: string;
  /** Values interpolated as they are (names, titles, links, amounts). */
  params?: Record<string, string>;
  /** Values that are themselves translation keys, put in the recipient's language (e.g. a role's name). */
  keyParams?: Record<string, string>;
}

/**
 * Mails a text to an account's address in the account's language (over SMTP or into the outbox, as the
 * mailer is configured). Address and language come from one query; a missing account is sent nothing.
 * `sensitive` marks a body that holds a private link (see `Mail`).
 */
export async function mailUser(
  services: Pick<Services, "db" | "mailer">,
  userId: string,
  mail: MailText,
  opts: { sensitive?: boolean } = {},
): Promise<void> {
  const [user] = await services.db
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) return;
  const { t } = serverI18n(user.language);
  const params: Record<string, string> = { ...mail.params };
  for (const [name, key] of Object.entries(mail.keyParams ?? {})) params[name] = t(key);
  await services.mailer.send(services.db, {
    to: user.email,
    subject: t(mail.subject, params),
    body: t(mail.body, params),
    sensitive: opts.sensitive ?? false,
  });
}

export interface NewNotification {
  userId: string;
  /** A translation key under the `notifications` namespace, e.g. "accountAccepted". */
  type: string;
  /** Values interpolated into the translated text. */
  params?: Record<string, string>;
  /** A local path the notification leads to. */
  link?: string | null;
  /** Sent to the user's address as well, in the user's language (see `mailUser`). */
  email?: MailText;
}

/**
 * Tells a user about an event: a row for the in-app list (translated when it is shown) and, when `email` is
 * given, a message to the account's address in the account's language.
 *
 * Pass the change's transaction as `services.db` (decision 042): the row, the outbox row and the mail's job are
 * written in a savepoint of it, so they commit or roll back with the change. A failure that is the database's
 * (a refused or lost statement) is thrown and rolls the change back with its notice: the two stand or fall
 * together, and the person can try again. Any other failure (a text that cannot be made, a mailer's own error)
 * rolls back only the savepoint and is logged: the change stands without its notice, since a notice must never
 * undo a decision that is otherwise valid (an approval, a receipt number, a pick-up step).
 */
export async function notify(services: Pick<Services, "db" | "mailer" | "log">, n: NewNotification): Promise<void> {
  try {
    await services.db.transaction(async (tx) => {
      await tx.insert(notifications).values({ userId: n.userId, type: n.type, params: n.params ?? {}, link: n.link ?? null });
      if (n.email) await mailUser({ db: tx, mailer: services.mailer }, n.userId, n.email);
    });
  } catch (err) {
    if (isDatabaseError(err)) throw err;
    services.log.error({ err, userId: n.userId, type: n.type }, "a notice could not be made; the change stands without it");
  }
}

/**
 * `notify` for many accounts at once, in-app only: one `INSERT ... SELECT` of a row for each id `userIds` (a query of
 * one column) gives, whatever their number, so a change that tells thousands (an update to a campaign's donors,
 * decision 050) writes them in one statement of its transaction. Same rule as `notify`: the database's failure rolls
 * the change back; any other is logged and the change stands. Mail to many goes through a job (updates.ts). Returns
 * how many were told.
 */
export async function notifyAll(
  services: Pick<Services, "db" | "log">,
  n: {
    userIds: SQL;
    type: string;
    params?: Record<string, string>;
    link?: string | null;
    /**
     * A notice of which a partial unique index allows one unread at a time per account (and subject, e.g.
     * `notifications_words_waiting_unread_unique`): an account that has one unread is not told again. The index
     * decides, not a read before the write, so concurrent changes tell each account once.
     */
    unreadOnce?: boolean;
  },
): Promise<number> {
  try {
    return await services.db.transaction(async (tx) => {
      const once = n.unreadOnce ? sql`on conflict do nothing` : sql``;
      const result = (await tx.execute(sql`with told as (insert into ${notifications} (user_id, type, params, link)
        select told.id, ${n.type}, ${JSON.stringify(n.params ?? {})}::jsonb, ${n.link ?? null} from (${n.userIds}) as told(id)
        ${once} returning 1) select count(*)::int as n from told`)) as unknown as { rows: { n: number }[] };
      return Number(result.rows[0]?.n ?? 0);
    });
  } catch (err) {
    if (isDatabaseError(err)) throw err;
    services.log.error({ err, type: n.type }, "a notice could not be made; the change stands without it");
    return 0;
  }
}

/**
 * Prepares and sends a change's notices inside the change's transaction (`run` reads and calls `notify` on the
 * transaction's handle), by the rule of `notify`: the database's failure is thrown and rolls the change back with
 * them; any other failure is logged with `context`, and the change stands.
 */
export async function tellWithin(
  services: Pick<Services, "log">,
  context: Record<string, unknown>,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (isDatabaseError(err)) throw err;
    services.log.error({ err, ...context }, "a notice could not be made; the change stands without it");
  }
}

export type NotificationRow = typeof notifications.$inferSelect;

/** One page of a user's notifications, newest first. Only ever that user's own. */
export async function listNotifications(db: DbOrTx, userId: string, page: number): Promise<Paged<NotificationRow>> {
  const [total] = await db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId));
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}

export async function countUnread(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(unreadOf(userId));
  return row?.n ?? 0;
}

/** Marks every unread notification of the user as read; returns how many changed. */
export async function markAllRead(db: DbOrTx, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
