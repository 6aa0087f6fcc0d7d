import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { CircleCheck } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/thanks";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { DonateStep } from "#app/components/donate-parts.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { formatRupees } from "#shared/money.ts";
import { cashDonationOfDonor, type DonorDonationSummary } from "#server/domain/donations/cash.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("donate:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const id = new URL(request.url).searchParams.get("donation") ?? "";
  let donation: DonorDonationSummary;
  try {
    donation = await cashDonationOfDonor(context.services.db, user, id);
  } catch (err) {
    throwHttp(err);
  }
  return {
    donation: {
      amount: donation.amount,
      method: donation.method,
      status: donation.status,
      campaignTitle: donation.campaignTitle,
      ngoName: donation.ngoName,
      createdAt: formatDateTime(donation.createdAt, context.lang),
    },
  };
}

/** /donate4: thanks, what was sent, and the ways on: the donor's history or another donation. */
export default function DonateThanks({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const d = loaderData.donation;
  const rows: [string, React.ReactNode][] = [
    [t("payment:thanks.amount"), formatRupees(d.amount, i18n.language)],
    [t("payment:thanks.campaign"), <UserText>{d.campaignTitle}</UserText>],
    [t("payment:thanks.ngo"), <UserText>{d.ngoName}</UserText>],
    [t("payment:thanks.method"), t(`donations:methods.${d.method}`)],
    [t("payment:thanks.sentAt"), <DateTime value={d.createdAt} />],
    [t("payment:thanks.status"), t(`donations:status.${d.status}`)],
  ];
  return (
    <>
      <title>{`${t("payment:thanks.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <DonateStep step={4} />
        <section aria-labelledby="thanks-heading" className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <div className="flex items-start gap-3">
            <CircleCheck aria-hidden="true" className="size-10 shrink-0 text-emerald-700" />
            <div>
              <h2 id="thanks-heading" className="text-2xl font-bold text-brand-900">
                {t("payment:thanks.title")}
              </h2>
              <p className="text-slate-700">{t("payment:thanks.lead")}</p>
            </div>
          </div>
          <h3 className="text-lg font-bold">{t("payment:thanks.summary")}</h3>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-sm text-slate-700 sm:text-base">{label}</dt>
                <dd className="mb-2 break-words font-bold text-slate-900 sm:mb-0">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-wrap gap-3 pt-2">
            <Link
              to="/dvh"
              className="inline-flex items-center rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50"
            >
              {t("payment:thanks.history")}
            </Link>
            <Link to="/donate1" className={brandButton("roomy", "inline-flex items-center")}>
              {t("payment:thanks.done")}
            </Link>
          </div>
        </section>
      </div>
    </>
  );
}
