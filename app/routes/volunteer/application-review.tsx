import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/application-review";
import { ApplicationPage } from "#app/components/volunteer/application.tsx";
import { applicationAction, applicationLoader } from "#app/components/volunteer/application.server.ts";

export const handle = pageTitle("applications:detail.title");

export const loader = (args: Route.LoaderArgs) => applicationLoader(args, "review");
export const action = (args: Route.ActionArgs) => applicationAction(args);

/** /vol3: one application, with Approve and Decline while it waits. */
export default function ReviewApplication({ loaderData }: Route.ComponentProps) {
  return <ApplicationPage loaderData={loaderData} />;
}
