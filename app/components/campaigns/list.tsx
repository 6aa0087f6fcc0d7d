import { UserText } from "#app/components/user-text.tsx";
import { ChartColumn, MapPin, Megaphone, Pencil, Plus, Printer, ReceiptText, Trash2 } from "lucide-react";
import { href, Link, NavLink, useLocation } from "react-router";
import { Pager } from "#app/components/pager.tsx";
import { NoAccountWarning } from "./no-account-warning.tsx";
import { progressBar } from "#app/components/progress-bar.tsx";
import { SearchForm } from "#app/components/search-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { analyticsHref, publicCampaignPath } from "#app/lib/campaign-links.ts";
import { spendingHref } from "#app/lib/ledger-links.ts";
import { PICTURE_SIZES } from "#shared/pictures.ts";
import type { CampaignTab } from "#shared/constants.ts";
import type { campaignListLoader } from "./list.server.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { fundBadgeSpans } from "#app/components/funds/fund-badges.tsx";

const TAB_PATH: Record<CampaignTab, string> = { ongoing: "/campaigns", successful: "/comp_camp" };

/** /campaigns (On Going) and /comp_camp (Successful): the NGO's own and joint campaigns, searched and paged. */
export function CampaignList({ loaderData }: { loaderData: Awaited<ReturnType<typeof campaignListLoader>> }) {
  const { t } = useTranslation();
  const { tab, q, notice, campaigns, canTakeCash } = loaderData;
  const location = useLocation();
  const heading = t(tab === "ongoing" ? "campaigns:list.ongoing" : "campaigns:list.successful");
  const tabClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-t-md border-b-4 px-4 py-2 font-bold ${isActive ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"}`;
  return (
    <>
      <title>{`${heading} · ${t("common:brand")}`}</title>
      {tab === "ongoing" && !canTakeCash && <NoAccountWarning />}
      {notice && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`campaigns:notices.${notice}`)}
        </p>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-300">
        <nav aria-label={t("campaigns:list.tabs")} className="flex gap-1">
          <NavLink to={TAB_PATH.ongoing} end className={tabClass}>
            {t("campaigns:list.ongoing")}
          </NavLink>
          <NavLink to={TAB_PATH.successful} end className={tabClass}>
            {t("campaigns:list.successful")}
          </NavLink>
        </nav>
        <Link to="/create_camp" className={brandButton("page", "mb-2 inline-flex items-center gap-1")}>
          {t("campaigns:list.create")}
          <Plus aria-hidden="true" className="size-5" />
        </Link>
      </div>

      <div className="my-4">
        <SearchForm
          action={location.pathname}
          id="campaign-search"
          q={q}
          label={t("campaigns:list.searchLabel")}
          placeholder={t("campaigns:list.searchPlaceholder")}
          submitLabel={t("campaigns:list.search")}
        />
      </div>

      <h2 className="sr-only">{heading}</h2>
      {campaigns.rows.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {q ? t("campaigns:list.noMatch", { q }) : t(tab === "ongoing" ? "campaigns:list.emptyOngoing" : "campaigns:list.emptySuccessful")}
        </p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {campaigns.rows.map((c, i) => (
            <li key={c.id} className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm sm:flex-row">
              <img
                src={c.picture}
                srcSet={c.pictureSrcSet}
                sizes={PICTURE_SIZES.row}
                alt=""
                className="h-36 w-full object-cover sm:h-auto sm:w-36"
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : "auto"}
              />
              <div className="flex flex-1 flex-col gap-2 p-4">
                <div className="flex items-start justify-between gap-2">
                  <h3 className="text-lg font-bold text-slate-900">
                    <Link to={publicCampaignPath(c.slug)} className="hover:underline">
                      <UserText>{c.title}</UserText>
                    </Link>
                  </h3>
                  {c.role === "owner" && (
                    <div className="flex shrink-0 gap-1">
                      <Link
                        to={href("/campaigns/:id/edit", { id: c.id })}
                        aria-label={t("campaigns:list.edit", { title: c.title })}
                        title={t("campaigns:list.editShort")}
                        className="rounded-md p-2 text-brand-800 hover:bg-brand-50"
                      >
                        <Pencil aria-hidden="true" className="size-5" />
                      </Link>
                      <Link
                        to={href("/campaigns/:id/delete", { id: c.id })}
                        aria-label={t("campaigns:list.delete", { title: c.title })}
                        title={t("campaigns:list.deleteShort")}
                        className="rounded-md p-2 text-red-700 hover:bg-red-50"
                      >
                        <Trash2 aria-hidden="true" className="size-5" />
                      </Link>
                    </div>
                  )}
                </div>
                <p className="text-slate-700">{c.preview}</p>
                <p className="flex items-center gap-1 text-sm text-slate-700">
                  <MapPin aria-hidden="true" className="size-4 shrink-0" />
                  <UserText>{c.locationLabel}</UserText>
                </p>
                <p className="text-sm text-slate-700">
                  {t(c.partners.length > 1 ? "campaigns:list.jointWith" : "campaigns:list.by", { names: c.partners.join(", ") })}
                  {c.role === "partner" && (
                    <span className="ms-2 rounded bg-slate-200 px-2 py-0.5 text-xs font-bold">{t("campaigns:list.partnerBadge")}</span>
                  )}
                  {c.fundBadges.length > 0 && (
                    <span className="ms-2 inline-flex flex-wrap gap-2">{fundBadgeSpans({ badges: c.fundBadges })}</span>
                  )}
                </p>
                {progressBar({ collected: c.collectedAmount, target: c.targetAmount, label: c.progressLabel })}
                <div className="mt-auto flex flex-wrap gap-2 pt-1">
                  <Link
                    to={analyticsHref(c.id, tab === "ongoing" ? "campaigns" : "comp_camp")}
                    className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
                  >
                    <ChartColumn aria-hidden="true" className="size-4" />
                    {t("campaigns:list.analytics")}
                  </Link>
                  <Link
                    to={spendingHref(c.id)}
                    aria-label={t("ledger:ngo.linkLabel", { title: c.title })}
                    className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
                  >
                    <ReceiptText aria-hidden="true" className="size-4" />
                    {t("ledger:ngo.link")}
                  </Link>
                  <Link
                    to={href("/campaigns/:id/updates", { id: c.id })}
                    className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
                  >
                    <Megaphone aria-hidden="true" className="size-4" />
                    {t("updates:links.updates")}
                  </Link>
                  {tab === "ongoing" && (
                    <a
                      href={href("/campaigns/:id/poster", { id: c.id })}
                      download
                      aria-label={t("campaigns:poster.linkLabel", { title: c.title })}
                      className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
                    >
                      <Printer aria-hidden="true" className="size-4" />
                      {t("campaigns:poster.link")}
                    </a>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={campaigns.page} pages={campaigns.pages} label={heading} />
    </>
  );
}
