import * as z from "zod/mini";
import { NAME_MAX_LENGTH, REASON_MAX_LENGTH } from "#shared/constants.ts";
import { CHECK_KINDS, REGISTRATION_AUTHORITIES } from "#shared/statuses.ts";
import { blankToUndefined, optionalText, requiredText } from "./fields.ts";

/*
 * The forms of an NGO's checks (decision 051): record (on /admin's vetting cards and /admin/ngos/:id/checks), renew and
 * revoke. The rules that join fields (an authority for a registration, a last day for PCP and tax exemption, dates in
 * order and not in the future) are the server's (server/domain/admin/checks.ts), which names the field it refuses.
 */

const day = (key: string) => z.string({ error: key }).check(z.trim(), z.regex(/^\d{4}-\d{2}-\d{2}$/, "checks:errors.dateInvalid"));
const optionalDay = () => blankToUndefined(z.string().check(z.trim(), z.regex(/^\d{4}-\d{2}-\d{2}$/, "checks:errors.dateInvalid")));
const document = () => z.optional(z.instanceof(File));
const checkId = z.uuid({ error: "errors:notFound" });

export const recordCheckSchema = z.object({
  intent: z.literal("record"),
  kind: z.enum(CHECK_KINDS, { error: "checks:errors.kindRequired" }),
  authority: blankToUndefined(z.enum(REGISTRATION_AUTHORITIES, { error: "checks:errors.authorityRequired" })),
  authorityName: optionalText(NAME_MAX_LENGTH),
  reference: requiredText("checks:errors.referenceRequired", NAME_MAX_LENGTH),
  checkedOn: day("checks:errors.dateRequired"),
  expiresOn: optionalDay(),
  document: document(),
});

export const renewCheckSchema = z.object({
  intent: z.literal("renew"),
  checkId,
  checkedOn: day("checks:errors.dateRequired"),
  expiresOn: optionalDay(),
  document: document(),
});

export const revokeCheckSchema = z.object({
  intent: z.literal("revoke"),
  checkId,
  reason: requiredText("validation:reasonRequired", REASON_MAX_LENGTH),
});

/** Every form of /admin/ngos/:id/checks, by its intent. */
export const checkActionSchema = z.discriminatedUnion("intent", [recordCheckSchema, renewCheckSchema, revokeCheckSchema]);
