import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { CircleCheck } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/thanks";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { DonateStep } from "#app/components/donate-parts.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { goodsDonationOfDonor } from "#server/domain/pickups/pickups.ts";
import { donorSeesCode } from "#server/domain/pickups/states.ts";
import { PickupCodeBox } from "#app/components/history/history-ui.tsx";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("donate:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const id = new URL(request.url).searchParams.get("donation") ?? "";
  let d: Awaited<ReturnType<typeof goodsDonationOfDonor>>;
  try {
    d = await goodsDonationOfDonor(context.services.db, user, id);
  } catch (err) {
    throwHttp(err);
  }
  return {
    donation: {
      items: d.items,
      address: d.address,
      areaLabel: placeLabelFor({ label: d.areaLabel, labelUr: d.areaLabelUr }, context.lang),
      windowDay: formatDay(d.windowDate, context.lang, "weekday"),
      windowSlot: d.windowSlot,
      status: d.status,
      // The door code while the goods can still be collected, as on /dvh (the pick-up table decides).
      code: donorSeesCode(d.status) ? d.code : null,
      campaignTitle: d.campaignTitle,
      ngoName: d.ngoName,
      dropoff: [
        d.dropoff.name,
        d.dropoff.address,
        d.dropoff.areaLabel && placeLabelFor({ label: d.dropoff.areaLabel, labelUr: d.dropoff.areaLabelUr }, context.lang),
      ]
        .filter(Boolean)
        .join(", "),
      createdAt: formatDateTime(d.createdAt, context.lang),
    },
  };
}

/** /donate6: thanks, the pick-up code to give the rider, what was sent, and the ways on. */
export default function GoodsThanks({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData.donation;
  const rows: [string, React.ReactNode][] = [
    [t("goods:thanks.items"), <UserText className="whitespace-pre-line">{d.items}</UserText>],
    [
      t("goods:thanks.address"),
      <UserText>
        {d.address}, {d.areaLabel}
      </UserText>,
    ],
    [t("goods:thanks.window"), t("goods:window", { day: d.windowDay, slot: t(`pickups:slots.${d.windowSlot}`) })],
    [t("goods:thanks.campaign"), <UserText>{d.campaignTitle}</UserText>],
    [t("goods:thanks.ngo"), <UserText>{d.ngoName}</UserText>],
    [t("goods:thanks.dropoff"), <UserText data-testid="goods-dropoff">{d.dropoff}</UserText>],
    [t("goods:thanks.sentAt"), <DateTime value={d.createdAt} />],
    [t("goods:thanks.status"), t(`pickups:status.${d.status}`)],
  ];
  return (
    <>
      <title>{`${t("goods:thanks.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <DonateStep step={3} flow="goods" />
        <section aria-labelledby="thanks-heading" className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <div className="flex items-start gap-3">
            <CircleCheck aria-hidden="true" className="size-10 shrink-0 text-emerald-700" />
            <div>
              <h2 id="thanks-heading" className="text-2xl font-bold text-brand-900">
                {t("goods:thanks.title")}
              </h2>
              <p className="text-slate-700">{t("goods:thanks.lead")}</p>
            </div>
          </div>
          {d.code && <PickupCodeBox code={d.code} />}
          <h3 className="text-lg font-bold">{t("goods:thanks.summary")}</h3>
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
              {t("goods:thanks.history")}
            </Link>
            <Link to="/donate5" className={brandButton("roomy", "inline-flex items-center")}>
              {t("goods:thanks.done")}
            </Link>
          </div>
        </section>
      </div>
    </>
  );
}
