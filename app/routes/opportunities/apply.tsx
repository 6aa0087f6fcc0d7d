import type { Route } from "./+types/apply";
import { requireUser } from "~/lib/http.server";

// Being built (issue 6).
export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor", request);
  return null;
}

export default function Stub() {
  return null;
}
