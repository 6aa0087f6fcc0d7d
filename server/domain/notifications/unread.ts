import { and, eq, isNull, type SQL, type SQLWrapper } from "drizzle-orm";
import { notifications } from "#server/db/schema.ts";

/**
 * Which notifications are a user's unread ones (the sidebar's badge): for `countUnread`, and for the session's lookup,
 * which counts them in its own query as a column (`userId` is then the users table's id column). A module of its own,
 * without the strings, because the session's module is loaded by tools that cannot load them.
 */
export function unreadOf(userId: string | SQLWrapper): SQL {
  return and(eq(notifications.userId, userId), isNull(notifications.readAt))!;
}
