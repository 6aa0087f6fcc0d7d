import * as z from "zod/mini";
import {
  ADDRESS_MAX_LENGTH,
  APPLICATION_TEXT_MAX_LENGTH,
  POSITION_PHRASE_MAX_LENGTH,
  POSITION_TEXT_MAX_LENGTH,
  POSITION_TITLE_MAX_LENGTH,
  REASON_MAX_LENGTH,
  RESUME_MAX_BYTES,
  VOLUNTEERS_NEEDED_MAX,
} from "#shared/constants.ts";
import { collapseSpaces } from "./campaigns.ts";
import { blankToUndefined, coordinate, optionalImage, optionalText, requiredText } from "./fields.ts";

const day = (key: string) => blankToUndefined(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, key)));

/**
 * The position form (/vol1). Title, description, working hours, timings and the number of volunteers are
 * required; the rest is optional. The closing day is checked against today on the server.
 */
export const positionSchema = z.object({
  title: z.pipe(
    requiredText("volunteer:errors.titleRequired", POSITION_TITLE_MAX_LENGTH),
    z.transform((s: string) => collapseSpaces(s)),
  ),
  description: requiredText("volunteer:errors.descriptionRequired", POSITION_TEXT_MAX_LENGTH),
  responsibilities: optionalText(POSITION_TEXT_MAX_LENGTH),
  workingHours: requiredText("volunteer:errors.hoursRequired", POSITION_PHRASE_MAX_LENGTH),
  duration: optionalText(POSITION_PHRASE_MAX_LENGTH),
  timings: requiredText("volunteer:errors.timingsRequired", POSITION_PHRASE_MAX_LENGTH),
  city: optionalText(ADDRESS_MAX_LENGTH),
  cityLat: coordinate(),
  cityLng: coordinate(),
  volunteersNeeded: z.pipe(
    z.pipe(
      z.string({ error: "volunteer:errors.neededRequired" }),
      z.transform((s: string) => s.replace(/[\s,]/g, "")),
    ),
    z.pipe(
      z.string().check(z.minLength(1, "volunteer:errors.neededRequired"), z.regex(/^\d{1,6}$/, "volunteer:errors.neededPositive")),
      z.pipe(
        z.transform((s: string) => Number(s)),
        z
          .number()
          .check(z.minimum(1, "volunteer:errors.neededPositive"), z.maximum(VOLUNTEERS_NEEDED_MAX, "volunteer:errors.neededTooMany")),
      ),
    ),
  ),
  closesOn: day("volunteer:errors.closesOnInvalid"),
  poster: optionalImage(),
});

export type PositionInput = z.input<typeof positionSchema>;
export type PositionValues = z.output<typeof positionSchema>;

const positionId = z.uuid({ error: "errors:notFound" });
const applicationId = z.uuid({ error: "errors:notFound" });

/** Close and Reopen on /vol0 and /volClosed; reopening a position whose closing day has passed may set a new one. */
export const positionStatusSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("close"), positionId }),
  z.object({ intent: z.literal("reopen"), positionId, closesOn: day("volunteer:errors.closesOnInvalid") }),
]);

/** A resume: PDF only (checked again by content on the server) and size-limited. */
const resume = () =>
  z.optional(
    z.instanceof(File).check(
      z.refine((f) => f.size <= RESUME_MAX_BYTES, "volunteer:errors.resumeTooLarge"),
      z.refine((f) => f.type === "application/pdf" || /\.pdf$/i.test(f.name), "volunteer:errors.resumeNotPdf"),
    ),
  );

/** The application form (/vfg3): motivation (required), prior experience and a resume, with the form's idempotency key. */
export const applicationSchema = z.object({
  positionId,
  idempotencyKey: z.uuid({ error: "volunteer:errors.formExpired" }),
  motivation: requiredText("volunteer:errors.motivationRequired", APPLICATION_TEXT_MAX_LENGTH),
  experience: optionalText(APPLICATION_TEXT_MAX_LENGTH),
  resume: resume(),
});

export type ApplicationInput = z.input<typeof applicationSchema>;
export type ApplicationValues = z.output<typeof applicationSchema>;

/**
 * Approve and Decline on /vol3. Approving when the position already has all the volunteers it needs must be
 * confirmed (`confirm=yes`); a decline may carry a message to the applicant.
 */
export const applicationDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), applicationId, confirm: z.optional(z.literal("yes")) }),
  z.object({ intent: z.literal("decline"), applicationId, message: optionalText(REASON_MAX_LENGTH) }),
]);
