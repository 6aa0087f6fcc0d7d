import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { CircleCheck, Send, TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/detail";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { BackLink } from "#app/components/donate-parts.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { applicationState } from "#server/domain/volunteering/applications.ts";
import { positionForDonor, type PositionDetail } from "#server/domain/volunteering/positions.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("opportunities:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const id = new URL(request.url).searchParams.get("position") ?? "";
  let p: PositionDetail;
  try {
    p = await positionForDonor(context.services.db, id, user);
  } catch (err) {
    throwHttp(err);
  }
  return {
    position: {
      id: p.id,
      title: p.title,
      description: p.description,
      responsibilities: p.responsibilities,
      workingHours: p.workingHours,
      duration: p.duration,
      timings: p.timings,
      cityLabel: p.cityLabel && placeLabelFor({ label: p.cityLabel, labelUr: p.cityLabelUr }, context.lang),
      poster: pictureUrl(p.posterKey, "campaign"),
      posterSrcSet: pictureSrcSet(p.posterKey),
      needed: p.volunteersNeeded,
      accepted: p.accepted,
      closesOn: p.closesOn ? formatDay(p.closesOn, context.lang) : null,
      ngoName: p.ngoName,
      ngoLogo: pictureUrl(p.ngoLogoKey, "logo"),
      open: p.open,
    },
    application: p.application
      ? { appliedOn: formatDateTime(p.application.createdAt, context.lang), state: applicationState(p.application.status, p.open) }
      : null,
  };
}

/** /vfg2: one position as a donor reads it, with Go back and Apply (or where the donor's application stands). */
export default function OpportunityDetail({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { position: p, application } = loaderData;
  const facts: [string, React.ReactNode][] = [
    [t("volunteer:fields.ngo"), <UserText>{p.ngoName}</UserText>],
    [t("volunteer:fields.workingHours"), <UserText>{p.workingHours}</UserText>],
    ...(p.duration ? [[t("volunteer:fields.duration"), <UserText>{p.duration}</UserText>] as [string, React.ReactNode]] : []),
    [t("volunteer:fields.timings"), <UserText>{p.timings}</UserText>],
    [t("volunteer:fields.city"), p.cityLabel ? <UserText>{p.cityLabel}</UserText> : t("volunteer:anywhere")],
    [t("opportunities:detail.volunteers"), t("opportunities:list.neededAccepted", { needed: p.needed, accepted: p.accepted })],
    [t("volunteer:fields.closesOn"), p.closesOn ? t("volunteer:closesOnValue", { date: p.closesOn }) : t("volunteer:noClosingDate")],
  ];
  return (
    <>
      <title>{`${p.title} · ${t("common:brand")}`}</title>
      <article aria-labelledby="position-title" className="mx-auto flex max-w-3xl flex-col overflow-hidden rounded-lg bg-white shadow-sm">
        <img
          src={p.poster}
          srcSet={p.posterSrcSet}
          sizes={PICTURE_SIZES.page}
          alt={t("opportunities:detail.posterAlt", { title: p.title })}
          width={1200}
          height={630}
          className="aspect-[1200/630] w-full bg-slate-100 object-contain"
        />
        <div className="flex flex-col gap-4 p-4 sm:p-6">
          <div className="flex items-center gap-3">
            <img
              src={p.ngoLogo}
              alt={t("opportunities:detail.logoAlt", { ngo: p.ngoName })}
              width={48}
              height={48}
              className="size-12 shrink-0 rounded-full bg-slate-100 object-cover"
            />
            <UserText as="p" className="min-w-0 break-words text-start font-bold text-slate-800">
              {p.ngoName}
            </UserText>
          </div>
          <UserText as="h2" id="position-title" className="break-words text-start text-2xl font-bold text-brand-900">
            {p.title}
          </UserText>
          <UserText as="p" className="break-words text-start whitespace-pre-line text-slate-800">
            {p.description}
          </UserText>
          {p.responsibilities && (
            <section aria-labelledby="responsibilities-heading">
              <h3 id="responsibilities-heading" className="font-bold text-slate-900">
                {t("volunteer:fields.responsibilities")}
              </h3>
              <UserText as="p" className="break-words text-start whitespace-pre-line text-slate-800">
                {p.responsibilities}
              </UserText>
            </section>
          )}
          <section aria-labelledby="facts-heading">
            <h3 id="facts-heading" className="sr-only">
              {t("opportunities:detail.facts")}
            </h3>
            <dl className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]">
              {facts.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="min-w-0 break-words text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </section>

          {application ? (
            <div role="status" className="flex items-start gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-950">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              <div>
                <p>{t("opportunities:detail.appliedOn", { date: application.appliedOn.text })}</p>
                <p className="font-bold">{t("opportunities:detail.state", { state: t(`volunteer:states.${application.state}`) })}</p>
                <Link to="/dvh2" className="font-medium underline">
                  {t("opportunities:detail.seeHistory")}
                </Link>
              </div>
            </div>
          ) : (
            !p.open && (
              <p
                role="status"
                className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-950"
              >
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
                {t("opportunities:detail.closed")}
              </p>
            )
          )}

          <div className="flex flex-wrap gap-3">
            <BackLink to="/vfg1" label={t("opportunities:detail.goBack")} />
            {p.open && !application && (
              <Link to={`/vfg3?position=${p.id}`} className={brandButton("roomy", "inline-flex min-h-11 items-center gap-1")}>
                <Send aria-hidden="true" className="size-4 rtl:-scale-x-100" />
                {t("opportunities:detail.apply")}
              </Link>
            )}
          </div>
        </div>
      </article>
    </>
  );
}
