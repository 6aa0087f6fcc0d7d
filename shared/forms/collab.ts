import * as z from "zod/mini";

/** At most this many NGOs are invited at once (the domain checks it too). */
export const MAX_INVITES = 20;

const campaignId = z.uuid({ error: "collab:errors.chooseCampaign" });
const id = z.uuid({ error: "errors:notFound" });

/** One checked box arrives as a single value, several as a list, none at all as nothing. */
const checkedIds = z.pipe(
  z.transform((v: unknown) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v])),
  z
    .array(z.uuid({ error: "collab:errors.ngoUnavailable" }))
    .check(z.minLength(1, "collab:errors.chooseNgo"), z.maxLength(MAX_INVITES, "collab:errors.tooMany")),
);

/** Collaborate on /collab: the chosen campaign and the selected NGOs. */
export const inviteSchema = z.object({
  intent: z.literal("invite"),
  campaignId,
  ngoIds: checkedIds,
});

/** Every form /collab posts: Collaborate, and the one-click answers (invitations, join requests, leaving). */
export const collabActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.enum(["acceptInvitation", "declineInvitation", "leave"]), campaignId: id }),
  z.object({ intent: z.enum(["acceptRequest", "declineRequest"]), campaignId: id, ngoId: id }),
]);
