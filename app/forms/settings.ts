import { z } from "zod";
import { ACCOUNT_FIELD_MAX_LENGTH, IMAGE_MAX_BYTES, PASSWORD_MAX_LENGTH, PHONE_DIGITS } from "~/lib/constants";
import { newPassword, requiredText } from "./fields";

/**
 * The settings forms. Each page has several separate forms, told apart by a hidden `intent` field;
 * the same schemas are checked again by the domain functions, which may be called without a form.
 */
export const SETTINGS_INTENTS = ["name", "password", "picture", "removePicture", "payment"] as const;
export type SettingsIntent = (typeof SETTINGS_INTENTS)[number];

export const ngoNameSchema = z.object({
  name: requiredText("validation:nameRequired"),
});

export const personNameSchema = z.object({
  firstName: requiredText("validation:firstNameRequired"),
  lastName: requiredText("validation:lastNameRequired"),
});

const currentPassword = () =>
  z
    .string({ error: "validation:currentPasswordRequired" })
    .min(1, "validation:currentPasswordRequired")
    .max(PASSWORD_MAX_LENGTH, { error: "validation:tooLong" });

/** What the password change itself needs (the domain function's input). */
export const passwordChangeSchema = z.object({
  currentPassword: currentPassword(),
  newPassword: newPassword(),
});

/** The form adds a confirmation, which must match. */
export const passwordFormSchema = passwordChangeSchema
  .extend({ confirmPassword: z.string({ error: "validation:passwordsDiffer" }) })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    error: "validation:passwordsDiffer",
  });

export const pictureSchema = z.object({
  picture: z
    .instanceof(File, { error: "settings:picture.required" })
    .refine((f) => f.size > 0, { error: "settings:picture.required" })
    .refine((f) => f.size <= IMAGE_MAX_BYTES, { error: "validation:imageTooLarge" }),
});

/** An empty or blank value counts as "not given", whether it comes from a form or a direct call. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A JazzCash or Easypaisa mobile account: 11 digits, spaces and dashes ignored. */
const walletNumber = () =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((s) => s.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(new RegExp(`^\\d{${PHONE_DIGITS}}$`), { error: "settings:payment.walletInvalid" }))
      .optional(),
  );

const bankText = () =>
  z.preprocess(
    blankToUndefined,
    z.string().trim().max(ACCOUNT_FIELD_MAX_LENGTH, { error: "validation:tooLong" }).optional(),
  );

/** An IBAN (PK + 22 characters) or a plain account number: letters and digits, 8 to 34 without spaces. */
const bankAccountNumber = () =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((s) => s.replace(/\s/g, "").toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{8,34}$/, { error: "settings:payment.accountNumberInvalid" }))
      .optional(),
  );

const BANK_FIELDS = ["bankName", "bankAccountTitle", "bankAccountNumber"] as const;

/** Every account is optional, but a bank account needs its name, title and number together. */
export const paymentSchema = z
  .object({
    jazzcashNumber: walletNumber(),
    easypaisaNumber: walletNumber(),
    bankName: bankText(),
    bankAccountTitle: bankText(),
    bankAccountNumber: bankAccountNumber(),
  })
  .superRefine((v, ctx) => {
    if (!BANK_FIELDS.some((f) => v[f] !== undefined)) return;
    for (const f of BANK_FIELDS) {
      if (v[f] === undefined) ctx.addIssue({ code: "custom", path: [f], message: `settings:payment.${f}Required` });
    }
  });

export type PersonNameInput = z.input<typeof personNameSchema>;
export type NgoNameInput = z.input<typeof ngoNameSchema>;
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;
export type PaymentInput = z.input<typeof paymentSchema>;
