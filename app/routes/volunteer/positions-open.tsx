import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/positions-open";
import { PositionsPage } from "#app/components/volunteer/positions.tsx";
import { positionsAction, positionsLoader } from "#app/components/volunteer/positions.server.ts";

export const handle = pageTitle("positions:title");

export const loader = (args: Route.LoaderArgs) => positionsLoader(args, "open");
export const action = (args: Route.ActionArgs) => positionsAction(args, "/vol0");

/** /vol0: the NGO's active volunteer positions. */
export default function ActivePositions({ loaderData }: Route.ComponentProps) {
  return <PositionsPage loaderData={loaderData} />;
}
