import { z } from "zod";
import { COMMON_PASSWORDS } from "~/lib/common-passwords";
import {
  ADDRESS_MAX_LENGTH,
  CNIC_DIGITS,
  EMAIL_MAX_LENGTH,
  IMAGE_MAX_BYTES,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_DIGITS,
} from "~/lib/constants";

/**
 * Field schemas shared by the forms. Messages are translation keys ("namespace:key"); the screens
 * translate them, so the browser and the server give the same words.
 */
export const requiredText = (requiredKey: string, max = NAME_MAX_LENGTH) =>
  z
    .string({ error: requiredKey })
    .trim()
    .min(1, requiredKey)
    .max(max, { error: "validation:tooLong" });

export const email = () =>
  z
    .string({ error: "validation:invalidEmail" })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH, { error: "validation:invalidEmail" })
    .pipe(z.email({ error: "validation:invalidEmail" }));

/** A new password: the specification's minimum plus a refusal of the most common ones. */
export const newPassword = () =>
  z
    .string({ error: "validation:passwordMin" })
    .min(PASSWORD_MIN_LENGTH, { error: "validation:passwordMin" })
    .max(PASSWORD_MAX_LENGTH, { error: "validation:tooLong" })
    .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), { error: "validation:passwordCommon" });

/** Digits only, ignoring spaces and dashes, of exactly `digits` length. */
export const digitsField = (digits: number, requiredKey: string, invalidKey: string) =>
  z
    .string({ error: requiredKey })
    .transform((s) => s.replace(/[\s-]/g, ""))
    .pipe(z.string().min(1, requiredKey).regex(new RegExp(`^\\d{${digits}}$`), { error: invalidKey }));

export const phone = (requiredKey: string, invalidKey = "validation:invalidContact") =>
  digitsField(PHONE_DIGITS, requiredKey, invalidKey);

export const cnic = () => digitsField(CNIC_DIGITS, "validation:required", "validation:invalidCnic");

export const address = (requiredKey: string) => requiredText(requiredKey, ADDRESS_MAX_LENGTH);

/** An optional image; its content is checked again on the server, this only stops what is clearly too large. */
export const optionalImage = () =>
  z
    .instanceof(File)
    .optional()
    .refine((f) => !f || f.size <= IMAGE_MAX_BYTES, { error: "validation:imageTooLarge" });
