import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/offer";
import { ItemsNeeded } from "#app/components/items-needed.tsx";
import { BackLink, CampaignStrip, DonateProblem, DonateStep, DonationKindToggle } from "#app/components/donate-parts.tsx";
import { donationKindLinks } from "#app/lib/campaign-links.ts";
import { TextAreaField, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { PlaceField } from "#app/components/place-field.tsx";
import { goodsOfferSchema } from "#shared/forms/pickups.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { PICKUP_MAX_DAYS_AHEAD, PICKUP_SLOTS } from "#shared/constants.ts";
import { attempt, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { donorContactNumber } from "#server/domain/donations/picker.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { goodsTarget, offerGoods } from "#server/domain/pickups/pickups.ts";
import { mapSettings } from "#app/components/campaigns/campaign-action.server.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { GiftFundFields } from "#app/components/funds/gift-fund-fields.tsx";
import type { FundKind } from "#shared/statuses.ts";

export const handle = pageTitle("donate:title");

/** Shown when the request could not be stored for a reason that is not the donor's (the database is down). */
const SEND_FAILED = "goods:offer.failed";

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const { db } = context.services;
  const slug = new URL(request.url).searchParams.get("campaign") ?? "";
  const found = await attempt(goodsTarget(db, slug));
  // The Cash / Non-Cash toggle's links, written here so the page carries no code to make them (decision 033): the
  // campaign stays open in the other half unless there is a problem with it.
  if (!found.ok)
    return {
      problem: found.refusal.kind === "not_found" ? "donate:details.notFound" : found.refusal.message,
      kindLinks: donationKindLinks(),
    };
  const target = found.value;
  if (target.ngos.length === 0) return { problem: "goods:offer.noNgo", kindLinks: donationKindLinks() };
  const today = pakistanToday();
  return {
    problem: null,
    kindLinks: donationKindLinks(target.campaign.slug),
    campaign: {
      slug: target.campaign.slug,
      title: target.campaign.title,
      pictureKey: target.campaign.pictureKey,
      otherItems: target.campaign.otherItems,
      // The donor is offered only the funds the campaign takes (the server refuses any other, decision 048).
      acceptedFunds: target.campaign.acceptedFunds,
    },
    ngos: target.ngos.map((n) => ({ id: n.id, name: n.name })),
    days: { min: today, max: addDays(today, PICKUP_MAX_DAYS_AHEAD) },
    map: mapSettings(context),
    values: {
      campaign: target.campaign.slug,
      // One NGO needs no choice: it travels as a hidden field.
      ngo: target.ngos.length === 1 ? target.ngos[0]!.id : "",
      phone: await donorContactNumber(db, user.id),
      // A new key each time the form is shown: resending this form (a double click, a retried request) finds
      // the request it made instead of making another.
      idempotencyKey: crypto.randomUUID(),
    },
  };
}

type ActionResult = { result: SubmissionResult<string[]> };

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "donor");
  const submission = parseWithZod(await readFormData(request, context), { schema: goodsOfferSchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
  let donationId: string;
  try {
    const out = await formAction(submission, () => offerGoods(context.services, user, submission.value));
    if (!out.ok) return out.answer();
    donationId = out.value.id;
  } catch (err) {
    context.services.log.error({ err }, "saving a goods offer failed");
    return data<ActionResult>({ result: submission.reply({ formErrors: [SEND_FAILED] }) }, { status: 503 });
  }
  return redirect(`/donate6?donation=${donationId}`);
}

/**
 * /donate5_1?campaign=<slug>: the goods form. Phone, what is given, where to collect it (house and street, and
 * the area from the place search, its point adjustable on a map) and when; for a joint campaign, which NGO.
 */
export default function GoodsOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <>
      <title>{`${t("goods:offer.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <DonationKindToggle current="nonCash" links={d.kindLinks} />
          <DonateStep step={2} flow="goods" />
        </div>
        {d.problem !== null ? (
          <DonateProblem message={t(d.problem)} back="/donate5" backLabel={t("donate:details.seeAll")} />
        ) : (
          <>
            <CampaignStrip title={d.campaign.title} pictureKey={d.campaign.pictureKey} />
            <ItemsNeeded items={d.campaign.otherItems} />
            <OfferForm
              values={d.values}
              acceptedFunds={d.campaign.acceptedFunds}
              ngos={d.ngos}
              days={d.days}
              map={d.map}
              lastResult={(actionData as ActionResult | undefined)?.result}
            />
            <div>
              <BackLink to="/donate5" label={t("donate:goBack")} />
            </div>
          </>
        )}
      </div>
    </>
  );
}

/** A field's first error; `missing` replaces the schema's generic key for a choice that was not made. */
function FieldError({ field, missing }: { field: FieldMetadata<unknown>; missing?: string }) {
  const { t } = useTranslation();
  if (!field.errors?.length) return null;
  const key = field.errors[0]!;
  return (
    <p id={field.errorId} className="text-sm font-medium text-red-700">
      {t(missing && (key === "errors:notFound" || key === "donations:errors.fillAll") ? missing : key)}
    </p>
  );
}

function OfferForm({
  values,
  acceptedFunds,
  ngos,
  days,
  map,
  lastResult,
}: {
  values: { campaign: string; ngo: string; phone: string; idempotencyKey: string };
  acceptedFunds: FundKind[];
  ngos: { id: string; name: string }[];
  days: { min: string; max: string };
  map: { tileUrl: string; tileAttribution: string };
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.goodsOfferSchema), {
    id: "goods",
    lastResult,
    defaultValue: values,
  });
  const busy = navigation.state === "submitting";
  const joint = ngos.length > 1;
  // Problems with the hidden fields (an ended campaign, an expired form) belong to the whole form.
  const hidden = joint ? [fields.campaign, fields.idempotencyKey] : [fields.campaign, fields.ngo, fields.idempotencyKey];
  const formErrors = [...(form.errors ?? []), ...hidden.flatMap((f) => f.errors ?? [])];
  const dateHintId = `${fields.windowDate.id}-hint`;
  const dateProps = getInputProps(fields.windowDate, { type: "date" });
  const { key: dateKey, ...dateInput } = dateProps;

  return (
    <section aria-labelledby="offer-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <h2 id="offer-heading" className="mb-1 text-xl font-bold text-brand-900">
        {t("goods:offer.heading")}
      </h2>
      <p className="mb-4 text-slate-700">{t("goods:offer.lead")}</p>
      <Form method="post" className="flex flex-col gap-5" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        {hidden.map((f) => {
          const { key, ...props } = getInputProps(f, { type: "hidden" });
          return <input key={key ?? f.name} {...props} />;
        })}
        {joint && (
          <fieldset className="flex flex-col gap-2" aria-describedby={fields.ngo.errors?.length ? fields.ngo.errorId : undefined}>
            <legend className="font-medium text-slate-800">{t("goods:offer.ngo")}</legend>
            <p className="text-sm text-slate-600">{t("goods:offer.ngoHint")}</p>
            {ngos.map((n) => (
              <label key={n.id} className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name={fields.ngo.name}
                  value={n.id}
                  defaultChecked={fields.ngo.initialValue === n.id}
                  aria-invalid={fields.ngo.errors?.length ? true : undefined}
                  className="size-5 shrink-0"
                />
                <UserText className="break-words">{n.name}</UserText>
              </label>
            ))}
            {/* The schema answers a missing NGO with "not found" (it also guards the hidden field): here it is a missed choice. */}
            <FieldError field={fields.ngo} missing="goods:offer.ngoRequired" />
          </fieldset>
        )}
        <TextField
          field={fields.phone}
          label={t("goods:offer.phone")}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint={t("goods:offer.phoneHint")}
        />
        <TextAreaField field={fields.items} label={t("goods:offer.items")} hint={t("goods:offer.itemsHint")} rows={4} />
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-lg font-bold text-slate-900">{t("goods:offer.addressHeading")}</legend>
          <TextField
            field={fields.address}
            label={t("goods:offer.address")}
            autoComplete="street-address"
            hint={t("goods:offer.addressHint")}
          />
          <PlaceField
            name={fields.area.name}
            id={fields.area.id}
            label={t("goods:offer.area")}
            hint={t("goods:offer.areaHint")}
            defaultValue={typeof fields.area.initialValue === "string" ? fields.area.initialValue : undefined}
            error={fields.area.errors?.[0]}
            errorId={fields.area.errorId}
            tileUrl={map.tileUrl}
            tileAttribution={map.tileAttribution}
          />
        </fieldset>
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-lg font-bold text-slate-900">{t("goods:offer.whenHeading")}</legend>
          <div className="flex flex-col gap-1">
            <label htmlFor={fields.windowDate.id} className="font-medium text-slate-800">
              {t("goods:offer.day")}
            </label>
            <input
              key={dateKey}
              {...dateInput}
              min={days.min}
              max={days.max}
              aria-describedby={[dateInput["aria-describedby"], dateHintId].filter(Boolean).join(" ")}
              className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600 sm:w-60"
            />
            <p id={dateHintId} className="text-sm text-slate-600">
              {t("goods:offer.dayHint", { days: PICKUP_MAX_DAYS_AHEAD })} {t("common:dateInput")}
            </p>
            <FieldError field={fields.windowDate} />
          </div>
          <fieldset
            className="flex flex-col gap-1"
            aria-describedby={fields.windowSlot.errors?.length ? fields.windowSlot.errorId : undefined}
          >
            <legend className="font-medium text-slate-800">{t("goods:offer.slot")}</legend>
            {PICKUP_SLOTS.map((s) => (
              <label key={s} className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name={fields.windowSlot.name}
                  value={s}
                  defaultChecked={fields.windowSlot.initialValue === s}
                  aria-invalid={fields.windowSlot.errors?.length ? true : undefined}
                  className="size-5 shrink-0"
                />
                {t(`pickups:slots.${s}`)}
              </label>
            ))}
            <FieldError field={fields.windowSlot} />
          </fieldset>
        </fieldset>
        <GiftFundFields fund={fields.fund} showName={fields.showName} inNameOf={fields.inNameOf} accepted={acceptedFunds} />
        <button type="submit" disabled={busy} className={brandButton("block")}>
          {busy ? t("goods:offer.submitting") : t("goods:offer.submit")}
        </button>
      </Form>
    </section>
  );
}
