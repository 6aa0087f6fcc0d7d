import { formatPaths, parse, type Submission } from "@conform-to/dom";
import * as z from "zod/mini";

/**
 * Parses a form submission with a schema, in the browser and on the server alike. Empty text fields and
 * empty file inputs count as "not given" (as a browser without JavaScript sends them). Built on zod/mini
 * and Conform's own parser to keep form pages within the JavaScript budget (decision 005).
 */
export function parseWithZod<S extends z.ZodMiniType>(
  payload: FormData | URLSearchParams,
  { schema }: { schema: S },
): Submission<z.input<S>, string[], z.output<S>> {
  return parse<z.output<S>, string[]>(payload, {
    resolve(value) {
      const result = z.safeParse(schema, emptyToUndefined(value));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = formatPaths(issue.path.filter((p): p is string | number => typeof p !== "symbol"));
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  }) as Submission<z.input<S>, string[], z.output<S>>;
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
