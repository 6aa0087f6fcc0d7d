import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { serverI18n } from "../../../app/i18n/i18n.server";
import { PAGE_SIZE } from "../../../app/lib/constants";
import type { DbOrTx } from "../../db/client";
import { notifications, users } from "../../db/schema";
import type { Services } from "../../services";
import { paged, pageOffset, type Paged } from "../admin/paging";

/**
 * The translator for email: mail goes out in English, because accounts record no language preference (and
 * the language of whoever triggers a notice says nothing about the recipient's).
 */
export const mailT = serverI18n("en").t;

/** An absolute link to a page of the app, for an email. */
export function appLink(config: Services["config"], path: string): string {
  return new URL(path, config.APP_URL).toString();
}

export interface NewNotification {
  userId: string;
  /** A translation key under the `notifications` namespace, e.g. "accountAccepted". */
  type: string;
  /** Values interpolated into the translated text. */
  params?: Record<string, string>;
  /** A local path the notification leads to. */
  link?: string | null;
  /** Sent to the user's address as well, already translated. */
  email?: { subject: string; body: string };
}

/**
 * Tells a user about an event: a row for the in-app list and, when `email` is given, a message to the
 * account's address (over SMTP or into the outbox, as the mailer is configured).
 */
export async function notify(services: Pick<Services, "db" | "mailer">, n: NewNotification): Promise<void> {
  await services.db.insert(notifications).values({ userId: n.userId, type: n.type, params: n.params ?? {}, link: n.link ?? null });
  if (!n.email) return;
  const [user] = await services.db.select({ email: users.email }).from(users).where(eq(users.id, n.userId)).limit(1);
  if (user) await services.mailer.send({ to: user.email, subject: n.email.subject, body: n.email.body });
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
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
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
