import type { Route } from "./+types/sign-in-admin";
import { SignInPage } from "#app/components/auth/sign-in.tsx";
import { signInAction, signInLoader } from "#app/components/auth/sign-in.server.ts";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "admin");
export const action = (args: Route.ActionArgs) => signInAction(args, "admin");

/** /admin_signin */
export default function AdminSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
