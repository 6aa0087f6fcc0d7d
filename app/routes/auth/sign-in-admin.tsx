import type { Route } from "./+types/sign-in-admin";
import { SignInPage } from "./+shared/sign-in";
import { signInAction, signInLoader } from "./+shared/sign-in.server";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "admin");
export const action = (args: Route.ActionArgs) => signInAction(args, "admin");

/** /admin_signin */
export default function AdminSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
