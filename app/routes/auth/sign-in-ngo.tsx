import type { Route } from "./+types/sign-in-ngo";
import { SignInPage } from "#app/components/auth/sign-in.tsx";
import { signInAction, signInLoader } from "#app/components/auth/sign-in.server.ts";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "ngo");
export const action = (args: Route.ActionArgs) => signInAction(args, "ngo");

/** /ngo_signin */
export default function NgoSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
