import { areaGuard } from "#app/lib/http.server.ts";
import { RoleLayout, RoleErrorBoundary } from "#app/components/role-shell.tsx";

/** The pages any signed-in account may open (notifications, receipts): one guard, the shell of the account's role. */
export const middleware = [areaGuard("account")];

export default RoleLayout;
export const ErrorBoundary = RoleErrorBoundary;
