import { SUPPORT_WORD_STATUSES, UPDATE_STATUSES } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A campaign update's states and who may move it (decision 050). How an account stands to an update: an NGO that runs
 * its campaign (the owner or an accepted partner; either may write, publish and remove), or anyone else.
 */
export const UPDATE_ROLES = ["owner", "partner", "other"] as const;
export type UpdateRole = (typeof UPDATE_ROLES)[number];

export const updateStates = stateMachine({
  states: UPDATE_STATUSES,
  roles: UPDATE_ROLES,
  table: [
    // A photo showing people is confirmed with its people's consent while the update is a draft (the form does it too).
    { action: "confirmConsent", from: ["draft"], to: null, by: ["owner", "partner"] },
    // Needs every photo of people confirmed (updates.ts); tells the campaign's donors once.
    { action: "publish", from: ["draft"], to: "published", by: ["owner", "partner"] },
    // A draft is thrown away, row and photos.
    { action: "discard", from: ["draft"], to: null, by: ["owner", "partner"] },
    // What donors were told is not rewritten: a published update can only be taken off the public page, and is kept.
    { action: "remove", from: ["published"], to: "removed", by: ["owner", "partner"] },
  ],
});
export type UpdateAction = (typeof updateStates.actions)[number];

/**
 * Words of support (decision 050). `none` is no row yet. The author (a donor with an approved gift to the campaign)
 * writes them and may rewrite them while they wait; an NGO of the campaign approves or hides them, and may change its
 * mind. Once decided, the donor's words stay as they were approved or hidden.
 */
export const SUPPORT_WORD_STATES = ["none", ...SUPPORT_WORD_STATUSES] as const;
export type SupportWordState = (typeof SUPPORT_WORD_STATES)[number];
export const SUPPORT_WORD_ROLES = ["author", "owner", "partner", "other"] as const;
export type SupportWordRole = (typeof SUPPORT_WORD_ROLES)[number];

export const supportWordStates = stateMachine({
  states: SUPPORT_WORD_STATES,
  roles: SUPPORT_WORD_ROLES,
  table: [
    { action: "write", from: ["none", "pending"], to: "pending", by: ["author"] },
    { action: "approve", from: ["pending", "hidden"], to: "approved", by: ["owner", "partner"] },
    { action: "hide", from: ["pending", "approved"], to: "hidden", by: ["owner", "partner"] },
  ],
});
export type SupportWordAction = (typeof supportWordStates.actions)[number];
