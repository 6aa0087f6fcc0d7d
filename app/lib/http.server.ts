import { data, redirect, type AppLoadContext } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { Submission } from "@conform-to/dom";
import { DomainError } from "#server/domain/errors.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { ROLE_HOME, ROLE_SIGN_IN, type Role } from "#shared/roles.ts";

/**
 * The signed-in user of the given role, or a redirect: to that role's sign-in when signed out, to the
 * user's own home when the role differs. Loaders and actions call it even though the HTTP guard also runs.
 */
export function requireUser(context: AppLoadContext, role: Role, request?: Request): SessionUser {
  const { user } = context;
  if (!user) {
    const back = request ? new URL(request.url) : null;
    const query = back ? `?redirectTo=${encodeURIComponent(back.pathname + back.search)}` : "";
    throw redirect(`${ROLE_SIGN_IN[role]}${query}`);
  }
  if (user.role !== role) throw redirect(`${ROLE_HOME[user.role]}?notice=wrongRole`);
  if (user.verification !== "verified") throw redirect("/resubmit");
  return user;
}

/** Any signed-in, verified user. */
export function requireAnyUser(context: AppLoadContext): SessionUser {
  const { user } = context;
  if (!user) throw redirect("/");
  if (user.verification !== "verified") throw redirect("/resubmit");
  return user;
}

const STATUS: Record<DomainError["kind"], number> = {
  invalid: 400,
  conflict: 409,
  not_found: 404,
  forbidden: 403,
  rate_limited: 429,
};

/**
 * Runs a domain call for a form action. A domain error becomes a Conform reply (a field error when the
 * error names a field, otherwise a form error) with the matching HTTP status, plus the error's params (e.g. the
 * campaign a duplicate title belongs to); anything else is rethrown.
 */
export async function formAction<T>(
  submission: Submission<unknown>,
  run: () => Promise<T>,
  hideFields: string[] = [],
): Promise<
  | { ok: true; value: T }
  | { ok: false; response: ReturnType<typeof data<{ result: SubmissionResult<string[]>; errorParams?: Record<string, string> }>> }
> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const result = err.field
      ? submission.reply({ fieldErrors: { [err.field]: [err.message] }, hideFields })
      : submission.reply({ formErrors: [err.message], hideFields });
    return { ok: false, response: data({ result, errorParams: err.params }, { status: STATUS[err.kind] }) };
  }
}

/**
 * The submitted form of an action. A body that cannot be read as a form (cut off in transit, or not a form at
 * all) is the sender's problem, not ours: it is answered 400 with a message that says to send it again, and
 * nothing is changed.
 */
export async function readFormData(request: Request, context: AppLoadContext): Promise<FormData> {
  try {
    return await request.formData();
  } catch (err) {
    context.services.log.warn({ err, path: new URL(request.url).pathname }, "an unreadable form was sent");
    throw data({ message: "errors:formIncomplete" }, { status: 400 });
  }
}

/** Maps a domain error thrown outside a form to an HTTP response (404, 403, ...). */
export function throwHttp(err: unknown): never {
  if (err instanceof DomainError) throw data({ message: err.message }, { status: STATUS[err.kind] });
  throw err;
}
