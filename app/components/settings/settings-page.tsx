import type { SubmissionResult } from "@conform-to/react";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, useActionData, useSearchParams } from "react-router";
import { FileField, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import type { SettingsIntent } from "#shared/forms/settings.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { brandButton } from "#app/components/ui/button.ts";

/** The forms of the settings pages, shared by the NGO, donor and rider screens. */

type ActionData = { intent: SettingsIntent; result: SubmissionResult<string[]> } | undefined;

/** The action's reply, but only for the form that was sent: each form sees its own errors. */
function useResult(...intents: SettingsIntent[]) {
  const actionData = useActionData() as ActionData;
  return actionData && intents.includes(actionData.intent) ? actionData.result : undefined;
}

const SAVED_MESSAGES: Record<SettingsIntent, string> = {
  name: "settings:name.saved",
  contact: "settings:contact.saved",
  password: "settings:password.saved",
  picture: "settings:picture.saved",
  removePicture: "settings:picture.removed",
  payment: "settings:payment.saved",
};

/** One titled card with its own form, and the success message after that form was saved. */
function Section({
  id,
  title,
  intents,
  lead,
  children,
}: {
  id: string;
  title: string;
  intents: SettingsIntent[];
  lead?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const saved = params.get("saved") as SettingsIntent | null;
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg bg-white p-4 shadow-sm md:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-bold text-brand-900">
        {title}
      </h2>
      {lead && <p className="mt-1 text-slate-700">{lead}</p>}
      {saved && intents.includes(saved) && (
        <p role="status" className="mt-3 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(SAVED_MESSAGES[saved])}
        </p>
      )}
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Intent({ value }: { value: SettingsIntent }) {
  return <input type="hidden" name="intent" value={value} />;
}

const buttonClass = brandButton("page");

export function NgoNameForm({ name }: { name: string }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.ngoNameSchema), {
    id: "name-form",
    lastResult: useResult("name"),
    defaultValue: { name },
  });
  return (
    <Section id="name" title={t("settings:name.heading")} intents={["name"]}>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <Intent value="name" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <TextField field={fields.name} label={t("settings:name.ngoName")} autoComplete="organization" />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:name.submit")}</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

/** The NGO's address and contact number (mobile or landline). */
export function NgoContactForm({ address, contactNumber }: { address: string; contactNumber: string }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.ngoContactSchema), {
    id: "contact-form",
    lastResult: useResult("contact"),
    defaultValue: { address, contactNumber },
  });
  return (
    <Section id="contact" title={t("settings:contact.heading")} intents={["contact"]}>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <Intent value="contact" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <TextField field={fields.address} label={t("settings:contact.address")} autoComplete="street-address" />
        <TextField
          field={fields.contactNumber}
          type="tel"
          label={t("settings:contact.contactNumber")}
          autoComplete="tel"
          hint={t("settings:contact.contactHint")}
        />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:contact.submit")}</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

export function PersonNameForm({ firstName, lastName }: { firstName: string; lastName: string }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.personNameSchema), {
    id: "name-form",
    lastResult: useResult("name"),
    defaultValue: { firstName, lastName },
  });
  return (
    <Section id="name" title={t("settings:name.heading")} intents={["name"]}>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <Intent value="name" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <TextField field={fields.firstName} label={t("settings:name.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("settings:name.lastName")} autoComplete="family-name" />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:name.submit")}</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

/** Passwords are never sent back by the server (the action hides them), so a failed try starts empty. */
export function PasswordForm() {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.passwordFormSchema), {
    id: "password-form",
    lastResult: useResult("password"),
  });
  return (
    <Section id="password" title={t("settings:password.heading")} intents={["password"]} lead={t("settings:password.lead")}>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <Intent value="password" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <TextField field={fields.currentPassword} type="password" label={t("settings:password.current")} autoComplete="current-password" />
        <TextField
          field={fields.newPassword}
          type="password"
          label={t("settings:password.new")}
          hint={t("settings:password.hint")}
          autoComplete="new-password"
        />
        <TextField field={fields.confirmPassword} type="password" label={t("settings:password.confirm")} autoComplete="new-password" />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:password.submit")}</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

/** Upload a new logo / picture, or remove it so the default stands in. */
export function PictureForm({ pictureKey, kind }: { pictureKey: string | null; kind: "logo" | "avatar" }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.pictureSchema), {
    id: "picture-form",
    lastResult: useResult("picture", "removePicture"),
  });
  const words = kind === "logo" ? "logo" : "avatar";
  return (
    <Section id="picture" title={t(`settings:picture.${words}.heading`)} intents={["picture", "removePicture"]}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={pictureUrl(pictureKey, kind)}
          alt={t(`settings:picture.${words}.current`)}
          width={96}
          height={96}
          className="h-24 w-24 shrink-0 rounded-full border border-slate-200 bg-white object-cover"
          data-testid="settings-picture"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-4">
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="flex flex-col gap-4">
            <Intent value="picture" />
            <ErrorBox errors={form.errors} id={form.errorId} />
            <FileField
              field={fields.picture}
              accept="image/jpeg,image/png,image/webp"
              label={t(`settings:picture.${words}.new`)}
              hint={t("settings:picture.hint")}
            />
            <div>
              <SubmitButton className={buttonClass}>{t("settings:picture.submit")}</SubmitButton>
            </div>
          </Form>
          {pictureKey && (
            <Form method="post">
              <Intent value="removePicture" />
              <button type="submit" className="rounded-lg border-2 border-red-700 px-4 py-2 font-bold text-red-800 hover:bg-red-50">
                {t(`settings:picture.${words}.remove`)}
              </button>
            </Form>
          )}
        </div>
      </div>
    </Section>
  );
}

export interface PaymentDefaults {
  jazzcashNumber: string | null;
  easypaisaNumber: string | null;
  bankName: string | null;
  bankAccountTitle: string | null;
  bankAccountNumber: string | null;
}

/**
 * Where donors pay. A change needs the current password (never sent back, so a failed try starts it empty) and
 * is announced to the NGO; donors are told for a day that the accounts changed (decision 024).
 */
export function PaymentForm({ accounts, noticeHours }: { accounts: PaymentDefaults; noticeHours: number }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.paymentSchema), {
    id: "payment-form",
    lastResult: useResult("payment"),
    defaultValue: {
      jazzcashNumber: accounts.jazzcashNumber ?? "",
      easypaisaNumber: accounts.easypaisaNumber ?? "",
      bankName: accounts.bankName ?? "",
      bankAccountTitle: accounts.bankAccountTitle ?? "",
      bankAccountNumber: accounts.bankAccountNumber ?? "",
    },
  });
  return (
    <Section
      id="payment"
      title={t("settings:payment.heading")}
      intents={["payment"]}
      lead={t("settings:payment.lead", { hours: noticeHours })}
    >
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <Intent value="payment" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <TextField
          field={fields.jazzcashNumber}
          type="tel"
          inputMode="numeric"
          label={t("settings:payment.jazzcash")}
          hint={t("settings:payment.walletHint")}
        />
        <TextField
          field={fields.easypaisaNumber}
          type="tel"
          inputMode="numeric"
          label={t("settings:payment.easypaisa")}
          hint={t("settings:payment.walletHint")}
        />
        <fieldset className="flex flex-col gap-4 rounded-md border border-slate-200 p-3">
          <legend className="px-1 font-bold text-slate-800">{t("settings:payment.bank")}</legend>
          <p className="text-sm text-slate-600">{t("settings:payment.bankHint")}</p>
          <TextField field={fields.bankName} label={t("settings:payment.bankName")} />
          <TextField field={fields.bankAccountTitle} label={t("settings:payment.bankAccountTitle")} />
          <TextField
            field={fields.bankAccountNumber}
            label={t("settings:payment.bankAccountNumber")}
            hint={t("settings:payment.accountHint")}
          />
        </fieldset>
        <TextField
          field={fields.currentPassword}
          type="password"
          label={t("settings:payment.currentPassword")}
          hint={t("settings:payment.currentPasswordHint")}
          autoComplete="current-password"
        />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:payment.submit")}</SubmitButton>
        </div>
      </Form>
    </Section>
  );
}
