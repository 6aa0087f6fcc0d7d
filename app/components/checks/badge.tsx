import { BadgeCheck } from "lucide-react";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { compactBadge } from "#shared/checks.ts";
import type { CheckKind } from "#shared/statuses.ts";
import type { VerifiedNgo } from "./badge.server.ts";

/**
 * A card's compact badge: the kinds of check its NGO has standing today ("Checked by Ek Chhat: Registered · Tax-exempt"),
 * nothing when it has none. The full statement with numbers and dates is on the campaign page and the profile.
 */
export function CompactCheckBadge({ kinds }: { kinds: readonly CheckKind[] }) {
  const { t } = useTranslation();
  if (kinds.length === 0) return null;
  return (
    <p data-testid="check-badge">
      <span className="inline-flex items-start gap-1 rounded bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900">
        <BadgeCheck aria-hidden="true" className="size-4 shrink-0" />
        {t("badge:compactLabel", { kinds: compactBadge(kinds, t) })}
      </span>
    </p>
  );
}

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
