/**
 * Pieces of the NGO's review of volunteer applications (/vol2, /volApproved, /volRejected, /vol3, /volPSDAA).
 */

/** The three lists of applications, by the path that shows each. */
export const APPLICATION_TABS = [
  { tab: "live", path: "/vol2", status: "pending" },
  { tab: "approved", path: "/volApproved", status: "approved" },
  { tab: "rejected", path: "/volRejected", status: "declined" },
] as const;

export type ApplicationTab = (typeof APPLICATION_TABS)[number]["tab"];

/** The list an application of this status belongs to. */
export function listPathOf(status: "pending" | "approved" | "declined"): string {
  return APPLICATION_TABS.find((t) => t.status === status)!.path;
}

const STATE_STYLE: Record<"pending" | "approved" | "declined", string> = {
  pending: "bg-amber-100 text-amber-950",
  approved: "bg-emerald-100 text-emerald-900",
  declined: "bg-red-100 text-red-900",
};

/** An application's state as a small badge. */
export function StateBadge({ status, label }: { status: "pending" | "approved" | "declined"; label: string }) {
  return <span className={`inline-block rounded px-2 py-0.5 text-sm font-bold ${STATE_STYLE[status]}`}>{label}</span>;
}
