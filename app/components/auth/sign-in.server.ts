import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { parseWithZod } from "#shared/forms/parse.ts";
import { signInSchema } from "#shared/forms/accounts.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { ROLE_HOME, safeRedirectTarget, type Role } from "#shared/roles.ts";
import { signIn } from "#server/domain/accounts/sign-in.ts";
import { sessionCookie } from "#server/http/cookies.ts";
import { deleteSession } from "#server/domain/accounts/sessions.ts";

const NOTICES = ["submitted", "resubmitted", "reset"] as const;

/** The sign-in of one role (/admin_signin, /ngo_signin, /donor_signin, /rider_signin each name theirs). */
export function signInLoader({ request, context }: LoaderFunctionArgs, role: Role) {
  const { user } = context;
  if (user && user.role === role) throw redirect(user.verification === "rejected" ? "/resubmit" : ROLE_HOME[role]);
  const params = new URL(request.url).searchParams;
  const notice = NOTICES.find((n) => n === params.get("notice")) ?? null;
  // Checked here too: the page builds its Sign up and Forgot links from it.
  return { role, notice, redirectTo: safeRedirectTarget(params.get("redirectTo"), "") };
}

export async function signInAction({ request, context }: ActionFunctionArgs, role: Role) {
  const submission = parseWithZod(await readFormData(request, context), { schema: signInSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const { services } = context;
  const { email, password, redirectTo } = submission.value;
  const out = await formAction(submission, () => signIn(services, { role, email, password, clientIp: context.clientIp }), ["password"]);
  if (!out.ok) return out.answer();
  // Signing in as someone else replaces the session this browser had.
  if (context.sessionToken) await deleteSession(services.db, context.sessionToken);
  const target = out.value.rejected ? "/resubmit" : safeRedirectTarget(redirectTo, ROLE_HOME[role]);
  return redirect(target, { headers: { "Set-Cookie": sessionCookie(context.secure, out.value.token) } });
}
