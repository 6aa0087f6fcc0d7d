import * as z from "zod/mini";
import {
  CAMPAIGN_DESCRIPTION_MAX_LENGTH,
  CAMPAIGN_DESCRIPTION_MAX_WORDS,
  CAMPAIGN_ITEMS_MAX_LENGTH,
  CAMPAIGN_TARGET_MAX,
  CAMPAIGN_TITLE_MAX_LENGTH,
  CAMPAIGN_TITLE_MAX_WORDS,
  ADDRESS_MAX_LENGTH,
} from "#shared/constants.ts";
import { CAMPAIGN_CAUSES, CHOSEN_FUNDS } from "#shared/statuses.ts";
import { blankToUndefined, coordinate, optionalImage, rupees } from "./fields.ts";

/** Words as a reader counts them: runs of non-space characters. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Trimmed, with runs of spaces (and line breaks in a title) collapsed to one space. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const required = (key: string, max: number) =>
  z.string({ error: key }).check(z.trim(), z.minLength(1, key), z.maxLength(max, "validation:tooLong"));

/**
 * The create and edit form of a campaign, with the specification's rules and words. Every rule blocks
 * submission, in the browser and again on the server (the domain functions parse with this schema too).
 */
export const campaignSchema = z
  .object({
    title: z.pipe(
      required("campaigns:errors.titleRequired", CAMPAIGN_TITLE_MAX_LENGTH),
      z.pipe(
        z.transform((s: string) => collapseSpaces(s)),
        z.string().check(z.refine((s) => wordCount(s) <= CAMPAIGN_TITLE_MAX_WORDS, "campaigns:errors.titleWords")),
      ),
    ),
    description: required("campaigns:errors.descriptionRequired", CAMPAIGN_DESCRIPTION_MAX_LENGTH).check(
      z.refine((s) => wordCount(s) <= CAMPAIGN_DESCRIPTION_MAX_WORDS, "campaigns:errors.descriptionWords"),
    ),
    // As people type it: "Rs. 50,000", "50 000", Urdu digits.
    targetAmount: rupees(CAMPAIGN_TARGET_MAX, {
      required: "campaigns:errors.amountRequired",
      digits: "campaigns:errors.amountDigits",
      positive: "campaigns:errors.amountPositive",
      tooLarge: "campaigns:errors.amountTooLarge",
    }),
    otherItems: blankToUndefined(z.string().check(z.trim(), z.maxLength(CAMPAIGN_ITEMS_MAX_LENGTH, "validation:tooLong"))),
    location: required("campaigns:errors.locationRequired", ADDRESS_MAX_LENGTH),
    locationLat: coordinate(),
    locationLng: coordinate(),
    picture: optionalImage(),
    cause: z.enum(CAMPAIGN_CAUSES, { error: "campaigns:errors.causeRequired" }),
    // The funds it takes besides general, which every campaign takes (decision 048): one ticked box arrives as a single
    // value, several as a list, none as nothing.
    funds: z._default(
      z.pipe(
        z.transform((v: unknown) => (v === "" ? [] : Array.isArray(v) ? v : [v])),
        z
          .array(z.enum(CHOSEN_FUNDS, { error: "funds:errors.fundUnknown" }))
          .check(z.maxLength(CHOSEN_FUNDS.length, "funds:errors.fundUnknown")),
      ),
      [],
    ),
    // The NGO's attestation that the campaign's gifts may be spent as Zakat: required with Zakat, every time it is saved.
    zakatAttest: z.optional(z.literal("yes", { error: "funds:errors.attestRequired" })),
  })
  .check(
    z.refine((v) => !v.funds.includes("zakat") || v.zakatAttest === "yes", {
      error: "funds:errors.attestRequired",
      path: ["zakatAttest"],
    }),
  );

export type CampaignInput = z.input<typeof campaignSchema>;
export type CampaignValues = z.output<typeof campaignSchema>;
