import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PublicShell } from "#app/components/public-shell.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";

/**
 * A public page that holds all of one part of a campaign's page (its ledger, its updates): the link back to the
 * campaign, the heading (a campaign's title is the NGO's text: `UserText`), then the page's sections.
 */
export function PublicSubpage({
  slug,
  heading,
  back,
  headingId,
  children,
}: {
  slug: string;
  heading: string;
  back: string;
  headingId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <title>{`${heading} · ${t("common:brand")}`}</title>
      <article className="mx-auto flex max-w-3xl flex-col gap-6" aria-labelledby={headingId}>
        <p>
          <Link
            to={publicCampaignPath(slug)}
            className="inline-flex items-center gap-1 font-medium text-brand-800 underline underline-offset-2"
          >
            <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
            {back}
          </Link>
        </p>
        <UserText as="h1" id={headingId} className="break-words text-start text-2xl font-bold text-brand-900">
          {heading}
        </UserText>
        {children}
      </article>
    </PublicShell>
  );
}
