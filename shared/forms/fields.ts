import * as z from "zod/mini";
import { COMMON_PASSWORDS } from "#shared/common-passwords.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import { hasControlCharacters } from "#shared/text.ts";
import { CONTACT_PATTERN, MOBILE_PATTERN, nationalPhone, westernDigits, wholeRupees } from "#shared/numbers.ts";
import {
  ADDRESS_MAX_LENGTH,
  CNIC_DIGITS,
  EMAIL_MAX_LENGTH,
  IMAGE_MAX_BYTES,
  IN_NAME_OF_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "#shared/constants.ts";

/**
 * Field schemas shared by the forms (zod/mini: these ship to the browser). Messages are translation keys
 * ("namespace:key"); the screens translate them, so the browser and the server give the same words.
 */
export const requiredText = (requiredKey: string, max = NAME_MAX_LENGTH) =>
  z.string({ error: requiredKey }).check(z.trim(), z.minLength(1, requiredKey), z.maxLength(max, "validation:tooLong"));

export const email = () =>
  z.pipe(
    z
      .string({ error: "validation:invalidEmail" })
      .check(z.trim(), z.toLowerCase(), z.maxLength(EMAIL_MAX_LENGTH, "validation:invalidEmail")),
    z.email({ error: "validation:invalidEmail" }),
  );

/** A new password: the specification's minimum plus a refusal of the most common ones. */
export const newPassword = () =>
  z.string({ error: "validation:passwordMin" }).check(
    z.minLength(PASSWORD_MIN_LENGTH, "validation:passwordMin"),
    z.maxLength(PASSWORD_MAX_LENGTH, "validation:tooLong"),
    z.refine((p) => p.trim().length > 0, "validation:passwordBlank"),
    z.refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), "validation:passwordCommon"),
  );

/** A password being checked, not chosen: only required and bounded. */
export const givenPassword = (requiredKey: string) =>
  z.string({ error: requiredKey }).check(z.minLength(1, requiredKey), z.maxLength(PASSWORD_MAX_LENGTH, "validation:tooLong"));

/** Digits only (Urdu digits read as 0–9), ignoring spaces and dashes, of exactly `digits` length. */
export const digitsField = (digits: number, requiredKey: string, invalidKey: string) =>
  z.pipe(
    z.pipe(
      z.string({ error: requiredKey }),
      z.transform((s: string) => westernDigits(s).replace(/[\s-]/g, "")),
    ),
    z.string().check(z.minLength(1, requiredKey), z.regex(new RegExp(`^\\d{${digits}}$`), invalidKey)),
  );

/** A phone number as people type it (+92, 0092, dashes, spaces, Urdu digits), kept in national form. */
const phoneField = (pattern: RegExp, requiredKey: string, invalidKey: string) =>
  z.pipe(
    z.pipe(z.string({ error: requiredKey }), z.transform(nationalPhone)),
    z.string().check(z.minLength(1, requiredKey), z.regex(pattern, invalidKey)),
  );

/** A mobile number (03…, 11 digits). */
export const phone = (requiredKey: string, invalidKey = "validation:invalidContact") => phoneField(MOBILE_PATTERN, requiredKey, invalidKey);

/** An NGO's contact number: a mobile or a landline with its area code. */
export const contactNumber = (requiredKey: string) => phoneField(CONTACT_PATTERN, requiredKey, "validation:invalidContact");

/**
 * Whole rupees as people type them ("Rs. 1,000", "1,000", Urdu digits), from 1 to `max`: the messages are the
 * form's own (digits only, at least 1, too large).
 */
export const rupees = (max: number, keys: { required: string; digits: string; positive: string; tooLarge: string }) =>
  z.pipe(
    z.pipe(z.string({ error: keys.required }), z.transform(wholeRupees)),
    z.pipe(
      z.string().check(z.minLength(1, keys.required), z.regex(/^\d{1,12}$/, keys.digits)),
      z.pipe(
        z.transform((s: string) => Number(s)),
        z.number().check(z.minimum(1, keys.positive), z.maximum(max, keys.tooLarge)),
      ),
    ),
  );

export const cnic = () => digitsField(CNIC_DIGITS, "validation:required", "validation:invalidCnic");

export const address = (requiredKey: string) => requiredText(requiredKey, ADDRESS_MAX_LENGTH);

/** An image that must be given; its content is checked again on the server. */
export const image = (requiredKey: string) =>
  z.instanceof(File, { error: requiredKey }).check(
    z.refine((f) => f.size > 0, requiredKey),
    z.refine((f) => f.size <= IMAGE_MAX_BYTES, "validation:imageTooLarge"),
  );

/** An optional image; its content is checked again on the server, this only stops what is clearly too large. */
export const optionalImage = () =>
  z.optional(z.instanceof(File).check(z.refine((f) => f.size <= IMAGE_MAX_BYTES, "validation:imageTooLarge")));

/** An empty or blank value counts as "not given", whether it comes from a form or a direct call. */
export const blankToUndefined = <S extends z.ZodMiniType>(schema: S) =>
  z.optional(
    z.pipe(
      z.transform((v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v)),
      z.optional(schema),
    ),
  );

/**
 * A coordinate from the place field's hidden inputs: optional, and ignored by the server unless inside Pakistan.
 * Text as a form sends it, a number as a caller that parsed the form passes it; a field sent twice (a crafted post)
 * counts by its first value, and anything else is no number, so it is ignored like any point outside Pakistan.
 */
export const coordinate = () =>
  blankToUndefined(
    z.pipe(
      z.unknown(),
      z.transform((v: unknown) => {
        const first = Array.isArray(v) ? (v as unknown[])[0] : v;
        return typeof first === "string" || typeof first === "number" ? Number(first) : Number.NaN;
      }),
    ),
  );

/** Optional free text, trimmed and bounded; blank is "not given". */
export const optionalText = (max: number) => blankToUndefined(z.string().check(z.trim(), z.maxLength(max, "validation:tooLong")));

/**
 * What a gift adds to the cash proof form and the goods form (decision 048): the fund it is given to (one the campaign
 * takes: the server checks), whether the donor is named in the public list of gifts (unticked: anonymous to the public,
 * the NGO always sees the donor), and in whose name it is given (optional, one line).
 */
export const giftFundFields = () => ({
  // A post without the field (an older form, a script) gives to the general fund, as every campaign takes it.
  fund: z._default(z.enum(FUND_KINDS, { error: "funds:errors.fundRequired" }), "general"),
  showName: z.optional(z.literal("yes", { error: "funds:errors.fundRequired" })),
  inNameOf: blankToUndefined(
    z.string().check(
      z.trim(),
      z.maxLength(IN_NAME_OF_MAX_LENGTH, "validation:tooLong"),
      z.refine((s: string) => !hasControlCharacters(s, { lineBreaks: false }), "validation:controlCharacters"),
    ),
  ),
});
