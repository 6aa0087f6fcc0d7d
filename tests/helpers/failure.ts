import { DomainError } from "#server/domain/errors.ts";

export type Failure = { kind: string; message: string; field?: string; params?: Record<string, string> };

/**
 * How a domain call failed, as plain data to compare: "no error" when it succeeded; any error that is not a
 * domain error is thrown on (a bug, not a refusal).
 */
export async function failure(p: Promise<unknown>): Promise<Failure | "no error"> {
  try {
    await p;
    return "no error";
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return {
      kind: err.kind,
      message: err.message,
      ...(err.field ? { field: err.field } : {}),
      ...(err.params ? { params: err.params } : {}),
    };
  }
}

/** Only the kind of the failure ("not_found", "forbidden", ...), or "no error". */
export async function failureKind(p: Promise<unknown>): Promise<string> {
  const f = await failure(p);
  return f === "no error" ? f : f.kind;
}

/** What a stranger is told about someone else's row. */
export const NOT_FOUND = { kind: "not_found", message: "errors:notFound" };
