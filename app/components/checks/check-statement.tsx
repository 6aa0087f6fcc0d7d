import { BadgeCheck } from "lucide-react";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { VerifiedNgo } from "./badge.server.ts";

/**
 * The full badge of a page's NGOs (decision 051): under "What Ek Chhat checked", every standing check of each, one
 * sentence with its authority, number and dates. An NGO with none is left out; with none at all, nothing is shown.
 * `named`: say whose checks they are (a campaign run jointly); a profile's are its own.
 */
export function CheckStatement({ ngos, named }: { ngos: VerifiedNgo[]; named: boolean }) {
  const { t } = useTranslation();
  const shown = ngos.filter((n) => n.sentences.length > 0);
  if (shown.length === 0) return null;
  return (
    <section
      aria-labelledby="checks-title"
      className="rounded-lg border border-emerald-300 bg-emerald-50 p-4"
      data-testid="check-statement"
    >
      <h2 id="checks-title" className="flex items-center gap-2 text-lg font-bold text-emerald-950">
        <BadgeCheck aria-hidden="true" className="size-5 shrink-0" />
        {t("badge:title")}
      </h2>
      {shown.map((n) => (
        <div key={n.id} className="mt-2">
          {named && (
            <UserText as="p" className="break-words text-start font-bold text-emerald-950">
              {n.name}
            </UserText>
          )}
          <ul className="flex list-disc flex-col gap-1 ps-5 text-emerald-950">
            {n.sentences.map((s) => (
              <li key={s} className="break-words">
                {s}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="mt-2 text-sm text-emerald-900">{t("badge:explain")}</p>
    </section>
  );
}
