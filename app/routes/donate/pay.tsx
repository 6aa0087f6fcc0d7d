import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ChevronRight, Landmark, Smartphone } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/pay";
import { BackLink, CampaignStrip, DonateProblem, DonateStep } from "#app/components/donate-parts.tsx";
import { OtherWaysToHelp } from "#app/components/other-ways-to-help.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { donateDetailsHref, donatePayHref, donateProofHref } from "#app/lib/campaign-links.ts";
import { attempt, requireUser } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { donationTarget } from "#server/domain/donations/cash.ts";
import { type PaymentMethod } from "#shared/constants.ts";

export const handle = pageTitle("donate:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor");
  const url = new URL(request.url);
  const slug = url.searchParams.get("campaign") ?? "";
  const ngoId = url.searchParams.get("ngo");
  const found = await attempt(donationTarget(context.services.db, slug));
  // Not found, ended or paused: the refusal's own words.
  if (!found.ok)
    return {
      problem: "refused" as const,
      message: found.refusal.kind === "not_found" ? "donate:details.notFound" : found.refusal.message,
      slug,
    };
  const target = found.value;
  const ngos = target.ngos.map((n) => ({
    id: n.id,
    name: n.name,
    logoKey: n.logoKey,
    role: n.role,
    methods: n.accounts.map((a) => a.method),
  }));
  const campaign = { slug: target.campaign.slug, title: target.campaign.title, pictureKey: target.campaign.pictureKey };
  if (!ngos.some((n) => n.methods.length > 0)) return { problem: "noneCanReceive" as const, slug, campaign };
  // A single NGO needs no choosing; a joint campaign's donor picks the partner to pay.
  let chosen = ngoId ? ngos.find((n) => n.id === ngoId) : ngos.length === 1 ? ngos[0] : undefined;
  let ngoProblem: { key: "unknownNgo" | "ngoCannotReceive"; name?: string } | null = null;
  if (ngoId && !chosen) ngoProblem = { key: "unknownNgo" };
  if (chosen && chosen.methods.length === 0) {
    ngoProblem = { key: "ngoCannotReceive", name: chosen.name };
    chosen = undefined;
  }
  return { problem: null, slug, campaign, joint: ngos.length > 1, ngos, chosen: chosen ?? null, ngoProblem };
}

const METHOD_ICON: Record<PaymentMethod, typeof Smartphone> = { jazzcash: Smartphone, easypaisa: Smartphone, bank: Landmark };

const bigLink =
  "flex min-h-16 w-full items-center gap-3 rounded-lg border-2 border-brand-700 bg-white p-4 text-start text-brand-900 shadow-sm hover:bg-brand-50";

/** /donate2: for a joint campaign the partner to pay, then the ways that NGO can be paid. */
export default function DonatePay({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const data = loaderData;
  const back = data.slug ? donateDetailsHref(data.slug) : "/donate1";
  let body: React.ReactNode;
  if (data.problem === "refused") {
    body = <DonateProblem message={t(data.message)} back="/donate1" backLabel={t("donate:details.seeAll")} />;
  } else if (data.problem === "noneCanReceive") {
    body = (
      <>
        <OtherWaysToHelp title={data.campaign.title} slug={data.slug} />
        <BackLink to="/donate1" label={t("donate:details.seeAll")} />
      </>
    );
  } else if (data.chosen) {
    const ngo = data.chosen;
    body = (
      <section aria-labelledby="methods-heading" className="flex flex-col gap-3">
        <h2 id="methods-heading" className="text-xl font-bold text-brand-900">
          {t("payment:pay.methodsHeading")}
        </h2>
        <p className="text-slate-700">{t("payment:pay.methodsLead", { name: ngo.name })}</p>
        <ul className="flex flex-col gap-3">
          {ngo.methods.map((m) => {
            const Icon = METHOD_ICON[m];
            return (
              <li key={m}>
                <Link to={donateProofHref(data.slug, ngo.id, m)} className={bigLink}>
                  <Icon aria-hidden="true" className="size-7 shrink-0" />
                  <span className="flex-1 text-lg font-bold">{t(`donations:methods.${m}`)}</span>
                  <ChevronRight aria-hidden="true" className="size-5 shrink-0 rtl:rotate-180" />
                </Link>
              </li>
            );
          })}
        </ul>
        {data.joint && (
          <p>
            <Link to={donatePayHref(data.slug)} className="font-medium text-brand-800 underline">
              {t("payment:pay.changeNgo")}
            </Link>
          </p>
        )}
      </section>
    );
  } else {
    body = (
      <section aria-labelledby="ngo-heading" className="flex flex-col gap-3">
        <h2 id="ngo-heading" className="text-xl font-bold text-brand-900">
          {t("payment:pay.chooseNgo")}
        </h2>
        <p className="text-slate-700">{t("payment:pay.chooseNgoLead")}</p>
        {data.ngoProblem && (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-900">
            {t(`payment:pay.${data.ngoProblem.key}`, { name: data.ngoProblem.name ?? "" })}
          </p>
        )}
        <ul className="flex flex-col gap-3">
          {(data.ngos ?? []).map((n) => {
            const inner = (
              <>
                <img
                  src={pictureUrl(n.logoKey, "logo")}
                  alt=""
                  width={48}
                  height={48}
                  className="size-12 shrink-0 rounded bg-white object-contain"
                />
                <span className="flex min-w-0 flex-1 flex-col">
                  <UserText className="break-words text-start text-lg font-bold">{n.name}</UserText>
                  <span className="text-sm text-slate-700">
                    {t(`donate:details.role.${n.role}`)}
                    {" · "}
                    {n.methods.length > 0 ? n.methods.map((m) => t(`donations:methods.${m}`)).join(", ") : t("payment:pay.cannotReceive")}
                  </span>
                </span>
              </>
            );
            return (
              <li key={n.id}>
                {n.methods.length > 0 ? (
                  <Link to={donatePayHref(data.slug, n.id)} className={bigLink}>
                    {inner}
                    <ChevronRight aria-hidden="true" className="size-5 shrink-0 rtl:rotate-180" />
                  </Link>
                ) : (
                  <div className="flex items-center gap-3 rounded-lg border-2 border-dashed border-slate-300 bg-slate-100 p-4 text-slate-800">
                    {inner}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    );
  }
  return (
    <>
      <title>{`${t("payment:pay.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <DonateStep step={2} />
        {"campaign" in data && data.campaign && <CampaignStrip title={data.campaign.title} pictureKey={data.campaign.pictureKey} />}
        {body}
        {!data.problem && (
          <div>
            <BackLink to={back} label={t("donate:goBack")} />
          </div>
        )}
      </div>
    </>
  );
}
