import { or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { SessionUser } from "./accounts/sessions.ts";
import type { StateMachine } from "./state-machine.ts";
import { notFound } from "./errors.ts";

/** Who is asking: the account and its type, as the session knows them. */
export type Actor = Pick<SessionUser, "id" | "role">;

/** A relation that grants something: the account type it needs and the condition on the row that makes it. */
export interface Relation {
  account: SessionUser["role"];
  where: (actor: Actor) => SQL;
  /**
   * The same rows as `where`, as a query of their ids that an index answers. When an actor holds several relations
   * that all give one, the scope is `id in (ids union all ids)`: PostgreSQL plans `a or exists (…)` as a scan of the
   * whole table, and the union as one index lookup each (decision 044).
   */
  ids?: (actor: Actor, within?: IdsWithin) => SQL;
}

/**
 * What a reader will keep of the rows anyway, told to the relations' `ids` so a relation whose ids are rows of the
 * area's own table can read only those (by an index of its condition and order, up to the page's end) where it would
 * read all of them. A relation may ignore it: the reader applies the same condition to the rows it reads.
 */
export interface IdsWithin {
  /**
   * A condition on the area's table under `alias`. A relation may apply it to a kept copy of some of the table's
   * columns under the same names (the campaigns' partner relation: `partnered_campaigns`), so it names only those.
   * `by` is the column under `alias` that the relation matched the actor on (a campaign's `owner_id`, a partnership's
   * `ngo_id`): for an index keyed by the actor and something else (an NGO's titles' trigrams, decision 044).
   */
  where: (alias: string, by: SQL) => SQL;
  /** Only the first `limit` rows in this order (of the area's table under `alias`): enough for a page's end. */
  first?: { orderBy: (alias: string) => SQL; limit: number };
}

/**
 * An area's permissions from three pieces of data (decision 016): its relations (how an account stands to a row),
 * its readings (which relations may read which way) and its transition table (which relations may take which
 * step). Both become a condition for a query's `where`, so a row the actor may not see is "not found", never
 * "forbidden", and nothing is checked before it is done. A relation the spec does not list (another NGO, another
 * rider) grants nothing; nobody signed in sees nothing.
 */
export function policy<R extends string, Read extends string, A extends string, S extends string>(spec: {
  relations: Partial<Record<R, Relation>>;
  reads: Record<Read, readonly R[]>;
  machine: StateMachine<A, S, R>;
  /** The rows' id, which the relations' `ids` give. */
  id?: AnyColumn;
}) {
  const scopeOf = (actor: Actor | null, granted: readonly R[], within?: IdsWithin): SQL => {
    const held = granted.flatMap((relation) => {
      const r = spec.relations[relation];
      return actor && r && r.account === actor.role ? [r] : [];
    });
    if (held.length === 0) return sql`false`;
    if (held.length === 1) return held[0]!.where(actor!);
    if (spec.id && held.every((r) => r.ids)) {
      return sql`${spec.id} in (${sql.join(
        held.map((r) => r.ids!(actor!, within)),
        sql` union all `,
      )})`;
    }
    return or(...held.map((r) => r.where(actor!)))!;
  };
  /** The roles the transition table lets take `action` from some state (states.ts is the one place this is written). */
  const rolesFor = (action: A): R[] => [...new Set(spec.machine.table.filter((t) => t.action === action).flatMap((t) => t.by))];
  return {
    /** The rows `actor` may read this way; `within`, what the reader keeps of them anyway (see `IdsWithin`). */
    scope: (actor: Actor | null, read: Read, within?: IdsWithin): SQL => scopeOf(actor, spec.reads[read], within),
    rolesFor,
    /** The rows `actor` may take `action` on: the table's roles turned into a scope. */
    decisionScope: (actor: Actor, action: A): SQL => scopeOf(actor, rolesFor(action)),
  };
}

/**
 * The actor's id, for a function that acts on its own rows without a relation table (an NGO's partnerships, its
 * new campaign): an account of another type acting as this one finds nothing, as a scope would answer.
 */
export function idAs(actor: Actor, account: SessionUser["role"]): string {
  if (actor.role !== account) throw notFound();
  return actor.id;
}
