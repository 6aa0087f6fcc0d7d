import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/applications-rejected";
import { ApplicationsPage } from "#app/components/volunteer/applications.tsx";
import { applicationsLoader } from "#app/components/volunteer/applications.server.ts";

export const handle = pageTitle("applications:title");

export const loader = (args: Route.LoaderArgs) => applicationsLoader(args, "rejected");

/** /volRejected: the applications the NGO declined. */
export default function RejectedApplications({ loaderData }: Route.ComponentProps) {
  return <ApplicationsPage loaderData={loaderData} />;
}
