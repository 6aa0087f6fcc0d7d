import type { Actor } from "#server/domain/policy.ts";

/** An account as a domain function's actor, from its id: what the session knows of a signed-in user of that type. */
export const asNgo = (id: string): Actor => ({ id, role: "ngo" });
export const asDonor = (id: string): Actor => ({ id, role: "donor" });
export const asRider = (id: string): Actor => ({ id, role: "rider" });
export const asAdmin = (id: string): Actor => ({ id, role: "admin" });
