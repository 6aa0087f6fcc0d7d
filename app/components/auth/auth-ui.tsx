import { TextField } from "#app/components/form.tsx";
import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { PublicShell } from "#app/components/public-shell.tsx";

import { IMAGE_ACCEPT } from "#shared/constants.ts";

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

/** An optional picture or logo upload; `keep` says that leaving it empty keeps the current one. */
export function PictureField({ field, label, keep = false }: { field: FieldMetadata<unknown>; label: string; keep?: boolean }) {
  const { t } = useTranslation();
  return (
    <TextField
      field={field}
      label={label}
      type="file"
      accept={IMAGE_ACCEPT}
      hint={t(keep ? "auth:fields.keepPictureHint" : "auth:fields.imageHint")}
    />
  );
}

/** The frame of the sign-in, sign-up and password pages: a titled card on the public shell. */
export function AuthPage({ title, lead, children }: { title: string; lead?: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <section className="mx-auto max-w-md rounded-lg bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-brand-900">{title}</h1>
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
