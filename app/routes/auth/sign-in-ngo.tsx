import type { Route } from "./+types/sign-in-ngo";
import { SignInPage } from "./+shared/sign-in";
import { signInAction, signInLoader } from "./+shared/sign-in.server";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "ngo");
export const action = (args: Route.ActionArgs) => signInAction(args, "ngo");

/** /ngo_signin */
export default function NgoSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
