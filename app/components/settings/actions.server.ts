import { parseWithZod } from "#shared/forms/parse.ts";
import { data, redirect } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import * as z from "zod/mini";
import {
  ngoContactSchema,
  ngoNameSchema,
  passwordFormSchema,
  paymentSchema,
  personNameSchema,
  pictureSchema,
  type SettingsIntent,
} from "#shared/forms/settings.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import {
  changeNgoContact,
  changeNgoName,
  changePassword,
  changePersonName,
  changePicture,
  removePicture,
  updatePaymentAccounts,
} from "#server/domain/accounts/settings.ts";

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

/**
 * The one action behind /settingsNGO, /settingsDonor and /rider_profile. Each page holds several forms;
 * the hidden `intent` field says which one was sent. A success redirects back with `?saved=<intent>`
 * (so a reload never sends the form again); a failure answers with the form's errors and its intent, so
 * the page shows them on the right form.
 */
export async function settingsAction(
  request: Request,
  context: AppContext,
  role: "ngo" | "donor" | "rider",
  /** The body, when the page's own action has already read it (one read, through readFormData). */
  body?: FormData,
) {
  const actor = requireUser(context, role);
  const { services } = context;
  const formData = body ?? (await readFormData(request, context));
  const intent = String(formData.get("intent") ?? "") as SettingsIntent;
  const back = `${new URL(request.url).pathname}?saved=${intent}`;

  async function run<S extends z.ZodMiniType>(schema: S, call: (value: z.output<S>) => Promise<unknown>, hideFields: string[] = []) {
    const submission = parseWithZod(formData, { schema });
    if (submission.status !== "success") {
      return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 });
    }
    const outcome = await formAction(submission, () => call(submission.value as z.output<S>), hideFields);
    if (!outcome.ok) return outcome.answer({ intent });
    return redirect(back);
  }

  switch (intent) {
    case "name":
      return role === "ngo"
        ? run(ngoNameSchema, (v) => changeNgoName(services.db, actor, v))
        : run(personNameSchema, (v) => changePersonName(services.db, actor, v));
    case "contact":
      if (role !== "ngo") break;
      return run(ngoContactSchema, (v) => changeNgoContact(services.db, actor, v));
    case "password":
      return run(
        passwordFormSchema,
        (v) => changePassword(services.db, actor, { ...v, keepSessionToken: context.sessionToken }),
        PASSWORD_FIELDS,
      );
    case "picture":
      return run(pictureSchema, (v) => changePicture(services, actor, v));
    case "removePicture":
      return run(z.object({}), () => removePicture(services, actor));
    case "payment":
      if (role !== "ngo") break;
      // The current password is never sent back, whatever the outcome.
      return run(paymentSchema, (v) => updatePaymentAccounts(services, actor, v), ["currentPassword"]);
  }
  throw data({ message: "errors:notFound" }, { status: 400 });
}

export type SettingsActionData = Awaited<ReturnType<typeof settingsAction>>;
