import { count, desc } from "drizzle-orm";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { forbidden } from "#server/domain/errors.ts";
import { paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";

export type OutboxMail = typeof mailOutbox.$inferSelect;

/**
 * One page of the mail outbox, newest first. Only the administrator reads it: it holds other people's
 * mail (a message with a secret link keeps no body once delivered over SMTP; see the mailer).
 */
export async function listOutbox(db: DbOrTx, actor: Pick<SessionUser, "role">, page: number): Promise<Paged<OutboxMail>> {
  if (actor.role !== "admin") throw forbidden();
  const [total] = await db.select({ n: count() }).from(mailOutbox);
  const rows = await db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}
