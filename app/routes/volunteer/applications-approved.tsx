import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/applications-approved";
import { ApplicationsPage } from "#app/components/volunteer/applications.tsx";
import { applicationsLoader } from "#app/components/volunteer/applications.server.ts";

export const handle = pageTitle("applications:title");

export const loader = (args: Route.LoaderArgs) => applicationsLoader(args, "approved");

/** /volApproved: the applications the NGO approved. */
export default function ApprovedApplications({ loaderData }: Route.ComponentProps) {
  return <ApplicationsPage loaderData={loaderData} />;
}
