import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/positions-closed";
import { PositionsPage } from "#app/components/volunteer/positions.tsx";
import { positionsAction, positionsLoader } from "#app/components/volunteer/positions.server.ts";

export const handle = pageTitle("positions:title");

export const loader = (args: Route.LoaderArgs) => positionsLoader(args, "closed");
export const action = (args: Route.ActionArgs) => positionsAction(args, "/vol0");

/** /volClosed: the NGO's closed positions (closed by hand or by their closing day), with Reopen. */
export default function ClosedPositions({ loaderData }: Route.ComponentProps) {
  return <PositionsPage loaderData={loaderData} />;
}
