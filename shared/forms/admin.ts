import * as z from "zod/mini";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { requiredText } from "./fields.ts";

const userId = z.uuid({ error: "errors:notFound" });

/** Reject on /admin: the reason is shown to the applicant. */
export const rejectSchema = z.object({
  intent: z.literal("reject"),
  userId,
  reason: requiredText("validation:reasonRequired", REASON_MAX_LENGTH),
});

/** The forms of /admin: Accept (one click) and Reject (with a reason). */
export const vettingSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("accept"), userId }), rejectSchema]);

/** Suspend and Restore on /admin/accounts. */
export const accountActionSchema = z.object({ intent: z.enum(["suspend", "restore"]), userId });

/** The Raast QR switch on /admin/settings: the button sends the state to move to. */
export const platformSchema = z.object({ raastQr: z.enum(["on", "off"], { error: "admin:platform.invalid" }) });
