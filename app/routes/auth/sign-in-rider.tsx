import type { Route } from "./+types/sign-in-rider";
import { SignInPage } from "./+shared/sign-in";
import { signInAction, signInLoader } from "./+shared/sign-in.server";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "rider");
export const action = (args: Route.ActionArgs) => signInAction(args, "rider");

/** /rider_signin */
export default function RiderSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
