import { formatPaths, parse, type Submission } from "@conform-to/dom";
import * as z from "zod/mini";
import { hasControlCharacters } from "#shared/text.ts";

/** The message for a field that holds characters no person types (see hasControlCharacters). */
export const CONTROL_CHARACTERS_MESSAGE = "validation:controlCharacters";

/**
 * Parses a form submission with a schema, in the browser and on the server alike. Empty text fields and
 * empty file inputs count as "not given" (as a browser without JavaScript sends them). A field that holds a
 * control character (a NUL, say) is refused here, for every form at once, with a message under that field,
 * before any schema or database sees it. Built on zod/mini
 * and Conform's own parser to keep form pages within the JavaScript budget (decision 005).
 */
export function parseWithZod<S extends z.ZodMiniType>(
  payload: FormData | URLSearchParams,
  { schema }: { schema: S },
): Submission<z.input<S>, string[], z.output<S>> {
  const refused = fieldsWithControlCharacters(payload);
  return parse<z.output<S>, string[]>(payload, {
    resolve(value) {
      const result = z.safeParse(schema, emptyToUndefined(value));
      if (result.success && refused.length === 0) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const name of refused) error[name] = [CONTROL_CHARACTERS_MESSAGE];
      for (const issue of result.success ? [] : result.error.issues) {
        const name = formatPaths(issue.path.filter((p): p is string | number => typeof p !== "symbol"));
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  }) as Submission<z.input<S>, string[], z.output<S>>;
}

function fieldsWithControlCharacters(payload: FormData | URLSearchParams): string[] {
  const names = new Set<string>();
  for (const [name, value] of payload.entries()) {
    if (hasControlCharacters(name) || (typeof value === "string" && hasControlCharacters(value))) names.add(name);
  }
  return [...names];
}

function emptyToUndefined(value: unknown): unknown {
  if (value === "") return undefined;
  if (typeof File !== "undefined" && value instanceof File) return value.size === 0 && value.name === "" ? undefined : value;
  if (Array.isArray(value)) return value.map(emptyToUndefined);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptyToUndefined(v)]));
  }
  return value;
}

const messageNamespacesCache = new WeakMap<object, string[]>();

/**
 * The namespaces of the messages a schema can show ("donations:errors.fillAll" → donations), found by walking
 * its definition: a string message is kept there as a function that returns it. A page with the form carries
 * these strings, so a message the browser's check shows on leaving a field is there without a fetch.
 */
export function messageNamespaces(schema: z.ZodMiniType): string[] {
  let found = messageNamespacesCache.get(schema);
  if (found) return found;
  const namespaces = new Set<string>([CONTROL_CHARACTERS_MESSAGE.split(":")[0]!]);
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    const def = (node as { _zod?: { def?: { error?: unknown } } })._zod?.def;
    if (typeof def?.error === "function") {
      let message: unknown;
      try {
        message = (def.error as (issue: object) => unknown)({});
      } catch {
        // A message that depends on the issue names its namespace elsewhere in the schema or not at all.
      }
      const match = typeof message === "string" ? /^(\w+):/.exec(message) : null;
      if (match) namespaces.add(match[1]!);
    }
    for (const value of Object.values(node)) visit(value);
    if (def) visit(def);
  };
  visit(schema);
  found = [...namespaces];
  messageNamespacesCache.set(schema, found);
  return found;
}
