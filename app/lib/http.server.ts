import { createContext, data, redirect, type MiddlewareFunction } from "react-router";
import type { AppContext } from "./load-context.ts";
import type { SubmissionResult } from "@conform-to/react";
import type { Submission } from "@conform-to/dom";
import { DomainError } from "#server/domain/errors.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { ROLE_HOME, ROLE_SIGN_IN, withReturnTo, type Role } from "#shared/roles.ts";

/** Who a guarded area of the route table lets in: one role, or any signed-in account ("account"). */
export type GuardedArea = Role | "account";

const guardedUser = createContext<SessionUser>();

/**
 * The one route guard (decision 021): the middleware of each area's layout in app/routes.ts, so every page and
 * resource route under it, and their `.data`, is guarded before any loader or action runs. A signed-out visitor
 * goes to the area's sign-in (and comes back after it), an account of another role to its own home with a notice,
 * an account not yet approved to /resubmit. React Router sends a redirect thrown here in its own form to a
 * client-side navigation.
 */
export function areaGuard(area: GuardedArea): MiddlewareFunction<Response> {
  return ({ request, context }) => {
    const { user } = context;
    if (!user) {
      const url = new URL(request.url);
      // Any account may open the "account" area, so the visitor first chooses a role on the home page.
      throw redirect(withReturnTo(area === "account" ? "/" : ROLE_SIGN_IN[area], url.pathname + url.search), 303);
    }
    if (area !== "account" && user.role !== area) throw redirect(`${ROLE_HOME[user.role]}?notice=wrongRole`, 303);
    if (user.verification !== "verified") throw redirect("/resubmit", 303);
    context.set(guardedUser, user);
  };
}

/**
 * The account the area's guard let in, for a loader or action under a `role` layout. It decides nothing: a route
 * placed outside its role's layout has no guarded user, and this throws (a 500 in every test) instead of serving it.
 */
export function requireUser(context: AppContext, role: Role): SessionUser {
  const user = context.get(guardedUser);
  if (user.role !== role) throw new Error(`a ${role} page is outside the ${role} area of app/routes.ts`);
  return user;
}

/** The account the "account" area's guard let in (any role). */
export function requireAnyUser(context: AppContext): SessionUser {
  return context.get(guardedUser);
}

/** A domain refusal as plain data, for a route that answers it its own way (decision 017). */
export type Refusal = Pick<DomainError, "kind" | "code" | "message" | "field" | "params" | "status">;

function refusalOf(err: DomainError): Refusal {
  return { kind: err.kind, code: err.code, message: err.message, field: err.field, params: err.params, status: err.status };
}

/**
 * Runs a domain call: its value, or the domain's refusal as `{ ok: false, refusal }`. Anything that is not a
 * domain error (a bug, the database gone) is thrown on, so it is never mistaken for a refusal.
 */
export async function attempt<T>(run: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; refusal: Refusal }> {
  try {
    return { ok: true, value: await run };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { ok: false, refusal: refusalOf(err) };
  }
}

/** A domain read whose "not found" the page shows as nothing (a stale or foreign link): null instead; other refusals are HTTP errors. */
export async function findOrNull<T>(run: Promise<T>): Promise<T | null> {
  const outcome = await attempt(run);
  if (outcome.ok) return outcome.value;
  if (outcome.refusal.kind === "not_found") return null;
  throw httpError(outcome.refusal);
}

/** The response a refusal is answered with outside a form (404, 403, ...), to throw from a loader or action. */
export function httpError(refusal: Refusal) {
  return data({ message: refusal.message }, { status: refusal.status });
}

/** What a refused form action answers: Conform's reply, the refusal's params, and what the page needs beside them. */
type FormAnswer<E> = { result: SubmissionResult<string[]>; errorParams?: Record<string, string> } & E;

/**
 * Runs a domain call for a form action. A domain error becomes a Conform reply (a field error when the
 * error names a field, otherwise a form error) with the matching HTTP status, plus the error's params (e.g. the
 * campaign a duplicate title belongs to); anything else is rethrown. A route answers a refusal with
 * `outcome.answer()`, adding what its page needs to place the message (`answer({ positionId })`), and never takes
 * the reply apart.
 */
export async function formAction<T>(
  submission: Submission<unknown>,
  run: () => Promise<T>,
  hideFields: string[] = [],
): Promise<
  | { ok: true; value: T }
  | {
      ok: false;
      refusal: Refusal;
      answer: <E extends object = object>(extra?: E) => ReturnType<typeof data<FormAnswer<E>>>;
    }
> {
  const outcome = await attempt(run());
  if (outcome.ok) return outcome;
  const { field, message, params, status } = outcome.refusal;
  const result = field
    ? submission.reply({ fieldErrors: { [field]: [message] }, hideFields })
    : submission.reply({ formErrors: [message], hideFields });
  return {
    ok: false,
    refusal: outcome.refusal,
    answer: <E extends object = object>(extra?: E) => data({ result, errorParams: params, ...extra } as FormAnswer<E>, { status }),
  };
}

/**
 * The submitted form of an action. A body that cannot be read as a form (cut off in transit, or not a form at
 * all) is the sender's problem, not ours: it is answered 400 with a message that says to send it again, and
 * nothing is changed.
 */
export async function readFormData(request: Request, context: AppContext): Promise<FormData> {
  try {
    return await request.formData();
  } catch (err) {
    context.services.log.warn({ err, path: new URL(request.url).pathname }, "an unreadable form was sent");
    throw data({ message: "errors:formIncomplete" }, { status: 400 });
  }
}

/** Maps a domain error thrown outside a form to an HTTP response (404, 403, ...). */
export function throwHttp(err: unknown): never {
  if (err instanceof DomainError) throw httpError(refusalOf(err));
  throw err;
}

/** A PDF the server made, as a download: never cached, never sniffed as anything else. */
export function pdfDownload(pdf: Buffer, fileName: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
