import { data, redirect } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { donorSignUpSchema, ngoSignUpSchema, riderSignUpSchema } from "#shared/forms/accounts.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { signUp, type SignUp } from "#server/domain/accounts/sign-up.ts";
import { createSession, deleteSession } from "#server/domain/accounts/sessions.ts";
import { sessionCookie } from "#server/http/cookies.ts";
import { ROLE_HOME, safeRedirectTarget } from "#shared/roles.ts";

const SCHEMAS = { ngo: ngoSignUpSchema, donor: donorSignUpSchema, rider: riderSignUpSchema } as const;

/** NGOs and riders are told to wait for the administrator; a donor is signed in at once (below). */
const AFTER_SIGN_UP = {
  ngo: "/ngo_signin?notice=submitted",
  rider: "/rider_signin?notice=submitted",
} as const;

/**
 * The action of the three sign-up screens: parse with the role's schema, create the account. A donor needs no
 * vetting, so is signed in at once and taken back to where they were going (a shared campaign's payment screen,
 * carried from sign-in as `redirectTo`); NGOs and riders go to their sign-in to wait.
 */
export async function signUpAction(role: SignUp["role"], request: Request, context: AppContext) {
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: SCHEMAS[role] });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const input = { role, data: submission.value, language: context.lang } as SignUp;
  const out = await formAction(submission, () => signUp(context.services, context.clientIp, input), ["password"]);
  if (!out.ok) return out.answer();
  if (role !== "donor") return redirect(AFTER_SIGN_UP[role]);
  const { db } = context.services;
  // Signing up as someone new replaces the session this browser had, as signing in does.
  if (context.sessionToken) await deleteSession(db, context.sessionToken);
  const { token } = await createSession(db, out.value);
  const target = safeRedirectTarget(formData.get("redirectTo"), ROLE_HOME.donor);
  return redirect(target, { headers: { "Set-Cookie": sessionCookie(context.secure, token) } });
}
