import type { Db } from "./client.ts";

/**
 * How long a shared read is kept (decision 054): what one visitor's request read, the next ones within this many
 * seconds are given, from this server's memory.
 */
export const SHARED_READ_SECONDS = 5;

/**
 * The reads kept, by name. Each is public (the same for every visitor: no account's data, no search's words) and its
 * name comes from a fixed set, so the map never holds more than that set.
 */
export type SharedReadName = `picker:${"cash" | "goods"}:${"en" | "ur"}` | `browse:${"en" | "ur"}` | "partners";

interface Entry {
  /** When the read was started (`performance.now()`): it shows what was there then, or later. */
  at: number;
  value: Promise<unknown>;
}

/**
 * One registry for the process, though this module may be loaded twice: in development (and the tests of the whole
 * app) the pages come through Vite's module graph and the HTTP layer that forgets through Node's.
 */
const REGISTRY = Symbol.for("ek-chhat.shared-reads");
const keptFor: WeakMap<Db, Map<SharedReadName, Entry>> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new WeakMap()) as WeakMap<
  Db,
  Map<SharedReadName, Entry>
>;

/**
 * What every visitor is shown alike and most of them ask for (the donors' first page of campaigns, the landing page's),
 * read once for all the requests of a few seconds instead of once each: on `/donate1` the read and the cards' words
 * were a quarter of the server's time a request (decision 054).
 *
 * `load` runs when nothing is kept under `name` or what is kept is older than SHARED_READ_SECONDS; requests that come
 * while it runs wait for the same read. A read that fails is not kept. Every change made through this server forgets
 * them all at once (`forgetSharedReads`, once each state-changing request is answered), so whoever made a change sees
 * it on their next page; a change another server made, a job's (the upkeep round's Urdu place labels) or a script's
 * straight in the database shows here within SHARED_READ_SECONDS. What `load` gives is handed to many requests, so it
 * is frozen, all the way down: a request that tried to change it would fail rather than change another's page.
 */
export function sharedRead<T>(db: Db, name: SharedReadName, load: () => Promise<T>, now = performance.now()): Promise<T> {
  let kept = keptFor.get(db);
  if (!kept) keptFor.set(db, (kept = new Map()));
  const hit = kept.get(name);
  if (hit && now - hit.at < SHARED_READ_SECONDS * 1000 && now >= hit.at) return hit.value as Promise<T>;
  const entry: Entry = { at: now, value: load().then(deepFreeze) };
  const map = kept;
  entry.value.catch(() => {
    if (map.get(name) === entry) map.delete(name);
  });
  map.set(name, entry);
  return entry.value as Promise<T>;
}

/** Freezes `value` and all it holds; bytes (a Buffer, a typed array) cannot be frozen and are left as they are. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Forgets every shared read of `db`: the next request reads afresh. Called once a change has been committed; a read
 * started before it and still running is not kept past this either, as it was replaced (or removed) here.
 */
export function forgetSharedReads(db: Db): void {
  keptFor.get(db)?.clear();
}
