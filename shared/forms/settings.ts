import * as z from "zod/mini";
import { ACCOUNT_FIELD_MAX_LENGTH, ADDRESS_MAX_LENGTH } from "#shared/constants.ts";
import { address, blankToUndefined, contactNumber, givenPassword, image, newPassword, requiredText } from "./fields.ts";
import { MOBILE_PATTERN, nationalPhone } from "#shared/numbers.ts";

/**
 * The settings forms. Each page has several separate forms, told apart by a hidden `intent` field;
 * the same schemas are checked again by the domain functions, which may be called without a form.
 */
export const SETTINGS_INTENTS = ["name", "contact", "password", "picture", "removePicture", "payment"] as const;
export type SettingsIntent = (typeof SETTINGS_INTENTS)[number];

export const ngoNameSchema = z.object({
  name: requiredText("validation:nameRequired"),
});

/** The NGO's address and contact number (a mobile or a landline with its area code), as at sign-up. */
export const ngoContactSchema = z.object({
  address: address("validation:ngoAddressRequired"),
  contactNumber: contactNumber("validation:contactRequired"),
});
export type NgoContactInput = z.input<typeof ngoContactSchema>;

export const personNameSchema = z.object({
  firstName: requiredText("validation:firstNameRequired"),
  lastName: requiredText("validation:lastNameRequired"),
});

/** What the password change itself needs (the domain function's input). */
export const passwordChangeSchema = z.object({
  currentPassword: givenPassword("validation:currentPasswordRequired"),
  newPassword: newPassword(),
});

/** The form adds a confirmation, which must match. */
export const passwordFormSchema = z
  .extend(passwordChangeSchema, { confirmPassword: z.string({ error: "validation:passwordsDiffer" }) })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, {
      path: ["confirmPassword"],
      error: "validation:passwordsDiffer",
    }),
  );

export const pictureSchema = z.object({ picture: image("settings:picture.required") });

/** A JazzCash or Easypaisa mobile account: a mobile number as people type it (+92, dashes, Urdu digits). */
const walletNumber = () =>
  blankToUndefined(
    z.pipe(z.pipe(z.string(), z.transform(nationalPhone)), z.string().check(z.regex(MOBILE_PATTERN, "settings:payment.walletInvalid"))),
  );

const bankText = () => blankToUndefined(z.string().check(z.trim(), z.maxLength(ACCOUNT_FIELD_MAX_LENGTH, "validation:tooLong")));

/** An IBAN (PK + 22 characters) or a plain account number: letters and digits, 8 to 34 without spaces. */
const bankAccountNumber = () =>
  blankToUndefined(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((s: string) => s.replace(/\s/g, "").toUpperCase()),
      ),
      z.string().check(z.regex(/^[A-Z0-9]{8,34}$/, "settings:payment.accountNumberInvalid")),
    ),
  );

const BANK_FIELDS = ["bankName", "bankAccountTitle", "bankAccountNumber"] as const;

const paymentAccountFields = {
  jazzcashNumber: walletNumber(),
  easypaisaNumber: walletNumber(),
  bankName: bankText(),
  bankAccountTitle: bankText(),
  bankAccountNumber: bankAccountNumber(),
};

/**
 * A bank account needs its name, title and number together. Checked even when another field failed outright
 * (no current password at all), so every message shows at once; it reads only whether each bank field is there.
 */
const bankComplete = () =>
  z.superRefine(
    (v: Partial<Record<(typeof BANK_FIELDS)[number], string>>, ctx) => {
      if (!BANK_FIELDS.some((f) => v[f] !== undefined)) return;
      for (const f of BANK_FIELDS) {
        if (v[f] === undefined) ctx.addIssue({ code: "custom", path: [f], message: `settings:payment.${f}Required`, input: v });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );

/**
 * The accounts alone, as stored: every account is optional, but a bank account is whole. The payment guard
 * (server/domain/accounts/payment-guard.ts) reads stored values through it, so old and new compare alike.
 */
export const paymentAccountsSchema = z.object(paymentAccountFields).check(bankComplete());

/**
 * The payment form: the accounts and the current password, which a change of where donations go always needs
 * (a hijacked session alone cannot redirect them).
 */
export const paymentSchema = z
  .object({ ...paymentAccountFields, currentPassword: givenPassword("validation:currentPasswordRequired") })
  .check(bankComplete());

/** The rider's area forms on /rider_profile; kept apart from SETTINGS_INTENTS, which every settings page shares. */
export const RIDER_AREA_INTENTS = ["area", "clearArea"] as const;
export type RiderAreaIntent = (typeof RIDER_AREA_INTENTS)[number];

/** A coordinate as the form sends it (text), or as a caller that already parsed it passes it (a number). */
const coordinate = () =>
  blankToUndefined(
    z.pipe(
      z.union([z.string(), z.number()]),
      z.transform((v: string | number) => Number(v)),
    ),
  );

/**
 * Where the rider usually starts from: a place from the place search (its point, adjustable on the map, in
 * `areaLat`/`areaLng`). The server resolves the text to a place; NGOs then see the nearest riders first.
 */
export const riderAreaSchema = z.object({
  area: requiredText("settings:area.required", ADDRESS_MAX_LENGTH),
  areaLat: coordinate(),
  areaLng: coordinate(),
});

export type RiderAreaInput = z.input<typeof riderAreaSchema>;
export type PersonNameInput = z.input<typeof personNameSchema>;
export type NgoNameInput = z.input<typeof ngoNameSchema>;
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;
export type PaymentInput = z.input<typeof paymentSchema>;
export type PaymentAccountsInput = z.input<typeof paymentAccountsSchema>;
