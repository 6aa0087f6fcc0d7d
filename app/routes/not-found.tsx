import { data } from "react-router";
import { RoleErrorBoundary } from "#app/components/role-shell.tsx";

/** Every address no other route has: a 404, inside the shell for a signed-in user (the root's loader has run). */
export function loader(): never {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = RoleErrorBoundary;
