import { pageTitle } from "#app/components/role-shell.tsx";
import { data, Link, redirect, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/home";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { RiderPickupCard, type RiderCardReply } from "#app/components/rider-pickup-card.tsx";
import { SearchForm } from "#app/components/search-form.tsx";
import { parseWithZod } from "#shared/forms/parse.ts";
import { riderPickupSchema } from "#shared/forms/pickups.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import { formatDay, formatKm } from "#shared/format.ts";
import { listQuery, pageOrLast } from "#app/lib/list-query.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { placeLabelFor } from "#shared/places.ts";
import { findRiderArea } from "#server/domain/accounts/settings.ts";
import { parsePage } from "#server/db/query.ts";
import { confirmCollected, markDelivered, respondToAssignment, riderPickups, type RiderTab } from "#server/domain/pickups/pickups.ts";
import { actionsFor } from "#server/domain/pickups/states.ts";

export const handle = pageTitle("common:nav.pickups");

const TABS: readonly RiderTab[] = ["pending", "registered", "completed"];
const NOTICES = ["accepted", "declined", "collected", "delivered"] as const;
type Notice = (typeof NOTICES)[number];
const NOTICE_OF: Record<string, Notice> = { accept: "accepted", decline: "declined", collect: "collected", deliver: "delivered" };

/** The list's own query (tab, search, page), kept after an action and when switching tabs (without the page). */
const LIST_PARAMS = ["tab", "q", "page"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "rider");
  const { db } = context.services;
  const url = new URL(request.url);
  const requested = url.searchParams.get("tab") as RiderTab | null;
  const tab: RiderTab = requested && TABS.includes(requested) ? requested : "pending";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const list = await pageOrLast((page) => riderPickups(db, user, { tab, q, page }), parsePage(url.searchParams.get("page")));
  const area = await findRiderArea(db, user);
  const notice = url.searchParams.get("notice");
  return {
    firstName: user.displayName,
    pictureKey: user.pictureKey,
    tab,
    q,
    hasArea: area !== null,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as Notice) : null,
    list: {
      page: list.page,
      pages: list.pages,
      total: list.total,
      counts: list.counts,
      rows: list.rows.map((r) => ({
        id: r.id,
        status: r.status,
        // The rider's list holds only its own pick-ups: it is their assigned rider.
        actions: actionsFor(r.status, "assignedRider"),
        items: r.items,
        phone: r.phone,
        address: r.address,
        areaLabel: placeLabelFor({ label: r.areaLabel, labelUr: r.areaLabelUr }, context.lang),
        lat: r.lat,
        lng: r.lng,
        windowDay: formatDay(r.windowDate, context.lang, "weekday"),
        windowSlot: r.windowSlot,
        campaignTitle: r.campaignTitle,
        ngoName: r.ngoName,
        dropoff: {
          name: r.dropoff.name,
          address: r.dropoff.address,
          areaLabel: r.dropoff.areaLabel && placeLabelFor({ label: r.dropoff.areaLabel, labelUr: r.dropoff.areaLabelUr }, context.lang),
          point: r.dropoff.lat !== null && r.dropoff.lng !== null ? { lat: r.dropoff.lat, lng: r.dropoff.lng } : null,
          // From the pick-up; null for the NGO's office (no point) or when under a kilometre ("next to it").
          distance: r.dropoff.distanceKm === null ? null : formatKm(r.dropoff.distanceKm, context.lang),
          near: r.dropoff.distanceKm !== null && formatKm(r.dropoff.distanceKm, context.lang) === null,
        },
        distance: r.distanceKm === null ? null : formatKm(r.distanceKm, context.lang),
        // Under a kilometre reads as "in your area", not as "0 km".
        inArea: r.distanceKm !== null && formatKm(r.distanceKm, context.lang) === null,
        receivedNote: r.receivedNote,
      })),
    },
  };
}

/**
 * The rider's answers: accept, decline (with a reason), the donor's code (collected) and delivered. The domain
 * finds only the rider's own requests, so anyone else's is answered as not found and nothing changes.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const rider = requireUser(context, "rider");
  const submission = parseWithZod(await readFormData(request, context), { schema: riderPickupSchema });
  // Which request and form the answer belongs to, so the card shows the error next to the right field.
  const target = { donationId: String(submission.payload.donationId ?? ""), intent: String(submission.payload.intent ?? "") };
  if (submission.status !== "success") return data({ result: submission.reply(), ...target }, { status: 400 });
  const v = submission.value;
  const { services } = context;
  const outcome = await formAction(submission, () => {
    switch (v.intent) {
      case "accept":
        return respondToAssignment(services, rider, { donationId: v.donationId, accept: true });
      case "decline":
        return respondToAssignment(services, rider, { donationId: v.donationId, accept: false, reason: v.reason });
      case "collect":
        return confirmCollected(services, rider, { donationId: v.donationId, code: v.code });
      case "deliver":
        return markDelivered(services, rider, { donationId: v.donationId });
    }
  });
  if (!outcome.ok) return outcome.answer(target);
  return redirect(`/rider_home${listQuery(new URL(request.url).searchParams, LIST_PARAMS, { notice: NOTICE_OF[v.intent]! })}`);
}

/**
 * /rider_home: the rider's phone-first screen. Pending, Registered and Completed tabs with counts, a search,
 * and one card per request with everything needed at the door; every action is a plain POST form.
 */
export default function RiderHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { firstName, pictureKey, tab, q, hasArea, notice, list } = loaderData;
  const actionData = useActionData<typeof action>() as RiderCardReply | undefined;
  const [params] = useSearchParams();
  const onCard = actionData && list.rows.some((r) => r.id === actionData.donationId);
  // Errors about no card on this page (another rider's request, a malformed form) show above the list.
  const pageErrors = actionData && !onCard ? Object.values(actionData.result.error ?? {}).flatMap((errors) => errors ?? []) : [];

  return (
    <>
      <title>{`${t(`rider:tabs.${tab}`)} · ${t("common:nav.pickups")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-xl flex-col gap-3">
        <section aria-labelledby="welcome" className="flex items-center gap-3">
          <img
            src={pictureUrl(pictureKey, "avatar")}
            alt={t("common:yourPicture")}
            width={48}
            height={48}
            className="size-12 shrink-0 rounded-full bg-white object-cover"
          />
          <h2 id="welcome" className="min-w-0 flex-1 text-lg font-bold break-words text-brand-900">
            {t("home:welcome", { name: firstName })}
          </h2>
          <Link
            to="/rider_profile"
            className="inline-flex min-h-11 shrink-0 items-center rounded-lg border-2 border-brand-700 px-3 font-bold text-brand-800 hover:bg-brand-50"
          >
            {t("home:rider.profileLink")}
          </Link>
        </section>

        <nav aria-label={t("rider:tabs.label")} className="sticky top-0 z-10 -mx-4 bg-slate-50/95 px-4 py-2 backdrop-blur md:mx-0 md:px-0">
          <ul className="grid grid-cols-3 gap-1 rounded-lg bg-slate-200 p-1">
            {TABS.map((name) => {
              const active = name === tab;
              return (
                <li key={name}>
                  <Link
                    to={`/rider_home${listQuery(params, ["q"], { tab: name })}`}
                    aria-current={active ? "page" : undefined}
                    className={`flex min-h-12 flex-col items-center justify-center rounded-md px-1 py-1 text-center font-bold ${
                      active ? "bg-white text-brand-900 shadow-sm" : "text-slate-800 hover:bg-slate-100"
                    }`}
                  >
                    <span className="text-base leading-tight">{t(`rider:tabs.${name}`)}</span>
                    <span
                      data-testid={`count-${name}`}
                      className={`mt-0.5 min-w-7 rounded-full px-2 text-sm ${active ? "bg-brand-700 text-white" : "bg-slate-300 text-slate-900"}`}
                    >
                      {list.counts[name]}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        {notice && !actionData && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t(`rider:notices.${notice}`)}
          </p>
        )}
        <ErrorBox errors={pageErrors} />

        <SearchForm
          action="/rider_home"
          id="rider-search"
          q={q}
          hidden={{ tab }}
          label={t("rider:search.label")}
          placeholder={t("rider:search.placeholder")}
          submitLabel={t("rider:search.submit")}
          clear={{ to: `/rider_home${listQuery(params, ["tab"])}`, label: t("rider:search.clear") }}
        />

        <h2 className="text-lg font-bold text-brand-900">{t(`rider:tabs.${tab}`)}</h2>
        <p className="-mt-2 text-slate-700">{t(`rider:lead.${tab}`)}</p>
        {list.rows.length === 0 ? (
          <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{q ? t("rider:empty.search", { q }) : t(`rider:empty.${tab}`)}</p>
        ) : (
          <ul aria-label={t(`rider:tabs.${tab}`)} className="flex flex-col gap-3">
            {list.rows.map((item) => (
              <li key={item.id}>
                <RiderPickupCard item={item} hasArea={hasArea} reply={actionData?.donationId === item.id ? actionData : undefined} />
              </li>
            ))}
          </ul>
        )}
        {/* The shared pager's links, made thumb-sized here. */}
        <div className="[&_a]:inline-flex [&_a]:min-h-12 [&_a]:items-center [&_a]:px-4">
          <Pager page={list.page} pages={list.pages} label={t(`rider:tabs.${tab}`)} />
        </div>
      </div>
    </>
  );
}
