import { CAMPAIGN_STATUSES, PARTNERSHIP_DIRECTIONS, PARTNERSHIP_STATUSES } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A campaign's states and who may move it (decision 006; ARCHITECTURE "Campaigns"). The vocabulary is the
 * database enum's: `active` (On Going), `completed` (Successful: the target was met, or the owner ended it) and
 * `archived` (deleted while it had donations; never listed, never changed again).
 */

/**
 * How an account stands to a campaign: the NGO that owns it, an accepted partner, another NGO, or the system
 * (the approval that reaches the target, in the same transaction).
 */
export const CAMPAIGN_ROLES = ["owner", "partner", "otherNgo", "system"] as const;
export type CampaignActor = (typeof CAMPAIGN_ROLES)[number];

export const campaignStates = stateMachine({
  states: CAMPAIGN_STATUSES,
  roles: CAMPAIGN_ROLES,
  table: [
    // Its text, target, place, picture and Zakat flag; lowering the target to what is collected also completes it.
    { action: "edit", from: ["active", "completed"], to: null, by: ["owner"] },
    { action: "close", from: ["active"], to: "completed", by: ["owner"] },
    { action: "complete", from: ["active"], to: "completed", by: ["system"] },
    // Kept as archived when it has donations, so none loses its campaign; otherwise the row itself is removed.
    { action: "delete", from: ["active", "completed"], to: "archived", by: ["owner"] },
  ],
});
export type CampaignAction = (typeof campaignStates.actions)[number];
export const { canTransition, assertTransition, actionsFor, fromStates } = campaignStates;

/**
 * A partnership between a campaign and another NGO (decision 006, collaboration), stored as a status and how it
 * began (the database enums). The table is over what the two make: no row yet (`none`), `invited` by the owner,
 * `requested` by the NGO, `accepted` (a partner), `declined`, or `left`. The campaign must also be active to
 * invite, ask or accept (checked by the collaboration functions).
 */
type PartnershipStatus = (typeof PARTNERSHIP_STATUSES)[number];
type PartnershipDirection = (typeof PARTNERSHIP_DIRECTIONS)[number];
export const PARTNERSHIP_STATES = ["none", "invited", "requested", "accepted", "declined", "left"] as const;
export type PartnershipState = (typeof PARTNERSHIP_STATES)[number];

/** The stored status (and, while pending, direction) of each state; `none` has no row. */
export const STORED_PARTNERSHIP: Record<
  Exclude<PartnershipState, "none">,
  { status: PartnershipStatus; direction?: PartnershipDirection }
> = {
  invited: { status: "pending", direction: "invited" },
  requested: { status: "pending", direction: "requested" },
  accepted: { status: "accepted" },
  declined: { status: "declined" },
  left: { status: "left" },
};

export function partnershipState(
  row: { status: PartnershipStatus | null; direction: PartnershipDirection | null } | null | undefined,
): PartnershipState {
  if (!row?.status) return "none";
  return row.status === "pending" ? (row.direction === "invited" ? "invited" : "requested") : row.status;
}

/** How an NGO stands to a partnership: the campaign's owner, the NGO it is with, or any other NGO. */
export const PARTNERSHIP_ROLES = ["owner", "ngo", "otherNgo"] as const;
export type PartnershipRole = (typeof PARTNERSHIP_ROLES)[number];

export const partnershipStates = stateMachine({
  states: PARTNERSHIP_STATES,
  roles: PARTNERSHIP_ROLES,
  table: [
    // Declined or left earlier: a new invitation or request starts over.
    { action: "invite", from: ["none", "declined", "left"], to: "invited", by: ["owner"] },
    // Both sides want it: inviting an NGO that asked (or asking after an invitation) makes it a partner at once.
    { action: "invite", from: ["requested"], to: "accepted", by: ["owner"] },
    { action: "invite", from: ["invited", "accepted"], to: null, by: ["owner"], repeat: true },
    { action: "request", from: ["none", "declined", "left"], to: "requested", by: ["ngo"] },
    { action: "request", from: ["invited"], to: "accepted", by: ["ngo"] },
    { action: "request", from: ["requested"], to: null, by: ["ngo"], repeat: true },
    { action: "acceptInvitation", from: ["invited"], to: "accepted", by: ["ngo"] },
    { action: "declineInvitation", from: ["invited"], to: "declined", by: ["ngo"] },
    { action: "acceptRequest", from: ["requested"], to: "accepted", by: ["owner"] },
    { action: "declineRequest", from: ["requested"], to: "declined", by: ["owner"] },
    // The owner cannot leave: it closes or deletes the campaign instead.
    { action: "leave", from: ["accepted"], to: "left", by: ["ngo"] },
  ],
});
export type PartnershipAction = (typeof partnershipStates.actions)[number];
