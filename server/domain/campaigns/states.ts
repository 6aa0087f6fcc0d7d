import { campaignStatusEnum } from "../../db/schema";
import { stateMachine } from "../state-machine";

/**
 * A campaign's states and who may move it (decision 006; ARCHITECTURE "Campaigns"). The vocabulary is the
 * database enum's: `active` (On Going), `completed` (Successful: the target was met, or the owner ended it) and
 * `archived` (deleted while it had donations; never listed, never changed again).
 */
export const CAMPAIGN_STATUSES = campaignStatusEnum.enumValues;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

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
