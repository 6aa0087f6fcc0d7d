import { z } from "zod";
import { ROLES } from "~/lib/roles";
import { PASSWORD_MAX_LENGTH } from "~/lib/constants";
import { address, cnic, email, newPassword, optionalImage, phone, requiredText } from "./fields";

export const ngoSignUpSchema = z.object({
  name: requiredText("validation:ngoNameRequired"),
  address: address("validation:ngoAddressRequired"),
  registrationNumber: requiredText("validation:registrationRequired"),
  contactNumber: phone("validation:contactRequired"),
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
  picture: optionalImage(),
});

export const signInSchema = z.object({
  email: email(),
  password: z
    .string({ error: "validation:passwordRequired" })
    .min(1, "validation:passwordRequired")
    .max(PASSWORD_MAX_LENGTH, { error: "validation:tooLong" }),
  redirectTo: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: "auth:reset.invalidToken" }).min(1, "auth:reset.invalidToken"),
    password: newPassword(),
    confirm: z.string({ error: "validation:passwordsDiffer" }),
  })
  .refine((v) => v.password === v.confirm, { error: "validation:passwordsDiffer", path: ["confirm"] });

/** Re-submission after a rejection (NGOs and riders only): the sign-up fields without the email and password. */
export const ngoResubmitSchema = ngoSignUpSchema.omit({ email: true, password: true });
export const riderResubmitSchema = riderSignUpSchema.omit({ email: true, password: true });

export const roleSchema = z.enum(ROLES);

export type NgoSignUp = z.infer<typeof ngoSignUpSchema>;
export type DonorSignUp = z.infer<typeof donorSignUpSchema>;
export type RiderSignUp = z.infer<typeof riderSignUpSchema>;
export type NgoResubmit = z.infer<typeof ngoResubmitSchema>;
export type RiderResubmit = z.infer<typeof riderResubmitSchema>;
