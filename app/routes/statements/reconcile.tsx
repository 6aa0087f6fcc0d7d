import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { type SubmissionResult } from "@conform-to/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reconcile";
import { DateTime } from "#app/components/date-time.tsx";
import { Pager } from "#app/components/pager.tsx";
import { StatementProblem } from "#app/components/statements/problem.tsx";
import { useRevalidateWhileMatching } from "#app/components/statements/matching.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { reconcileSchema } from "#shared/forms/statements.ts";
import { dirOf, type Lang } from "#shared/i18n/i18n.ts";
import { isolateForeign } from "#shared/text.ts";
import { formatRupees } from "#shared/money.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { parsePage } from "#server/db/query.ts";
import {
  BATCH_TICK_CONFIDENCE,
  confirmLines,
  giftChoices,
  ignoreLine,
  linesWithout,
  matchByHand,
  matchedLines,
  matchingUnderway,
  pledgesWithoutGift,
  reconcileCounts,
  recordPledgedGift,
  restoreLine,
  waitingGifts,
} from "#server/domain/statements/reconcile.ts";

export const handle = pageTitle("reconcile:title");

const TABS = ["matched", "waiting", "unmatched", "ignored"] as const;
type Tab = (typeof TABS)[number];
const NOTICES = ["confirmed", "ignored", "restored", "matched", "recorded"] as const;

const paisaText = (paisa: number, lang: string) =>
  paisa % 100 === 0
    ? formatRupees(paisa / 100, lang)
    : `${formatRupees(Math.floor(paisa / 100), lang)}.${String(paisa % 100).padStart(2, "0")}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const { db } = context.services;
  const url = new URL(request.url);
  const tab: Tab = (TABS as readonly string[]).includes(url.searchParams.get("tab") ?? "")
    ? (url.searchParams.get("tab") as Tab)
    : "matched";
  const pageNo = parsePage(url.searchParams.get("page"));
  const lang = context.lang;
  const when = (d: Date) => formatDateTime(d, lang);
  const counts = await reconcileCounts(db, ngo);
  // A matching round still to finish (its job): the page says so, and reloads its data until it is done.
  const matchingRunning = await matchingUnderway(context.services, ngo);
  const notice = url.searchParams.get("notice");
  const base = {
    tab,
    counts,
    matchingRunning,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? notice : null,
    noticeParams: Object.fromEntries(["approved", "unchanged", "skipped"].map((k) => [k, url.searchParams.get(k) ?? "0"])),
  };
  const now = Date.now();
  if (tab === "matched") {
    const list = await matchedLines(db, ngo, pageNo);
    return {
      ...base,
      matched: { ...list, rows: list.rows.map((r) => ({ ...r, donation: { ...r.donation, createdAt: when(r.donation.createdAt) } })) },
      batchTick: BATCH_TICK_CONFIDENCE,
    };
  }
  if (tab === "waiting") {
    const list = await waitingGifts(db, ngo, pageNo);
    return {
      ...base,
      waiting: {
        ...list,
        rows: list.rows.map((g) => ({
          ...g,
          createdAt: when(g.createdAt),
          remindedAt: g.remindedAt ? when(g.remindedAt) : null,
          days: Math.floor((now - g.createdAt.getTime()) / 86_400_000),
        })),
      },
    };
  }
  const list = await linesWithout(db, ngo, tab, pageNo);
  const choices = tab === "unmatched" && list.rows.length > 0 ? await giftChoices(db, ngo) : [];
  return {
    ...base,
    lines: list,
    pledges: tab === "unmatched" ? await pledgesWithoutGift(db, ngo, list.rows) : {},
    // For each line, the gifts of its account closest in amount: what a hand match is likely to be.
    choices: Object.fromEntries(
      list.rows.map((l) => [
        l.id,
        choices
          .filter((g) => g.method === l.method)
          .sort((a, b) => Math.abs(a.amount * 100 - l.amountPaisa) - Math.abs(b.amount * 100 - l.amountPaisa))
          .slice(0, 20)
          .map((g) => ({
            id: g.id,
            label: `${formatRupees(g.amount, lang)} · ${isolateForeign(g.donorName, dirOf(lang))} · ${when(g.createdAt).text}${g.transactionId ? ` · ${g.transactionId}` : ""}`,
          })),
      ]),
    ),
  };
}

type ActionResult = { result: SubmissionResult<string[]>; line?: string };

export async function action({ context, request }: Route.ActionArgs) {
  const ngo = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: reconcileSchema });
  const lineOf = typeof submission.payload.line === "string" ? submission.payload.line : undefined;
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply(), line: lineOf }, { status: 400 });
  const input = submission.value;
  const back = new URL(request.url);
  const go = (notice: string, extra: Record<string, string> = {}) => {
    back.searchParams.set("notice", notice);
    for (const [k, v] of Object.entries(extra)) back.searchParams.set(k, v);
    return redirect(`${back.pathname}?${back.searchParams.toString()}`);
  };
  if (input.intent === "confirm") {
    const ids = input.one ? [input.one] : input.line;
    if (ids.length === 0)
      return data<ActionResult>({ result: submission.reply({ formErrors: ["reconcile:form.noneTicked"] }) }, { status: 400 });
    const out = await confirmLines(context.services, ngo, ids);
    return go("confirmed", { approved: String(out.approved), unchanged: String(out.unchanged), skipped: String(out.skipped) });
  }
  const { db } = context.services;
  if (input.intent === "record") {
    const recorded = await formAction(submission, () => recordPledgedGift(context.services, ngo, input.line));
    if (!recorded.ok) return recorded.answer({ line: input.line });
    return go("recorded");
  }
  const outcome = await formAction(submission, () =>
    input.intent === "ignore"
      ? ignoreLine(db, ngo, input.line, input.reason)
      : input.intent === "restore"
        ? restoreLine(db, ngo, input.line)
        : matchByHand(db, ngo, input.line, input.donation),
  );
  if (!outcome.ok) return outcome.answer({ line: input.line });
  return go(input.intent === "ignore" ? "ignored" : input.intent === "restore" ? "restored" : "matched");
}

/** /reconcile: the NGO's statement lines beside its pending gifts: matches to confirm, gifts without a line, lines without a gift. */
export default function Reconcile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Lang;
  const d = loaderData;
  const answer = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  useRevalidateWhileMatching(d.matchingRunning);
  return (
    <>
      <title>{`${t("reconcile:title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        <p className="text-slate-700">
          {t("reconcile:lead")}{" "}
          <Link to="/statements" className="font-medium text-brand-800 underline">
            {t("reconcile:toUpload")}
          </Link>
        </p>
        {d.matchingRunning && (
          <p
            aria-live="polite"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-900"
            data-testid="matching-running"
          >
            {t("reconcile:matchingRunning")}{" "}
            <a href="" className="underline">
              {t("reconcile:refresh")}
            </a>
          </p>
        )}
        {d.notice && (
          <p
            role="status"
            className="rounded-md border border-emerald-300 bg-emerald-50 p-3 font-medium text-emerald-900"
            data-testid="reconcile-notice"
          >
            {t(`reconcile:notice.${d.notice}`, d.noticeParams)}
          </p>
        )}
        <nav aria-label={t("reconcile:tabsLabel")} className="flex flex-wrap gap-1 border-b border-slate-300">
          {TABS.map((tab) => (
            <Link
              key={tab}
              to={`?tab=${tab}`}
              aria-current={tab === d.tab ? "page" : undefined}
              className={`inline-flex min-h-11 items-center rounded-t-md border-b-4 px-4 py-2 font-bold ${
                tab === d.tab ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"
              }`}
            >
              {t(`reconcile:tabs.${tab}`, { count: d.counts[tab] })}
            </Link>
          ))}
        </nav>
        {/* A refusal shows beside its line when the line is on this page, else here (a line gone meanwhile, a stale form). */}
        {!(answer?.line && "lines" in d && d.lines?.rows.some((l) => l.id === answer.line)) && (
          <StatementProblem errors={answer?.result.error?.[""] ?? null} />
        )}

        {"matched" in d && d.matched && (
          <section aria-labelledby="matched-heading">
            <h2 id="matched-heading" className="sr-only">
              {t("reconcile:tabs.matched", { count: d.counts.matched })}
            </h2>
            {d.matched.rows.length === 0 ? (
              <p className="rounded-lg bg-white p-4 shadow-sm">{t("reconcile:empty.matched")}</p>
            ) : (
              <Form method="post" className="flex flex-col gap-3">
                <input type="hidden" name="intent" value="confirm" />
                <p className="text-slate-700">{t("reconcile:matchedLead")}</p>
                <ul className="flex flex-col gap-3">
                  {d.matched.rows.map((r) => {
                    const differs = r.amountPaisa !== r.donation.amount * 100;
                    return (
                      <li key={r.id} className="rounded-lg bg-white p-4 shadow-sm" data-testid="matched-row">
                        <div className="flex flex-wrap items-start gap-3">
                          <input
                            type="checkbox"
                            name="line"
                            value={r.id}
                            id={`tick-${r.id}`}
                            defaultChecked={r.confidence >= d.batchTick && !differs}
                            className="mt-1 size-6 shrink-0"
                          />
                          <label htmlFor={`tick-${r.id}`} className="min-w-0 flex-1">
                            <span className="font-bold">{t(`reconcile:rule.${r.rule}`)}</span>{" "}
                            <span className="text-sm text-slate-700">{t("reconcile:confidence", { n: r.confidence })}</span>
                            {differs && (
                              <span className="ms-2 rounded bg-amber-100 px-2 py-0.5 text-sm font-bold text-amber-900">
                                {t("reconcile:amountDiffers")}
                              </span>
                            )}
                          </label>
                        </div>
                        <div className="mt-2 grid gap-3 sm:grid-cols-2">
                          <dl className="rounded-md bg-slate-50 p-3 text-sm">
                            <dt className="font-bold text-slate-800">{t("reconcile:statementSide")}</dt>
                            <dd>
                              {formatDay(r.postedOn, lang)} {r.postedAt ?? ""} · <strong>{paisaText(r.amountPaisa, lang)}</strong>
                            </dd>
                            {r.sender && <UserText as="dd">{r.sender}</UserText>}
                            {r.reference && (
                              <dd dir="ltr" className="text-start font-mono">
                                {r.reference}
                              </dd>
                            )}
                            {r.description && <UserText as="dd">{r.description}</UserText>}
                          </dl>
                          <dl className="rounded-md bg-slate-50 p-3 text-sm">
                            <dt className="font-bold text-slate-800">{t("reconcile:giftSide")}</dt>
                            <dd>
                              <DateTime value={r.donation.createdAt} /> · <strong>{formatRupees(r.donation.amount, lang)}</strong>
                            </dd>
                            <dd>
                              <UserText>{r.donation.donorName}</UserText> · <UserText>{r.donation.campaignTitle}</UserText>
                            </dd>
                            {r.donation.transactionId && (
                              <dd dir="ltr" className="text-start font-mono">
                                {r.donation.transactionId}
                              </dd>
                            )}
                            {r.donation.pledgeCode && (
                              <dd dir="ltr" className="text-start font-mono">
                                {formatPledgeCode(r.donation.pledgeCode)}
                              </dd>
                            )}
                          </dl>
                        </div>
                        <div className="mt-3 flex flex-wrap gap-3">
                          <button type="submit" name="one" value={r.id} disabled={busy} className={brandButton("regular")}>
                            {t("reconcile:confirmOne")}
                          </button>
                          <Link to={`/apps?view=${r.donation.id}`} className="self-center font-medium text-brand-800 underline">
                            {t("reconcile:openGift")}
                          </Link>
                        </div>
                      </li>
                    );
                  })}
                </ul>
                <button type="submit" disabled={busy} className={brandButton("block")}>
                  {t("reconcile:confirmTicked")}
                </button>
              </Form>
            )}
            <Pager page={d.matched.page} pages={d.matched.pages} label={t("reconcile:pager")} />
          </section>
        )}

        {"waiting" in d && d.waiting && (
          <section aria-labelledby="waiting-heading">
            <h2 id="waiting-heading" className="sr-only">
              {t("reconcile:tabs.waiting", { count: d.counts.waiting })}
            </h2>
            {d.waiting.rows.length === 0 ? (
              <p className="rounded-lg bg-white p-4 shadow-sm">{t("reconcile:empty.waiting")}</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {d.waiting.rows.map((g) => (
                  <li
                    key={g.id}
                    className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-white p-4 shadow-sm"
                    data-testid="waiting-row"
                  >
                    <span>
                      <strong>{formatRupees(g.amount, lang)}</strong> · {t(`donations:methods.${g.method}`)} ·{" "}
                      <UserText>{g.donorName}</UserText> · <UserText>{g.campaignTitle}</UserText>
                      {g.pledgeCode && (
                        <span dir="ltr" className="ms-2 font-mono">
                          {formatPledgeCode(g.pledgeCode)}
                        </span>
                      )}
                    </span>
                    <span className="text-sm text-slate-700">
                      {t("reconcile:waitingFor", { days: g.days })} · <DateTime value={g.createdAt} />
                      {g.remindedAt && (
                        <>
                          {" · "}
                          {t("reconcile:reminded")} <DateTime value={g.remindedAt} />
                        </>
                      )}
                    </span>
                    <Link to={`/apps?view=${g.id}`} className="font-medium text-brand-800 underline">
                      {t("reconcile:openGift")}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            <Pager page={d.waiting.page} pages={d.waiting.pages} label={t("reconcile:pager")} />
          </section>
        )}

        {"lines" in d && d.lines && (
          <section aria-labelledby="lines-heading">
            <h2 id="lines-heading" className="sr-only">
              {t(`reconcile:tabs.${d.tab}`, { count: d.counts[d.tab] })}
            </h2>
            {d.lines.rows.length === 0 ? (
              <p className="rounded-lg bg-white p-4 shadow-sm">{t(`reconcile:empty.${d.tab}`)}</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {d.lines.rows.map((l) => {
                  const mine = answer?.line === l.id;
                  const choices = d.choices?.[l.id] ?? [];
                  return (
                    <li key={l.id} className="rounded-lg bg-white p-4 shadow-sm" data-testid="line-row">
                      <p>
                        {formatDay(l.postedOn, lang)} {l.postedAt ?? ""} · <strong>{paisaText(l.amountPaisa, lang)}</strong> ·{" "}
                        {t(`donations:methods.${l.method}`)}
                        <span className="ms-2 text-sm text-slate-700">{t("reconcile:fileRow", { row: l.fileRow })}</span>
                      </p>
                      {l.sender && (
                        <UserText as="p" className="text-start text-sm">
                          {l.sender}
                        </UserText>
                      )}
                      {l.reference && (
                        <p dir="ltr" className="text-start font-mono text-sm">
                          {l.reference}
                        </p>
                      )}
                      {l.description && (
                        <UserText as="p" className="text-start text-sm">
                          {l.description}
                        </UserText>
                      )}
                      {mine && <StatementProblem errors={answer?.result.error?.[""] ?? null} />}
                      {d.pledges?.[l.id] && (
                        <Form
                          method="post"
                          className="mt-2 rounded-md border border-emerald-600 bg-emerald-50 p-3"
                          data-testid="pledge-found"
                        >
                          <input type="hidden" name="intent" value="record" />
                          <input type="hidden" name="line" value={l.id} />
                          <p className="text-sm">
                            {t("reconcile:pledgeFound", {
                              code: formatPledgeCode(d.pledges[l.id]!.code),
                              donor: d.pledges[l.id]!.donorName,
                              campaign: d.pledges[l.id]!.campaignTitle,
                            })}
                          </p>
                          <button type="submit" disabled={busy} className={brandButton("regular", "mt-2")}>
                            {t("reconcile:recordPledge")}
                          </button>
                        </Form>
                      )}
                      {d.tab === "ignored" ? (
                        <>
                          <p className="mt-1 text-sm text-slate-800">{t("reconcile:ignoredBecause", { reason: l.ignoredReason ?? "" })}</p>
                          <Form method="post" className="mt-2">
                            <input type="hidden" name="intent" value="restore" />
                            <input type="hidden" name="line" value={l.id} />
                            <button
                              type="submit"
                              disabled={busy}
                              className="rounded-md border-2 border-brand-700 px-4 py-1.5 font-bold text-brand-800"
                            >
                              {t("reconcile:restore")}
                            </button>
                          </Form>
                        </>
                      ) : (
                        <div className="mt-2 flex flex-wrap items-start gap-4">
                          {choices.length > 0 && (
                            <Form method="post" className="flex w-full min-w-0 flex-wrap items-end gap-2 sm:w-auto">
                              <input type="hidden" name="intent" value="match" />
                              <input type="hidden" name="line" value={l.id} />
                              <label className="flex w-full min-w-0 flex-col gap-1 text-sm sm:w-auto">
                                <span className="font-medium">{t("reconcile:matchTo")}</span>
                                <select
                                  name="donation"
                                  required
                                  className="w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 sm:max-w-xs"
                                >
                                  {choices.map((c) => (
                                    <option key={c.id} value={c.id}>
                                      {c.label}
                                    </option>
                                  ))}
                                </select>
                              </label>
                              <button
                                type="submit"
                                disabled={busy}
                                className="rounded-md border-2 border-brand-700 px-4 py-1.5 font-bold text-brand-800"
                              >
                                {t("reconcile:match")}
                              </button>
                            </Form>
                          )}
                          <ReasonForm
                            open={mine && answer?.result.error?.reason !== undefined}
                            summary={t("reconcile:ignore")}
                            hidden={{ intent: "ignore", line: l.id }}
                            field={{
                              id: `reason-${l.id}`,
                              name: "reason",
                              errorId: `reason-${l.id}-error`,
                              errors: mine ? (answer?.result.error?.reason ?? undefined) : undefined,
                            }}
                            label={t("reconcile:ignoreReason")}
                            hint={t("reconcile:ignoreHint")}
                            required
                            maxLength={REASON_MAX_LENGTH}
                          >
                            <button type="submit" disabled={busy} className="rounded-md bg-red-700 px-4 py-1.5 font-bold text-white">
                              {t("reconcile:ignore")}
                            </button>
                          </ReasonForm>
                        </div>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            <Pager page={d.lines.page} pages={d.lines.pages} label={t("reconcile:pager")} />
          </section>
        )}
      </div>
    </>
  );
}
