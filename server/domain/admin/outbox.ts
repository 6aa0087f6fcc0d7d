import { count, desc, getTableColumns, ilike } from "drizzle-orm";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { forbidden } from "#server/domain/errors.ts";
import { likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";

// A private link's body, kept until it is sent, is for the mail server only: never read here.
const { secretBody: _secret, ...shown } = getTableColumns(mailOutbox);

export type OutboxMail = Omit<typeof mailOutbox.$inferSelect, "secretBody">;

/**
 * One page of the mail outbox, newest first, optionally of the recipients whose address holds `q` (case-insensitively,
 * LIKE's wildcards taken literally). Only the administrator reads it: it holds other people's mail (a message with a
 * secret link shows no body: its body waits for the mail server in secret_body, never read here; see the mailer).
 */
export async function listOutbox(
  db: DbOrTx,
  actor: Pick<SessionUser, "role">,
  page: number,
  opts: { q?: string } = {},
): Promise<Paged<OutboxMail>> {
  if (actor.role !== "admin") throw forbidden();
  const q = searchTerm(opts.q);
  const where = q ? ilike(mailOutbox.toAddress, likePattern(q)) : undefined;
  const [total] = await db.select({ n: count() }).from(mailOutbox).where(where);
  const rows = await db
    .select(shown)
    .from(mailOutbox)
    .where(where)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}
