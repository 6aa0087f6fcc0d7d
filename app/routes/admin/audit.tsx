import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { Route } from "./+types/audit";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay } from "#shared/format.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatRupees } from "#shared/money.ts";

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
import { Pager } from "#app/components/pager.tsx";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { listAudit, type AuditDonation, type AuditEntry } from "#server/domain/audit/audit.ts";

export const handle = pageTitle("admin:audit.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "admin");
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const log = await listAudit(context.services.db, page);
  return { log: { ...log, rows: log.rows.map((r) => ({ ...r, createdAt: formatDateTime(r.createdAt, context.lang) })) } };
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Lang;
  /** A detail as a person reads it: rupees, a method's name, a day; a value from a fixed list in words; any other as stored. */
  const detailText = (key: string, value: string | number | null, entry: Pick<AuditEntry, "campaignTitle" | "donation">): string => {
    if (value === null) return "—";
    if (key === "campaignId" && entry.campaignTitle) return entry.campaignTitle;
    if (key === "donationId" && entry.donation) return donationText(entry.donation);
    if (key === "amount" && Number.isFinite(Number(value))) return formatRupees(Number(value), lang);
    if (key === "method") return t(`donations:methods.${String(value)}`, { defaultValue: String(value) });
    if (/Day$/.test(key) && typeof value === "string" && isDay(value)) return formatDay(value, lang);
    return t(`admin:audit.detailValues.${key}.${String(value)}`, { defaultValue: String(value) });
  };
  /** "Rs. 5,000 by JazzCash to Winter blankets, receipt No. 12", or the goods given: a donation named by what it was. */
  const donationText = (d: AuditDonation): string => {
    const text =
      d.kind === "cash" && d.amount !== null
        ? t("admin:audit.donation.cash", {
            amount: formatRupees(d.amount, lang),
            method: t(`donations:methods.${d.method ?? ""}`, { defaultValue: d.method ?? "" }),
            campaign: d.campaignTitle,
          })
        : t("admin:audit.donation.goods", { items: d.items ?? "", campaign: d.campaignTitle });
    return d.receipt === null ? text : t("admin:audit.donation.withReceipt", { donation: text, number: d.receipt });
  };
  const { log } = loaderData;
  return (
    <>
      <title>{`${t("admin:audit.title")} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("admin:audit.lead")}</p>
      {log.rows.length === 0 ? (
        <p className="text-slate-700">{t("admin:audit.none")}</p>
      ) : (
        // The table scrolls sideways on a phone: the region takes keyboard focus so it can be scrolled without a mouse.
        <div tabIndex={0} role="region" aria-label={t("admin:audit.title")} className="overflow-x-auto rounded-lg bg-white shadow-sm">
          <table className="w-full text-sm">
            <caption className="sr-only">{t("admin:audit.title")}</caption>
            <thead className="bg-slate-100">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:audit.when")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:audit.who")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:audit.what")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:audit.target")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:audit.details")}
                </th>
              </tr>
            </thead>
            <tbody>
              {log.rows.map((e) => (
                <tr key={e.id} className="border-t border-slate-200 align-top">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <DateTime value={e.createdAt} />
                  </td>
                  <td className="px-3 py-2 break-all">{e.actorEmail ?? t("admin:audit.system")}</td>
                  {/* Other areas add their own actions; an untranslated one still shows its name. */}
                  <td className="px-3 py-2">{t(`admin:actions.${e.action}`, { defaultValue: e.action })}</td>
                  <td className="px-3 py-2">
                    {e.targetEmail ? (
                      <>
                        {e.targetName && <span className="block font-medium">{e.targetName}</span>}
                        <span className="block break-all">{e.targetEmail}</span>
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="px-3 py-2">
                    {Object.keys(e.details).length === 0 ? (
                      "—"
                    ) : (
                      <dl>
                        {Object.entries(e.details).map(([key, value]) => (
                          <div key={key}>
                            <dt className="inline font-medium">{t(`admin:audit.detailKeys.${key}`, { defaultValue: key })}: </dt>
                            <dd className="inline break-words">{detailText(key, value, e)}</dd>
                          </div>
                        ))}
                      </dl>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={log.page} pages={log.pages} label={t("admin:audit.title")} />
    </>
  );
}
