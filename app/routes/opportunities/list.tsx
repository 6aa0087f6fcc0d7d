import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { CalendarClock, CircleCheck, Clock, Hourglass, MapPin, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/list";
import { formatDay } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { Pager } from "#app/components/pager.tsx";
import { SearchForm } from "#app/components/search-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { DESCRIPTION_PREVIEW_WORDS, SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import { attempt, requireUser } from "#app/lib/http.server.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { previewWords } from "#shared/text.ts";
import { parsePage } from "#server/db/query.ts";
import { openPositions, positionForDonor } from "#server/domain/volunteering/positions.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("opportunities:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const { db } = context.services;
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const list = await openPositions(db, user, { q, page: parsePage(url.searchParams.get("page")) });
  return {
    q,
    notice: url.searchParams.get("notice") === "applied" ? await appliedNotice(db, url.searchParams.get("position"), user) : null,
    list: {
      ...list,
      rows: list.rows.map((p) => ({
        id: p.id,
        title: p.title,
        ngoName: p.ngoName,
        cityLabel: p.cityLabel && placeLabelFor({ label: p.cityLabel, labelUr: p.cityLabelUr }, context.lang),
        workingHours: p.workingHours,
        duration: p.duration,
        timings: p.timings,
        closesOn: p.closesOn ? formatDay(p.closesOn, context.lang) : null,
        needed: p.volunteersNeeded,
        accepted: p.accepted,
        preview: previewWords(p.description, DESCRIPTION_PREVIEW_WORDS),
        poster: pictureUrl(p.posterKey, "campaign"),
        posterSrcSet: pictureSrcSet(p.posterKey),
        applied: p.applied,
      })),
    },
  };
}

/**
 * The confirmation after applying names the position and its NGO, looked up rather than taken from the
 * address, so a crafted link cannot make the page say something else. Only the donor's own application counts.
 */
async function appliedNotice(
  db: Parameters<typeof positionForDonor>[0],
  positionId: string | null,
  donor: Parameters<typeof positionForDonor>[2],
) {
  if (!positionId) return { title: null, ngo: null };
  const found = await attempt(positionForDonor(db, positionId, donor));
  return found.ok && found.value.application ? { title: found.value.title, ngo: found.value.ngoName } : { title: null, ngo: null };
}

/** /vfg1: open volunteer positions from every NGO, searched by title, NGO or city, and paged. */
export default function OpportunityList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, notice, list } = loaderData;
  const heading = t("opportunities:list.heading");
  return (
    <>
      <title>{`${heading} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        {notice && (
          <div role="status" className="flex items-start gap-2 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            <p>
              {notice.title && notice.ngo
                ? t("opportunities:list.applied", { title: notice.title, ngo: notice.ngo })
                : t("opportunities:list.appliedGeneric")}{" "}
              <Link to="/dvh2" className="font-medium underline">
                {t("opportunities:list.appliedHistory")}
              </Link>
            </p>
          </div>
        )}
        <div>
          <h2 className="text-2xl font-bold text-brand-900">{heading}</h2>
          <p className="text-slate-700">{t("opportunities:list.lead")}</p>
        </div>
        <SearchForm
          action="/vfg1"
          id="position-search"
          q={q}
          showLabel
          label={t("opportunities:list.searchLabel")}
          placeholder={t("opportunities:list.searchPlaceholder")}
          submitLabel={t("opportunities:list.search")}
          clear={{ to: "/vfg1", label: t("opportunities:list.clear") }}
        />

        {list.rows.length === 0 ? (
          <p role="status" className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
            {q ? t("opportunities:list.noMatch", { q }) : t("opportunities:list.empty")}
          </p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("opportunities:list.listLabel")}>
            {list.rows.map((p) => {
              const titleId = `position-${p.id}`;
              return (
                <li key={p.id} className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm">
                  <img
                    src={p.poster}
                    srcSet={p.posterSrcSet}
                    sizes={PICTURE_SIZES.card}
                    alt=""
                    width={1200}
                    height={630}
                    loading="lazy"
                    className="aspect-[1200/630] w-full bg-slate-100 object-contain"
                  />
                  <div className="flex flex-1 flex-col gap-2 p-4">
                    <div className="flex items-start justify-between gap-2">
                      <UserText as="h3" id={titleId} className="min-w-0 break-words text-start text-lg font-bold text-slate-900">
                        {p.title}
                      </UserText>
                      {p.applied && (
                        <span className="shrink-0 rounded-full border border-emerald-300 bg-emerald-100 px-2.5 py-0.5 text-sm font-bold text-emerald-900">
                          {t("opportunities:list.appliedBadge")}
                        </span>
                      )}
                    </div>
                    <UserText as="p" className="text-start text-sm font-medium text-slate-700">
                      {t("opportunities:list.by", { ngo: p.ngoName })}
                    </UserText>
                    <UserText as="p" className="break-words text-start text-slate-700">
                      {p.preview}
                    </UserText>
                    <ul className="flex flex-col gap-1 text-sm text-slate-800">
                      <Fact icon={MapPin} label={t("volunteer:fields.city")}>
                        {p.cityLabel ? <UserText>{p.cityLabel}</UserText> : t("volunteer:anywhere")}
                      </Fact>
                      <Fact icon={Clock} label={t("volunteer:fields.workingHours")}>
                        <UserText>{p.workingHours}</UserText>
                      </Fact>
                      {p.duration && (
                        <Fact icon={Hourglass} label={t("volunteer:fields.duration")}>
                          <UserText>{p.duration}</UserText>
                        </Fact>
                      )}
                      <Fact icon={CalendarClock} label={t("volunteer:fields.timings")}>
                        <UserText>{p.timings}</UserText>
                      </Fact>
                      <Fact icon={Users} label={t("opportunities:detail.volunteers")}>
                        {t("opportunities:list.neededAccepted", { needed: p.needed, accepted: p.accepted })}
                      </Fact>
                    </ul>
                    <p className="text-sm font-medium text-slate-800">
                      {p.closesOn ? t("volunteer:closesOnValue", { date: p.closesOn }) : t("volunteer:noClosingDate")}
                    </p>
                    <div className="mt-auto pt-2">
                      <Link
                        to={`/vfg2?position=${p.id}`}
                        aria-describedby={titleId}
                        className={brandButton("narrow", "inline-flex min-h-11 w-full items-center justify-center")}
                      >
                        {t("opportunities:list.visit")}
                      </Link>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <Pager page={list.page} pages={list.pages} label={t("opportunities:list.pages")} />
      </div>
    </>
  );
}

/** One fact of a card: an icon, the fact's name for screen readers (and as a tooltip), and its value. */
function Fact({ icon: Icon, label, children }: { icon: typeof MapPin; label: string; children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-1.5">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-600" />
      <span>
        <span className="sr-only">{label}: </span>
        {children}
      </span>
    </li>
  );
}
