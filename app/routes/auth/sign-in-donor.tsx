import type { Route } from "./+types/sign-in-donor";
import { SignInPage } from "#app/components/auth/sign-in.tsx";
import { signInAction, signInLoader } from "#app/components/auth/sign-in.server.ts";

export const loader = (args: Route.LoaderArgs) => signInLoader(args, "donor");
export const action = (args: Route.ActionArgs) => signInAction(args, "donor");

/** /donor_signin */
export default function DonorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInPage loaderData={loaderData} actionData={actionData} />;
}
