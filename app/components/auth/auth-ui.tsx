import { FileField, TextField } from "#app/components/form.tsx";
import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { PublicShell } from "#app/components/public-shell.tsx";

import { useEffect, useState } from "react";
import { IMAGE_ACCEPT, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "#shared/constants.ts";

/** The contact number field of the account forms. */
/** A contact number; an NGO may give a landline (its office), a person a mobile. */
export function ContactField({ field, landline = false }: { field: FieldMetadata<unknown>; landline?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextField
      field={field}
      label={t("auth:fields.contactNumber")}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      hint={t(landline ? "auth:fields.ngoContactHint" : "auth:fields.contactHint")}
    />
  );
}

/** A password being chosen, with every rule the server holds it to in its hint (shared/forms/fields.ts). */
export function NewPasswordField({ field, label }: { field: FieldMetadata<unknown>; label: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      field={field}
      label={label}
      type="password"
      autoComplete="new-password"
      hint={t("auth:fields.passwordHint", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
    />
  );
}

/**
 * An optional picture or logo upload; `keep` says that leaving it empty keeps the current one.
 *
 * A browser never refills a file input: when the form comes back from the server with errors (`returned`), a page
 * that reloaded without JavaScript has lost the chosen file, and says so. With JavaScript the form stays on the
 * page and keeps the file, so the note goes as soon as the input holds one.
 */
export function PictureField({
  field,
  label,
  keep = false,
  returned = false,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  keep?: boolean;
  returned?: boolean;
}) {
  const { t } = useTranslation();
  const [holdsFile, setHoldsFile] = useState(false);
  useEffect(() => {
    const input = document.getElementById(field.id);
    if (!(input instanceof HTMLInputElement)) return;
    const check = () => setHoldsFile((input.files?.length ?? 0) > 0);
    check();
    input.addEventListener("change", check);
    return () => input.removeEventListener("change", check);
  }, [field.id, returned]);
  return (
    <FileField
      field={field}
      label={label}
      accept={IMAGE_ACCEPT}
      hint={t(keep ? "auth:fields.keepPictureHint" : "auth:fields.imageHint")}
      note={returned && !holdsFile ? t("auth:fields.chooseAgain") : undefined}
    />
  );
}

/** The frame of the sign-in, sign-up and password pages: a titled card on the public shell. */
export function AuthPage({ title, lead, children }: { title: string; lead?: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <section className="mx-auto max-w-md rounded-lg bg-white p-4 shadow-sm sm:p-6">
        <h1 className="text-xl font-bold text-brand-900 sm:text-2xl">{title}</h1>
        {lead && <p className="mt-2 text-slate-700">{lead}</p>}
        <div className="mt-6">{children}</div>
      </section>
    </PublicShell>
  );
}

/** A confirmation shown after a step succeeded (account created, details sent, password changed). */
export function NoticeBox({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
      {children}
    </p>
  );
}
