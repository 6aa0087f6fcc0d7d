import { UserText } from "#app/components/user-text.tsx";
import { useId } from "react";
import { Mail, MapPin, Phone } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";

/**
 * What an approved volunteer does next (/dvh2): the NGO will get in touch, the position's timings say when the
 * work happens, and how to reach the NGO first (address, a phone a tap can call, an email a tap can write).
 */
export function ApprovedNextStep({
  ngoName,
  timings,
  contact,
}: {
  ngoName: string;
  timings: string;
  contact: { address: string; phone: string; email: string };
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-3 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-950">
      <p id={headingId} className="font-bold">
        {t("opportunities:history.nextStep.title")}
      </p>
      <p className="text-start">{t("opportunities:history.nextStep.body", { ngo: ngoName })}</p>
      <p className="mt-1">
        <span className="font-medium">{t("opportunities:history.nextStep.when")} </span>
        <UserText>{timings}</UserText>
      </p>
      <p className="mt-2 font-bold">{t("opportunities:history.nextStep.contact", { ngo: ngoName })}</p>
      <div className="mt-1 grid gap-1">
        <p className="flex items-start gap-2">
          <MapPin aria-hidden="true" className="mt-1 size-4 shrink-0" />
          <span className="sr-only">{t("opportunities:history.nextStep.address")} </span>
          <UserText className="min-w-0 text-start wrap-anywhere">{contact.address}</UserText>
        </p>
        <p>
          <a
            href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}
            aria-label={t("opportunities:history.nextStep.call", { phone: contact.phone })}
            className="inline-flex min-h-11 items-center gap-2 font-medium text-brand-800 underline hover:text-brand-900"
          >
            <Phone aria-hidden="true" className="size-4 shrink-0" />
            <span dir="ltr">{contact.phone}</span>
          </a>
        </p>
        <p>
          <a
            href={`mailto:${contact.email}`}
            aria-label={t("opportunities:history.nextStep.write", { email: contact.email })}
            className="inline-flex min-h-11 items-center gap-2 font-medium break-all text-brand-800 underline hover:text-brand-900"
          >
            <Mail aria-hidden="true" className="size-4 shrink-0" />
            <span dir="ltr">{contact.email}</span>
          </a>
        </p>
      </div>
    </section>
  );
}
