import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/positions-cc1";
import { PositionsPage } from "#app/components/volunteer/positions.tsx";
import { positionsAction, positionsLoader } from "#app/components/volunteer/positions.server.ts";

export const handle = pageTitle("positions:title");

export const loader = (args: Route.LoaderArgs) => positionsLoader(args, "open");
export const action = (args: Route.ActionArgs) => positionsAction(args, "/cc1");

/** /cc1: the same page as /vol0 under the specification's second name; a close comes back here. */
export default function ActivePositionsTwin({ loaderData }: Route.ComponentProps) {
  return <PositionsPage loaderData={loaderData} />;
}
