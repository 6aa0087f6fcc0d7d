import type { Route } from "./+types/sign-in-rider";
import { SignInPage } from "#app/components/auth/sign-in.tsx";
import { signInAction, signInLoader } from "#app/components/auth/sign-in.server.ts";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "rider");
export const action = (args: Route.ActionArgs) => signInAction(args, "rider");

/** /rider_signin */
export default function RiderSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
