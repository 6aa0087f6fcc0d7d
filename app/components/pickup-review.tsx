import { useTranslation } from "#app/i18n/provider.ts";
import { DateTime } from "#app/components/date-time.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { PickupActions, type PickupActionData } from "#app/components/pickup-actions.tsx";
import { DirectionsLink, PhoneLink } from "#app/components/pickup-links.tsx";
import { PickupTimeline } from "#app/components/pickup-timeline.tsx";
import { ReviewDialog } from "#app/components/review-dialog.tsx";
import { UserText } from "#app/components/user-text.tsx";
import type { PickupView } from "#app/routes/assign/noncash-apps.tsx";

type Detail = Extract<PickupView, { found: true }>;
type Parts = { state: React.ReactNode; window: React.ReactNode };

/**
 * The dialog of /noncash_apps (a pick-up request opened from the list, or one that is not found), in a chunk of its
 * own that the page fetches when a request is opened (decision 033). The request's state badge and window are drawn
 * by the page, which draws them on the list's cards too: importing them here would make the list's chunk export them
 * to this one, through a second file the list then loads as well.
 */
export default function PickupReviewDialog({
  view,
  closeHref,
  notice,
  actionData,
  formErrors,
  parts,
}: {
  view: PickupView;
  closeHref: string;
  notice: React.ReactNode;
  actionData: PickupActionData;
  formErrors: string[];
  /** The request's state badge and its window, as the list draws them. */
  parts: Parts;
}) {
  const { t } = useTranslation();
  return (
    <ReviewDialog titleId="assign-dialog-title" closeHref={closeHref} closeLabel={t("assign:dialog.close")}>
      {view.found ? (
        <PickupReview detail={view} notice={notice} actionData={actionData} formErrors={formErrors} parts={parts} />
      ) : (
        <>
          <h2 id="assign-dialog-title" className="pe-24 text-xl font-bold text-brand-900">
            {t("assign:dialog.notFoundTitle")}
          </h2>
          <p className="mt-3 text-slate-800">{t("assign:dialog.notFound")}</p>
          <div className="mt-3">
            <ErrorBox errors={formErrors} />
          </div>
        </>
      )}
    </ReviewDialog>
  );
}

/** The dialog's content: every detail of the request, its steps with times, and the actions its state allows. */
function PickupReview({
  detail,
  notice,
  actionData,
  formErrors,
  parts,
}: {
  detail: Detail;
  notice: React.ReactNode;
  actionData: PickupActionData;
  formErrors: string[];
  parts: Parts;
}) {
  const { t } = useTranslation();
  const rows: [string, React.ReactNode][] = [
    [t("assign:fields.state"), parts.state],
    [
      t("assign:fields.items"),
      <span key="items" className="whitespace-pre-line">
        <UserText>{detail.items}</UserText>
      </span>,
    ],
    [t("assign:fields.phone"), detail.phone ? <PhoneLink key="phone" phone={detail.phone} /> : ""],
    [
      t("assign:fields.address"),
      <span key="address" className="flex flex-col gap-1">
        <UserText>{detail.address}</UserText>
        <span className="text-slate-700">{detail.areaLabel}</span>
        <DirectionsLink lat={detail.lat} lng={detail.lng} />
      </span>,
    ],
    [t("assign:fields.window"), parts.window],
    [t("assign:fields.campaign"), detail.campaignTitle],
    [t("assign:fields.donor"), detail.donorName],
    [t("funds:review.fund"), t(`funds:kinds.${detail.fund}`)],
    ...(detail.inNameOf ? ([[t("funds:review.inNameOf"), detail.inNameOf]] as [string, React.ReactNode][]) : []),
    [t("funds:review.shown"), t(detail.showName ? "funds:csv.yes" : "funds:review.anonymous")],
    [
      t("assign:fields.dropoff"),
      <span key="dropoff" className="flex flex-col" data-testid="assign-dropoff">
        <UserText className="font-medium">{detail.dropoff.name}</UserText>
        <UserText>{detail.dropoff.address}</UserText>
        {detail.dropoff.areaLabel && <span className="text-slate-700">{detail.dropoff.areaLabel}</span>}
        {(detail.dropoff.distance !== null || detail.dropoff.near) && (
          <span className="text-slate-700">
            {detail.dropoff.near ? t("assign:dropoffNear") : t("assign:dropoffKm", { km: detail.dropoff.distance ?? "" })}
          </span>
        )}
      </span>,
    ],
    [t("assign:fields.rider"), detail.riderName ?? t("assign:noRider")],
    [t("assign:fields.requested"), <DateTime key="requested" value={detail.createdAt} />],
  ];
  if (detail.receivedNote)
    rows.push([
      t("assign:fields.receivedNote"),
      <span key="note" className="whitespace-pre-line">
        {detail.receivedNote}
      </span>,
    ]);
  return (
    <>
      <h2 id="assign-dialog-title" className="pe-24 text-xl font-bold text-brand-900 break-words">
        {t("assign:dialog.title", { name: detail.donorName })}
      </h2>
      <div className="mt-3 empty:hidden">
        {notice}
        <ErrorBox errors={formErrors} />
      </div>
      <div className="mt-4 grid gap-5 md:grid-cols-[3fr_2fr]">
        <section aria-labelledby="assign-details" className="min-w-0">
          <h3 id="assign-details" className="mb-2 font-bold text-slate-800">
            {t("assign:dialog.details")}
          </h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-2">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-slate-600">{label}</dt>
                <dd className="min-w-0 wrap-anywhere">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="assign-steps" className="min-w-0">
          <h3 id="assign-steps" className="mb-2 font-bold text-slate-800">
            {t("assign:dialog.steps")}
          </h3>
          <PickupTimeline events={detail.events} labelledBy="assign-steps" className="ms-1.5" />
        </section>
      </div>
      <section aria-labelledby="assign-next" className="mt-5 border-t border-slate-200 pt-4">
        <h3 id="assign-next" className="mb-3 font-bold text-slate-800">
          {t("assign:dialog.actions")}
        </h3>
        <PickupActions detail={detail} riders={detail.riders} radiusKm={detail.radiusKm} actionData={actionData} />
      </section>
    </>
  );
}
