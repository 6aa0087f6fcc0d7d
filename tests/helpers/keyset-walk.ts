import { expect } from "vitest";
import type { KeysetPage, PreviousPage } from "#shared/paging.ts";

/** A page of a list read by keyset with its "Previous" (decision 044). */
type Page = KeysetPage<{ id: string }> & { prev: PreviousPage };

/**
 * Walks a list read by keyset back from its last page by "Previous", given the pages a walk by "Next" read (first page
 * first), and checks each page's links on the way: the first page has no Previous, the second's is the first page's
 * own address, each later one's is `before` its first row; every page reached by Previous holds exactly the rows, the
 * Next and the Previous of the page that linked to it; and `before` the second page's first row reads the first page.
 * `read` reads a page: `{}` the first, `{ before }` the page before a row.
 */
export async function walkBack<P extends Page>(
  forward: P[],
  read: (cursor: { before?: string }) => Promise<P>,
  name: string,
  /** Other fields a page reached by Previous must share with the one it stands for (the picker's `after`). */
  same: (keyof P)[] = [],
): Promise<void> {
  const ids = (page: Page) => page.rows.map((r) => r.id);
  const links = (page: P) => Object.fromEntries(["next", "prev", ...same].map((k) => [k, page[k as keyof P]]));
  forward.forEach((page, i) =>
    expect(page.prev, `${name}: page ${i + 1}'s Previous`).toEqual(i === 0 ? null : i === 1 ? "first" : { before: page.rows[0]!.id }),
  );
  for (let i = forward.length - 1; i > 0; i--) {
    const prev = forward[i]!.prev;
    const back = await read(prev === "first" || prev === null ? {} : { before: prev.before });
    const want = forward[i - 1]!;
    expect(ids(back), `${name}: Previous from page ${i + 1}`).toEqual(ids(want));
    expect(links(back), `${name}: the links of page ${i} reached by Previous`).toEqual(links(want));
  }
  if (forward.length > 1) {
    const first = await read({ before: forward[1]!.rows[0]!.id });
    expect(ids(first), `${name}: before the second page's first row`).toEqual(ids(forward[0]!));
    expect(links(first), `${name}: the first page reached by before`).toEqual(links(forward[0]!));
  }
}
