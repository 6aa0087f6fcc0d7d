import { data, redirect } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { donorSignUpSchema, ngoSignUpSchema, riderSignUpSchema } from "#shared/forms/accounts.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { signUp, type SignUp } from "#server/domain/accounts/sign-up.ts";

const SCHEMAS = { ngo: ngoSignUpSchema, donor: donorSignUpSchema, rider: riderSignUpSchema } as const;

/** Donors may sign in at once; NGOs and riders are told to wait for the administrator. */
const AFTER_SIGN_UP = {
  ngo: "/ngo_signin?notice=submitted",
  donor: "/donor_signin?notice=created",
  rider: "/rider_signin?notice=submitted",
} as const;

/** The action of the three sign-up screens: parse with the role's schema, create the account, go to sign-in. */
export async function signUpAction(role: SignUp["role"], request: Request, context: AppContext) {
  const submission = parseWithZod(await readFormData(request, context), { schema: SCHEMAS[role] });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const input = { role, data: submission.value, language: context.lang } as SignUp;
  const out = await formAction(submission, () => signUp(context.services, context.clientIp, input), ["password"]);
  if (!out.ok) return out.answer();
  return redirect(AFTER_SIGN_UP[role]);
}
