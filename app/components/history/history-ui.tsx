import { UserText } from "#app/components/user-text.tsx";
import { href } from "react-router";
import { FileDown, KeyRound } from "lucide-react";
import { DateTime } from "#app/components/date-time.tsx";
import type { FormattedTime } from "#shared/format.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { formatRupees } from "#shared/money.ts";

/** The pieces both histories (/dvh and /donHistory) show the same way. */

const BADGE: Record<string, string> = {
  pending: "bg-amber-100 text-amber-900 border-amber-300",
  approved: "bg-emerald-100 text-emerald-900 border-emerald-300",
  rejected: "bg-red-100 text-red-900 border-red-300",
};

/** A donation's state as a coloured badge with its words (the colour is never the only signal). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-bold whitespace-nowrap ${BADGE[status] ?? "bg-slate-100 text-slate-900 border-slate-300"}`}
    >
      {/* A state added by a later area still shows its name until it is translated. */}
      {t(`donations:status.${status}`, { defaultValue: status })}
    </span>
  );
}

/** Cash shows its amount, in-kind its items. */
export function AmountOrItems({ amount, items }: { amount: number | null; items: string | null }) {
  const { i18n } = useTranslation();
  if (amount !== null) return <span className="font-bold whitespace-nowrap">{formatRupees(amount, i18n.language)}</span>;
  return <span className="break-words">{items ?? "—"}</span>;
}

/**
 * How to reach the NGO that disapproved a gift, as it keeps them in its settings: the address, a phone number to
 * call and an address to write to (links a phone opens in its dialler or mail program).
 */
export function NgoContact({
  contact,
  headingId,
}: {
  contact: { name: string; address: string; phone: string; email: string };
  headingId: string;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={headingId} className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm" data-testid="ngo-contact">
      <h3 id={headingId} className="font-bold text-slate-900">
        {t("history:contact.heading", { name: contact.name })}
      </h3>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium text-slate-700">{t("history:contact.address")}</dt>
        <UserText as="dd" className="min-w-0 text-start break-words text-slate-900">
          {contact.address}
        </UserText>
        <dt className="font-medium text-slate-700">{t("history:contact.phone")}</dt>
        <dd className="min-w-0">
          <a href={`tel:${contact.phone}`} dir="ltr" className="font-medium text-brand-800 underline">
            {contact.phone}
          </a>
        </dd>
        <dt className="font-medium text-slate-700">{t("history:contact.email")}</dt>
        <dd className="min-w-0 break-all">
          <a href={`mailto:${contact.email}`} dir="ltr" className="font-medium text-brand-800 underline">
            {contact.email}
          </a>
        </dd>
      </dl>
    </section>
  );
}

/**
 * The receipt download: a plain link (a resource route, not a page), so the browser downloads the PDF with
 * or without JavaScript.
 */
export function ReceiptLink({ id, number }: { id: string; number: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={href("/receipts/:id", { id })}
      download
      aria-label={t("history:receiptLinkLabel", { number })}
      className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium whitespace-nowrap text-brand-800 hover:bg-brand-50"
    >
      <FileDown aria-hidden="true" className="size-4" />
      {t("history:receiptLink")}
    </a>
  );
}

const PICKUP_BADGE: Record<string, string> = {
  new: "bg-amber-100 text-amber-900 border-amber-300",
  assigned: "bg-sky-100 text-sky-900 border-sky-300",
  accepted: "bg-sky-100 text-sky-900 border-sky-300",
  collected: "bg-indigo-100 text-indigo-900 border-indigo-300",
  delivered: "bg-indigo-100 text-indigo-900 border-indigo-300",
  received: "bg-emerald-100 text-emerald-900 border-emerald-300",
  cancelled: "bg-red-100 text-red-900 border-red-300",
};

/** An in-kind donation's pick-up state (waiting for a rider … received, or cancelled) as a badge with its words. */
export function PickupStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-bold whitespace-nowrap ${PICKUP_BADGE[status] ?? "bg-slate-100 text-slate-900 border-slate-300"}`}
    >
      {t(`pickups:status.${status}`, { defaultValue: status })}
    </span>
  );
}

/** The 4-digit code the donor gives the rider at the door, large, with what it is for. */
export function PickupCodeBox({ code, compact = false }: { code: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`flex flex-col gap-1 rounded-lg border-2 border-brand-700 bg-brand-50 ${compact ? "p-3" : "p-4"}`}>
      <p className="flex items-center gap-2 font-bold text-brand-900">
        <KeyRound aria-hidden="true" className="size-5" />
        {t("goods:code.label")}
      </p>
      <p
        dir="ltr"
        className={`text-start font-mono font-bold tracking-[0.3em] text-slate-900 ${compact ? "text-2xl" : "text-4xl"}`}
        data-testid="pickup-code"
      >
        {code}
      </p>
      <p className="text-sm text-slate-800">{t("goods:code.explain")}</p>
    </div>
  );
}

export interface TimelineStep {
  type: string;
  at: FormattedTime;
  riderName: string | null;
}

/** Every step of a pick-up with its time, oldest first, as an ordered list. */
export function PickupTimeline({ steps, labelledBy }: { steps: TimelineStep[]; labelledBy?: string }) {
  const { t } = useTranslation();
  return (
    <ol aria-labelledby={labelledBy} className="flex flex-col gap-2 border-s-2 border-brand-200 ps-4">
      {steps.map((s, i) => (
        <li key={`${s.type}-${i}`} className="relative flex flex-col" data-step={s.type}>
          <span aria-hidden="true" className="absolute -start-[1.4rem] top-1.5 size-3 rounded-full bg-brand-700" />
          <span className="font-medium text-slate-900">
            {t(`pickups:events.${s.type}`, { rider: s.riderName ?? t("goods:aRider"), defaultValue: s.type })}
          </span>
          <DateTime value={s.at} className="text-sm text-slate-700" />
        </li>
      ))}
    </ol>
  );
}
