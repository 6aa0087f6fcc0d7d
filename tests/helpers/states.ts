import { DomainError } from "#server/domain/errors.ts";
import type { StateMachine } from "#server/domain/state-machine.ts";

/** What taking an action did: moved to a state, left the state as it was without an error, or was refused. */
type Outcome = `→ ${string}` | "stays" | "refused" | `refused, yet → ${string}` | `no entry point`;

interface Walk<A extends string, S extends string, R extends string> {
  /** Makes a fresh subject in `state` and returns its id. */
  setUp(state: S): Promise<string>;
  /** Takes `action` on the subject as an account in `role`, through the real domain function; undefined when no function takes it for this role. */
  perform(action: A, role: R, id: string): Promise<unknown> | undefined;
  stateOf(id: string): Promise<S>;
}

export interface WalkResult {
  expected: string[];
  actual: string[];
}

/**
 * Takes every action of the table from every state as every role, each on a fresh subject, and reports what the
 * table says against what the domain did, one line per combination, so a failure shows exactly which ones differ.
 */
export async function walkTable<A extends string, S extends string, R extends string>(
  machine: StateMachine<A, S, R>,
  walk: Walk<A, S, R>,
): Promise<WalkResult> {
  const expected: string[] = [];
  const actual: string[] = [];
  for (const action of machine.actions) {
    for (const state of machine.states) {
      for (const role of machine.roles) {
        const name = `${action} from ${state} by ${role}: `;
        const row = machine.transition(action, state);
        const allowed = machine.canTransition(action, state, role);
        // A repeat row (the same step again) and a step to the same state both leave the state as it was, without an error.
        const want: Outcome = allowed ? (row!.to === null || row!.to === state ? "stays" : `→ ${row!.to}`) : "refused";
        expected.push(name + want);
        const id = await walk.setUp(state);
        let threw = false;
        const call = walk.perform(action, role, id);
        if (call === undefined) {
          // Nothing in the domain lets this role try: refused by construction, which the table must agree with.
          actual.push(name + (allowed ? "no entry point" : "refused"));
          continue;
        }
        try {
          await call;
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          threw = true;
        }
        const after = await walk.stateOf(id);
        const got: Outcome = after !== state ? (threw ? `refused, yet → ${after}` : `→ ${after}`) : threw ? "refused" : "stays";
        actual.push(name + got);
      }
    }
  }
  return { expected, actual };
}
