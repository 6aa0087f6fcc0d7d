import { areaGuard } from "#app/lib/http.server.ts";
import { RoleLayout, RoleErrorBoundary } from "#app/components/role-shell.tsx";

/** Every ngo page of app/routes.ts sits under this layout: its middleware is their one guard, it draws their shell. */
export const middleware = [areaGuard("ngo")];

export default RoleLayout;
export const ErrorBoundary = RoleErrorBoundary;
