import { UserText } from "#app/components/user-text.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { Plus } from "lucide-react";
import { Form, Link, useActionData } from "react-router";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { brandButton } from "#app/components/ui/button.ts";
import type { PositionsState, positionsLoader } from "./positions.server.ts";

type ActionData = { result: SubmissionResult<string[]>; positionId: string } | undefined;
type PositionsData = Awaited<ReturnType<typeof positionsLoader>>;
type Row = PositionsData["positions"]["rows"][number];

/** The errors of an action answer, split into the closing date's and the rest. */
function errorsOf(result: SubmissionResult<string[]> | undefined) {
  const entries = Object.entries(result?.error ?? {});
  return {
    closesOn: entries.filter(([name]) => name === "closesOn").flatMap(([, e]) => e ?? []),
    other: entries.filter(([name]) => name !== "closesOn").flatMap(([, e]) => e ?? []),
  };
}

/** /vol0 and /cc1 (Active) and /volClosed (Closed): the NGO's own volunteer positions, paged. */
export function PositionsPage({ loaderData }: { loaderData: PositionsData }) {
  const { t } = useTranslation();
  const actionData = useActionData() as ActionData;
  const { state, notice, positions, days } = loaderData;
  const heading = t(state === "open" ? "positions:activeHeading" : "positions:closedHeading");
  const tabClass = (current: boolean) =>
    `inline-flex min-h-11 items-center rounded-t-md border-b-4 px-4 py-2 font-bold ${current ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"}`;
  // An answer about a position that is not on this page (another NGO's, or gone) is shown above the list.
  const shown = new Set(positions.rows.map((p) => p.id));
  const strayErrors = actionData && !shown.has(actionData.positionId) ? errorsOf(actionData.result) : null;
  return (
    <>
      <title>{`${heading} · ${t("common:brand")}`}</title>
      {notice && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`positions:notices.${notice}`)}
        </p>
      )}
      {strayErrors && (
        <div className="mb-4">
          <ErrorBox errors={[...strayErrors.other, ...strayErrors.closesOn]} />
        </div>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-300">
        <nav aria-label={t("positions:tabs")} className="flex gap-1">
          <Link to="/vol0" aria-current={state === "open" ? "page" : undefined} className={tabClass(state === "open")}>
            {t("positions:active")}
          </Link>
          <Link to="/volClosed" aria-current={state === "closed" ? "page" : undefined} className={tabClass(state === "closed")}>
            {t("positions:closed")}
          </Link>
        </nav>
        <Link to="/vol1" className={brandButton("page", "mb-2 inline-flex min-h-11 items-center gap-1")}>
          {t("positions:create")}
          <Plus aria-hidden="true" className="size-5" />
        </Link>
      </div>

      <h2 className="mt-4 mb-3 text-lg font-bold text-slate-900">{heading}</h2>
      {positions.rows.length === 0 ? (
        <div className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          <p>{t(state === "open" ? "positions:emptyActive" : "positions:emptyClosed")}</p>
          <Link to="/vol1" className="mt-2 inline-flex min-h-11 items-center font-medium text-brand-800 underline">
            {t("positions:createFirst")}
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {positions.rows.map((p) => (
            <PositionCard
              key={p.id}
              position={p}
              state={state}
              days={days}
              result={actionData?.positionId === p.id ? actionData.result : undefined}
            />
          ))}
        </ul>
      )}
      <Pager page={positions.page} pages={positions.pages} label={heading} />
    </>
  );
}

function PositionCard({
  position: p,
  state,
  days,
  result,
}: {
  position: Row;
  state: PositionsState;
  days: { min: string; max: string };
  result?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const errors = errorsOf(result);
  const dateId = `closes-${p.id}`;
  const dateErrorId = `${dateId}-error`;
  const dateHintId = `${dateId}-hint`;
  const buttonClass = "inline-flex min-h-11 items-center rounded-md px-4 py-2 font-medium";
  const details: [string, string][] = [
    [t("volunteer:fields.city"), p.cityLabel ?? t("volunteer:anywhere")],
    [t("volunteer:fields.workingHours"), p.workingHours],
    ...(p.duration ? ([[t("volunteer:fields.duration"), p.duration]] as [string, string][]) : []),
    [t("volunteer:fields.timings"), p.timings],
    [t("volunteer:fields.closesOn"), p.closesOn ? t("volunteer:closesOnValue", { date: p.closesOn }) : t("volunteer:noClosingDate")],
  ];
  return (
    <li className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm sm:flex-row">
      {p.poster ? (
        <img src={p.poster} alt="" className="h-40 w-full bg-slate-100 object-contain sm:h-auto sm:w-40" loading="lazy" />
      ) : (
        <div className="flex h-24 w-full items-center justify-center bg-brand-50 text-sm text-brand-900 sm:h-auto sm:w-40">
          {t("positions:noPoster")}
        </div>
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-4">
        <UserText as="h3" className="text-lg font-bold break-words text-slate-900">
          {p.title}
        </UserText>
        {state === "closed" && (
          <p className="text-sm font-medium text-amber-900">
            {p.closedByDate
              ? t("positions:closedByDate", { date: p.closesOn ?? "" })
              : t("positions:closedByYou", { date: p.closedAt ?? "" })}
          </p>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {details.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-slate-600">{label}</dt>
              <UserText as="dd" className="break-words text-slate-900">
                {value}
              </UserText>
            </div>
          ))}
        </dl>
        <p className="text-sm font-medium text-slate-800">
          {t("volunteer:counts", { needed: p.volunteersNeeded, applied: p.applied, accepted: p.accepted })}
          {p.waiting > 0 && (
            <span className="ms-2 rounded bg-amber-100 px-2 py-0.5 text-amber-950">{t("positions:waiting", { count: p.waiting })}</span>
          )}
        </p>
        {errors.other.length > 0 && <ErrorBox errors={errors.other} />}
        <div className="mt-auto flex flex-wrap items-end gap-2 pt-1">
          <Link to={`/vol2?position=${p.id}`} className={`${buttonClass} border border-brand-700 text-brand-800 hover:bg-brand-50`}>
            {t("positions:viewApplications")}
            <span className="sr-only">
              {": "}
              {p.title}
            </span>
          </Link>
          {p.actions.includes("close") && (
            <Form method="post">
              <input type="hidden" name="intent" value="close" />
              <input type="hidden" name="positionId" value={p.id} />
              <button type="submit" className={`${buttonClass} bg-slate-800 text-white hover:bg-slate-700`}>
                {t("positions:close")}
                <span className="sr-only">
                  {": "}
                  {p.title}
                </span>
              </button>
            </Form>
          )}
        </div>
        {state === "closed" && (
          <>
            <p className="flex flex-wrap gap-x-4 text-sm">
              <Link to={`/volApproved?position=${p.id}`} className="inline-flex min-h-11 items-center text-brand-800 underline">
                {t("positions:viewApproved")}
                <span className="sr-only">
                  {": "}
                  {p.title}
                </span>
              </Link>
              <Link to={`/volRejected?position=${p.id}`} className="inline-flex min-h-11 items-center text-brand-800 underline">
                {t("positions:viewDeclined")}
                <span className="sr-only">
                  {": "}
                  {p.title}
                </span>
              </Link>
            </p>
            {p.actions.includes("reopen") && (
              <Form method="post" className="flex flex-col gap-1 border-t border-slate-200 pt-3">
                <input type="hidden" name="intent" value="reopen" />
                <input type="hidden" name="positionId" value={p.id} />
                <label htmlFor={dateId} className="text-sm font-medium text-slate-800">
                  {t("positions:newClosesOn")}
                </label>
                <div className="flex flex-wrap items-center gap-2">
                  <input
                    id={dateId}
                    name="closesOn"
                    type="date"
                    min={days.min}
                    max={days.max}
                    aria-invalid={errors.closesOn.length > 0 ? true : undefined}
                    aria-describedby={errors.closesOn.length > 0 ? `${dateErrorId} ${dateHintId}` : dateHintId}
                    className="min-h-11 min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
                  />
                  <button type="submit" className={`${buttonClass} bg-brand-700 text-white hover:bg-brand-800`}>
                    {t("positions:reopen")}
                    <span className="sr-only">
                      {": "}
                      {p.title}
                    </span>
                  </button>
                </div>
                <p id={dateHintId} className="text-sm text-slate-600">
                  {t("positions:newClosesOnHint")} {t("common:dateInput")}
                </p>
                {errors.closesOn.length > 0 && (
                  <p id={dateErrorId} className="text-sm font-medium text-red-700">
                    {t(errors.closesOn[0]!)}
                  </p>
                )}
              </Form>
            )}
          </>
        )}
      </div>
    </li>
  );
}
