import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/application-approved";
import { ApplicationPage } from "#app/components/volunteer/application.tsx";
import { applicationAction, applicationLoader } from "#app/components/volunteer/application.server.ts";

export const handle = pageTitle("applications:detail.approvedTitle");

export const loader = (args: Route.LoaderArgs) => applicationLoader(args, "approved");
export const action = (args: Route.ActionArgs) => applicationAction(args);

/** /volPSDAA: an approved application, read-only. */
export default function ApprovedApplication({ loaderData }: Route.ComponentProps) {
  return <ApplicationPage loaderData={loaderData} />;
}
