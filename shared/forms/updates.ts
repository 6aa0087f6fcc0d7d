import * as z from "zod/mini";
import { SUPPORT_WORDS_MAX_LENGTH, SUPPORT_WORDS_MIN_LENGTH, UPDATE_TEXT_MAX_LENGTH } from "#shared/constants.ts";
import { optionalImage } from "./fields.ts";

/** A box ticked in a form (sent as "yes"); absent when not ticked. */
const ticked = () => z.optional(z.literal("yes"));

/**
 * An NGO's update of a campaign (decision 050): its text, up to three photos, for each whether it shows people and
 * whether the NGO confirms their consent, and whether to publish now or keep a draft. The consent rule is the
 * server's (server/domain/updates/updates.ts), which names the photo's consent box when it refuses.
 */
export const updateSchema = z.object({
  body: z
    .string({ error: "updates:errors.bodyRequired" })
    .check(z.trim(), z.minLength(1, "updates:errors.bodyRequired"), z.maxLength(UPDATE_TEXT_MAX_LENGTH, "validation:tooLong")),
  photo1: optionalImage(),
  people1: ticked(),
  consent1: ticked(),
  photo2: optionalImage(),
  people2: ticked(),
  consent2: ticked(),
  photo3: optionalImage(),
  people3: ticked(),
  consent3: ticked(),
  intent: z.enum(["draft", "publish"], { error: "validation:required" }),
});
export type UpdateValues = z.output<typeof updateSchema>;

/** The photos of the form, in order, without the empty slots. */
export function photosOf(values: UpdateValues): { file: File; showsPeople: boolean; consent: boolean }[] {
  const slots = [
    [values.photo1, values.people1, values.consent1],
    [values.photo2, values.people2, values.consent2],
    [values.photo3, values.people3, values.consent3],
  ] as const;
  return slots.flatMap(([file, people, consent]) => (file ? [{ file, showsPeople: people === "yes", consent: consent === "yes" }] : []));
}

/** A step on an update of the NGO's list: publish or discard a draft, confirm a photo's consent, remove a published one. */
export const updateStepSchema = z.object({
  step: z.enum(["publish", "discard", "consent", "remove"], { error: "validation:required" }),
  updateId: z.string({ error: "validation:required" }),
  photoId: z.optional(z.string()),
});

/** A donor's words of support: short, in either language. */
export const supportWordsSchema = z.object({
  body: z
    .string({ error: "updates:errors.wordsRequired" })
    .check(
      z.trim(),
      z.minLength(1, "updates:errors.wordsRequired"),
      z.minLength(SUPPORT_WORDS_MIN_LENGTH, "updates:errors.wordsTooShort"),
      z.maxLength(SUPPORT_WORDS_MAX_LENGTH, "updates:errors.wordsTooLong"),
    ),
});

/** The NGO's decision on words of support. */
export const wordsStepSchema = z.object({
  intent: z.enum(["approve", "hide"], { error: "validation:required" }),
  wordsId: z.string({ error: "validation:required" }),
});
