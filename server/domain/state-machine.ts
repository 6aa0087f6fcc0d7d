import { forbidden, type DomainError } from "./errors.ts";

/**
 * One row of a transition table: `action` may be taken from any state in `from` by any role in `by`, and leads
 * to `to` (null: the state stays). An action may have several rows when where it leads depends on where it
 * starts. A `repeat` row is an action already done (an invitation sent again): the domain answers it as done
 * and changes nothing, and it is never offered.
 */
export interface Transition<A extends string, S extends string, R extends string> {
  readonly action: A;
  readonly from: readonly S[];
  readonly to: S | null;
  readonly by: readonly R[];
  readonly repeat?: true;
}

export interface StateMachine<A extends string, S extends string, R extends string> {
  readonly states: readonly S[];
  readonly roles: readonly R[];
  readonly actions: readonly A[];
  readonly table: readonly Transition<A, S, R>[];
  /** The row that applies to `action` from `state`, whoever asks; undefined when the action cannot be taken from there. */
  transition(action: A, state: S): Transition<A, S, R> | undefined;
  canTransition(action: A, state: S, role: R): boolean;
  /**
   * Throws unless `role` may take `action` from `state`: `refuse(state)` when the state does not allow it (each
   * area keeps its own message), forbidden when the state does but the role may not. Returns the row.
   */
  assertTransition(action: A, state: S, role: R, refuse: (state: S) => DomainError): Transition<A, S, R>;
  /** The state `action` leads to from `state` (the state itself when it stays). */
  target(action: A, state: S): S;
  /** Every state the action changes something from (repeats left out): the `WHERE status IN (...)` of its guarded update. */
  fromStates(action: A): S[];
  /** What `role` may do to something in `state`, in the table's order: what a loader sends the screen. */
  actionsFor(state: S, role: R): A[];
  /** Every state from which `action` can still be taken, now or after some other steps (by anyone). */
  statesLeadingTo(action: A): S[];
}

/**
 * A state machine as data. The table is checked once when the module loads: an action has at most one row per
 * state, so the outcome of (action, state) is never ambiguous.
 */
export function stateMachine<const A extends string, const S extends string, const R extends string>(spec: {
  states: readonly S[];
  roles: readonly R[];
  /** The area's action vocabulary when the screens share it (shared/statuses.ts): every one must have a row. */
  actions?: readonly A[];
  table: readonly Transition<A, S, R>[];
}): StateMachine<A, S, R> {
  const { states, roles, table } = spec;
  const actions = [...new Set(table.map((t) => t.action))];
  const unused = spec.actions?.filter((a) => !actions.includes(a)) ?? [];
  if (unused.length) throw new Error(`transition table: no row for ${unused.join(", ")}`);
  for (const action of actions) {
    const seen = new Set<S>();
    for (const row of table.filter((t) => t.action === action)) {
      for (const s of row.from) {
        if (seen.has(s)) throw new Error(`transition table: "${action}" has two rows from "${s}"`);
        seen.add(s);
      }
    }
  }
  const transition = (action: A, state: S) => table.find((t) => t.action === action && t.from.includes(state));
  const canTransition = (action: A, state: S, role: R) => transition(action, state)?.by.includes(role) ?? false;
  return {
    states,
    roles,
    actions,
    table,
    transition,
    canTransition,
    assertTransition(action, state, role, refuse) {
      const row = transition(action, state);
      if (!row) throw refuse(state);
      if (!row.by.includes(role)) throw forbidden();
      return row;
    },
    target(action, state) {
      const row = transition(action, state);
      if (!row) throw new Error(`transition table: "${action}" is not taken from "${state}"`);
      return row.to ?? state;
    },
    fromStates: (action) => table.filter((t) => t.action === action && !t.repeat).flatMap((t) => t.from),
    statesLeadingTo(action) {
      const found = new Set(table.filter((t) => t.action === action && !t.repeat).flatMap((t) => t.from));
      for (let grew = true; grew;) {
        grew = false;
        for (const t of table) {
          if (t.to === null || !found.has(t.to)) continue;
          for (const s of t.from) {
            if (found.has(s)) continue;
            found.add(s);
            grew = true;
          }
        }
      }
      return states.filter((s) => found.has(s));
    },
    actionsFor: (state, role) => actions.filter((a) => canTransition(a, state, role) && !transition(a, state)!.repeat),
  };
}
