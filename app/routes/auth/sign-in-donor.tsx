import type { Route } from "./+types/sign-in-donor";
import { SignInPage } from "./+shared/sign-in";
import { signInAction, signInLoader } from "./+shared/sign-in.server";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "donor");
export const action = (args: Route.ActionArgs) => signInAction(args, "donor");

/** /donor_signin */
export default function DonorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
