import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/applications-live";
import { ApplicationsPage } from "#app/components/volunteer/applications.tsx";
import { applicationsLoader } from "#app/components/volunteer/applications.server.ts";

export const handle = pageTitle("applications:title");

export const loader = (args: Route.LoaderArgs) => applicationsLoader(args, "live");

/** /vol2: applications waiting for the NGO's decision. */
export default function LiveApplications({ loaderData }: Route.ComponentProps) {
  return <ApplicationsPage loaderData={loaderData} />;
}
