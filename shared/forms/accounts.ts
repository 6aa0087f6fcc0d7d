import * as z from "zod/mini";
import { ADDRESS_MAX_LENGTH, REGISTRATION_MAX_LENGTH } from "#shared/constants.ts";
import { ROLES } from "#shared/roles.ts";
import {
  address,
  cnic,
  contactNumber,
  coordinate,
  email,
  givenPassword,
  newPassword,
  optionalImage,
  phone,
  requiredText,
} from "./fields.ts";

export const ngoSignUpSchema = z.object({
  name: requiredText("validation:ngoNameRequired"),
  address: address("validation:ngoAddressRequired"),
  registrationNumber: requiredText("validation:registrationRequired", REGISTRATION_MAX_LENGTH),
  contactNumber: contactNumber("validation:contactRequired"),
  email: email(),
  password: newPassword(),
  logo: optionalImage(),
});

export const donorSignUpSchema = z.object({
  firstName: requiredText("validation:firstNameRequired"),
  lastName: requiredText("validation:lastNameRequired"),
  address: address("validation:addressRequired"),
  contactNumber: phone("validation:contactRequired"),
  email: email(),
  password: newPassword(),
  picture: optionalImage(),
});

export const riderSignUpSchema = z.object({
  firstName: requiredText("validation:riderFirstNameRequired"),
  lastName: requiredText("validation:riderLastNameRequired"),
  email: email(),
  password: newPassword(),
  contactNumber: phone("validation:required"),
  cnic: cnic(),
  /** Where the rider usually starts from (the place field, its point in areaLat/areaLng): NGOs see the nearest riders first. */
  area: requiredText("settings:area.required", ADDRESS_MAX_LENGTH),
  areaLat: coordinate(),
  areaLng: coordinate(),
  picture: optionalImage(),
});

export const signInSchema = z.object({
  email: email(),
  password: givenPassword("validation:passwordRequired"),
  redirectTo: z.optional(z.string()),
});

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: "auth:reset.invalidToken" }).check(z.minLength(1, "auth:reset.invalidToken")),
    password: newPassword(),
    confirm: z.string({ error: "validation:passwordsDiffer" }),
  })
  .check(z.refine((v) => v.password === v.confirm, { error: "validation:passwordsDiffer", path: ["confirm"] }));

/** Re-submission after a rejection (NGOs and riders only): the sign-up fields without the email and password. */
export const ngoResubmitSchema = z.omit(ngoSignUpSchema, { email: true, password: true });
export const riderResubmitSchema = z.omit(riderSignUpSchema, {
  email: true,
  password: true,
  // The area was given at sign-up and is changed on the rider's profile, not on the re-submission.
  area: true,
  areaLat: true,
  areaLng: true,
});

export const roleSchema = z.enum(ROLES);

export type NgoSignUp = z.infer<typeof ngoSignUpSchema>;
export type DonorSignUp = z.infer<typeof donorSignUpSchema>;
export type RiderSignUp = z.infer<typeof riderSignUpSchema>;
export type NgoResubmit = z.infer<typeof ngoResubmitSchema>;
export type RiderResubmit = z.infer<typeof riderResubmitSchema>;
