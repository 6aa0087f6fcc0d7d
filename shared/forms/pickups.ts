import * as z from "zod/mini";
import {
  ADDRESS_MAX_LENGTH,
  ITEMS_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PICKUP_CODE_DIGITS,
  PICKUP_SLOTS,
  REASON_MAX_LENGTH,
} from "#shared/constants.ts";
import { hasControlCharacters } from "#shared/text.ts";
import { blankToUndefined, coordinate, digitsField, phone, requiredText, giftFundFields } from "./fields.ts";

/** The specification's message for any missing field of the goods form, shown under each field. */
const FILL_ALL = "donations:errors.fillAll";

/**
 * The goods form (/donate5_1): phone, what is given, the pick-up address (house and street for the rider, and
 * the area from the place search with its point) and a preferred pick-up window; with the campaign, the NGO
 * it goes to and the form's idempotency key. The window's day is checked against today on the server.
 */
export const goodsOfferSchema = z.object({
  campaign: z.string({ error: "errors:notFound" }).check(z.minLength(1, "errors:notFound"), z.maxLength(200, "errors:notFound")),
  /** A joint campaign's donor chooses the NGO; left empty, that is a missing field like the others. */
  ngo: z.string({ error: FILL_ALL }).check(z.minLength(1, FILL_ALL), z.uuid("errors:notFound")),
  idempotencyKey: z.uuid({ error: "donations:errors.formExpired" }),
  phone: phone(FILL_ALL, "donations:errors.phoneDigits"),
  items: requiredText(FILL_ALL, ITEMS_MAX_LENGTH),
  address: requiredText(FILL_ALL, ADDRESS_MAX_LENGTH),
  area: requiredText(FILL_ALL, ADDRESS_MAX_LENGTH),
  areaLat: coordinate(),
  areaLng: coordinate(),
  windowDate: z.string({ error: FILL_ALL }).check(z.minLength(1, FILL_ALL), z.regex(/^\d{4}-\d{2}-\d{2}$/, "pickups:errors.dateInvalid")),
  windowSlot: z.enum(PICKUP_SLOTS, { error: FILL_ALL }),
  ...giftFundFields(),
});

export type GoodsOfferInput = z.input<typeof goodsOfferSchema>;
export type GoodsOfferValues = z.output<typeof goodsOfferSchema>;

const donationId = z.uuid({ error: "errors:notFound" });
const reason = (key: string) => requiredText(key, REASON_MAX_LENGTH);

/** The NGO's actions on /noncash_apps. */
export const ngoPickupSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("assign"), donationId, riderId: z.uuid({ error: "pickups:errors.riderRequired" }) }),
  z.object({ intent: z.literal("reassign"), donationId, riderId: z.uuid({ error: "pickups:errors.riderRequired" }) }),
  z.object({ intent: z.literal("cancel"), donationId, reason: reason("pickups:errors.reasonRequired") }),
  z.object({
    intent: z.literal("received"),
    donationId,
    note: blankToUndefined(z.string().check(z.trim(), z.maxLength(ITEMS_MAX_LENGTH, "validation:tooLong"))),
  }),
]);

/** The rider's actions on /rider_home. */
export const riderPickupSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept"), donationId }),
  z.object({ intent: z.literal("decline"), donationId, reason: reason("pickups:errors.reasonRequired") }),
  z.object({
    intent: z.literal("collect"),
    donationId,
    code: digitsField(PICKUP_CODE_DIGITS, "pickups:errors.codeRequired", "pickups:errors.codeDigits"),
  }),
  z.object({ intent: z.literal("deliver"), donationId }),
]);

/** The NGO's drop-off point forms on its settings page (decision 026); kept apart from the shared settings intents. */
export const DROPOFF_INTENTS = ["addDropoff", "removeDropoff"] as const;
export type DropoffIntent = (typeof DROPOFF_INTENTS)[number];

/**
 * A drop-off point: its name ("Gulberg warehouse"), the street address a rider looks for, and the place from the
 * place search with its point, which the server resolves (a place that resolves to nothing is refused).
 */
/** One line of text: no control character, and no tab or line break either (checked by the domain too). */
const oneLine = (requiredKey: string, max: number) =>
  requiredText(requiredKey, max).check(
    z.refine((s: string) => !hasControlCharacters(s, { lineBreaks: false }), "validation:controlCharacters"),
  );

export const dropoffAddSchema = z.object({
  name: oneLine("pickups:dropoffs.errors.nameRequired", NAME_MAX_LENGTH),
  address: oneLine("pickups:dropoffs.errors.addressRequired", ADDRESS_MAX_LENGTH),
  place: oneLine("pickups:dropoffs.errors.placeRequired", ADDRESS_MAX_LENGTH),
  placeLat: coordinate(),
  placeLng: coordinate(),
});

export const dropoffRemoveSchema = z.object({ id: z.uuid({ error: "errors:notFound" }) });

export type DropoffAddInput = z.input<typeof dropoffAddSchema>;
