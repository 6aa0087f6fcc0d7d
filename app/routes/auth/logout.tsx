import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { ROLE_LANDING } from "#shared/roles.ts";
import { expiredSessionCookie } from "#server/http/cookies.ts";
import { deleteSession } from "#server/domain/accounts/sessions.ts";

/** Visiting /logout changes nothing: only the Log out button's POST ends a session. */
export function loader() {
  return redirect("/");
}

export async function action({ context }: Route.ActionArgs) {
  const { user, sessionToken, services, secure } = context;
  if (sessionToken) await deleteSession(services.db, sessionToken);
  return redirect(user ? ROLE_LANDING[user.role] : "/", {
    headers: { "Set-Cookie": expiredSessionCookie(secure) },
  });
}
