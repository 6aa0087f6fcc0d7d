import { count, desc } from "drizzle-orm";
import { PAGE_SIZE } from "../../../app/lib/constants";
import type { DbOrTx } from "../../db/client";
import { mailOutbox } from "../../db/schema";
import type { SessionUser } from "../accounts/sessions";
import { forbidden } from "../errors";
import { paged, pageOffset, type Paged } from "./paging";

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
