import { UserText } from "#app/components/user-text.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { Check, MapPin, Navigation, Package, Phone, Warehouse, X } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { ErrorBox } from "#app/components/error-box.tsx";

import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { PICKUP_CODE_DIGITS, REASON_MAX_LENGTH } from "#shared/constants.ts";
import type { PickupAction } from "#shared/statuses.ts";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";

/** A pick-up as the rider's list shows it (dates and distances already formatted by the loader). */
export interface RiderCardItem {
  id: string;
  status: "assigned" | "accepted" | "collected" | "delivered" | "received" | "new" | "cancelled";
  /** What the rider may do with it now, from the pick-up table (sent by the loader). */
  actions: readonly PickupAction[];
  items: string;
  phone: string | null;
  address: string;
  areaLabel: string;
  lat: number;
  lng: number;
  windowDay: string;
  windowSlot: "morning" | "afternoon" | "evening";
  campaignTitle: string;
  ngoName: string;
  /** Where to take the goods: the NGO's drop-off point nearest the pick-up, or its office (no point). */
  dropoff: {
    name: string;
    address: string;
    areaLabel: string | null;
    point: { lat: number; lng: number } | null;
    /** Formatted km from the pick-up; null for the office or under a kilometre (`near`). */
    distance: string | null;
    near: boolean;
  };
  distance: string | null;
  /** Under a kilometre from the rider's area. */
  inArea: boolean;
  receivedNote: string | null;
}

/** The action's reply for one card: which request and form it answers, and Conform's result. */
export interface RiderCardReply {
  donationId: string;
  intent: string;
  result: SubmissionResult<string[]>;
}

/** Fields that have their own place on the card; any other error is shown in the card's error box. */
const CARD_FIELDS = ["reason", "code"];

/**
 * Directions open in the phone's maps app through Google's universal https link: Android and iOS hand it to
 * the installed Maps app and any other device opens the website. A `geo:` URI would be neater but iOS Safari and
 * desktop browsers do not handle it, so there the link would do nothing.
 */
export function directionsHref(destination: { lat: number; lng: number } | string): string {
  const to = typeof destination === "string" ? encodeURIComponent(destination) : `${destination.lat},${destination.lng}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${to}`;
}

const bigButton = "inline-flex min-h-12 items-center justify-center gap-2 rounded-lg px-4 py-2 text-base font-bold";
const linkButton = `${bigButton} border-2 border-brand-700 text-brand-800 hover:bg-brand-50`;

/** One request on /rider_home: what to collect, where and when, how to reach the donor, and the next step. */
export function RiderPickupCard({ item, reply, hasArea }: { item: RiderCardItem; reply?: RiderCardReply; hasArea: boolean }) {
  const { t } = useTranslation();
  const headingId = `pickup-${item.id}`;
  const formErrors = reply
    ? Object.entries(reply.result.error ?? {})
        .filter(([name]) => !CARD_FIELDS.includes(name))
        .flatMap(([, errors]) => errors ?? [])
    : [];
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm">
      <div>
        <h3 id={headingId} className="text-lg font-bold break-words text-brand-900">
          <UserText>{item.campaignTitle}</UserText>
        </h3>
        <p className="text-slate-700">{t("rider:card.forNgo", { ngo: item.ngoName })}</p>
        <p className="mt-1 inline-block rounded-full bg-slate-100 px-3 py-1 font-medium text-slate-900" data-testid="pickup-state">
          {t(`rider:card.state.${item.status}`)}
        </p>
      </div>

      <dl className="flex flex-col gap-2 text-base">
        <div>
          <dt className="flex items-center gap-1 font-medium text-slate-600">
            <Package aria-hidden="true" className="size-4" />
            {t("rider:card.items")}
          </dt>
          <UserText as="dd" className="wrap-anywhere whitespace-pre-line">
            {item.items}
          </UserText>
        </div>
        <div>
          <dt className="flex items-center gap-1 font-medium text-slate-600">
            <MapPin aria-hidden="true" className="size-4" />
            {t("rider:card.address")}
          </dt>
          <dd className="wrap-anywhere">
            <UserText>{item.address}</UserText>
            <br />
            {item.areaLabel}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-600">{t("rider:card.window")}</dt>
          <dd>
            {item.windowDay} · {t(`pickups:slots.${item.windowSlot}`)}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-600">{t("rider:card.distance")}</dt>
          <dd data-testid="pickup-distance">
            {item.inArea ? (
              t("rider:card.inArea")
            ) : item.distance !== null ? (
              t("rider:card.distanceKm", { km: item.distance })
            ) : hasArea ? (
              "–"
            ) : (
              <Link to="/rider_profile" className="font-medium text-brand-800 underline">
                {t("rider:card.setArea")}
              </Link>
            )}
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-1 font-medium text-slate-600">
            <Warehouse aria-hidden="true" className="size-4" />
            {t("rider:card.deliverTo")}
          </dt>
          <dd className="wrap-anywhere" data-testid="pickup-dropoff">
            <UserText className="font-medium">{item.dropoff.name}</UserText>
            <br />
            <UserText>{item.dropoff.address}</UserText>
            {item.dropoff.areaLabel && (
              <>
                <br />
                {item.dropoff.areaLabel}
              </>
            )}
            {(item.dropoff.distance !== null || item.dropoff.near) && (
              <>
                <br />
                <span className="text-slate-700">
                  {item.dropoff.near ? t("rider:card.dropoffNear") : t("rider:card.dropoffKm", { km: item.dropoff.distance ?? "" })}
                </span>
              </>
            )}
          </dd>
        </div>
      </dl>
      {item.status === "received" && item.receivedNote && (
        <p className="wrap-anywhere text-slate-700">{t("rider:card.receivedNote", { note: item.receivedNote })}</p>
      )}

      {item.status !== "delivered" && item.status !== "received" && (
        <div className="grid grid-cols-2 gap-2">
          {item.phone && (
            <a href={`tel:${item.phone}`} className={linkButton} aria-describedby={`phone-${item.id}`}>
              <Phone aria-hidden="true" className="size-5" />
              {t("rider:card.callDonor")}
            </a>
          )}
          <a href={directionsHref({ lat: item.lat, lng: item.lng })} className={linkButton} aria-label={t("rider:card.directionsLabel")}>
            <Navigation aria-hidden="true" className="size-5" />
            {t("rider:card.directions")}
          </a>
          {item.phone && (
            <p id={`phone-${item.id}`} className="col-span-2 text-slate-700">
              {t("rider:card.donorPhone")}: <span dir="ltr">{item.phone}</span>
            </p>
          )}
          {item.status === "collected" && (
            <a
              href={directionsHref(item.dropoff.point ?? [item.dropoff.address, item.dropoff.areaLabel].filter(Boolean).join(", "))}
              className={`${linkButton} col-span-2`}
            >
              <Navigation aria-hidden="true" className="size-5" />
              {t("rider:card.ngoDirections")}
            </a>
          )}
        </div>
      )}

      <ErrorBox errors={formErrors} />
      {item.actions.includes("accept") && <PendingActions id={item.id} reply={reply?.intent === "decline" ? reply.result : undefined} />}
      {item.actions.includes("collect") && <CollectForm id={item.id} reply={reply?.intent === "collect" ? reply.result : undefined} />}
      {item.actions.includes("deliver") && (
        <Form method="post">
          <input type="hidden" name="intent" value="deliver" />
          <input type="hidden" name="donationId" value={item.id} />
          <Busy intent="deliver" id={item.id}>
            {(busy) => (
              <button
                type="submit"
                disabled={busy}
                className={`${bigButton} w-full bg-brand-700 text-white hover:bg-brand-800 disabled:opacity-70`}
              >
                <Check aria-hidden="true" className="size-5" />
                {busy ? t("rider:actions.sending") : t("rider:actions.delivered")}
              </button>
            )}
          </Busy>
        </Form>
      )}
    </article>
  );
}

/** Whether this card's form with this intent is being sent (to show it and stop a second tap). */
function Busy({ intent, id, children }: { intent: string; id: string; children: (busy: boolean) => React.ReactNode }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData?.get("donationId") === id;
  return <>{children(busy)}</>;
}

/** Accept (one tap) or Decline, which opens a required reason (a native disclosure: no JavaScript needed). */
function PendingActions({ id, reply }: { id: string; reply?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.riderPickupSchema), {
    id: `decline-${id}`,
    lastResult: reply,
  });
  return (
    <div className="flex flex-col gap-2">
      <Form method="post">
        <input type="hidden" name="intent" value="accept" />
        <input type="hidden" name="donationId" value={id} />
        <Busy intent="accept" id={id}>
          {(busy) => (
            <button
              type="submit"
              disabled={busy}
              className={`${bigButton} w-full bg-emerald-700 text-white hover:bg-emerald-800 disabled:opacity-70`}
            >
              <Check aria-hidden="true" className="size-5" />
              {busy ? t("rider:actions.sending") : t("rider:actions.accept")}
            </button>
          )}
        </Busy>
      </Form>
      <ReasonForm
        open={Boolean(reply)}
        summary={
          <>
            <X aria-hidden="true" className="size-5" />
            {t("rider:actions.decline")}
          </>
        }
        summaryClassName={`${bigButton} w-full cursor-pointer list-none border-2 border-red-700 text-red-800 hover:bg-red-50`}
        formProps={getFormProps(form)}
        hidden={{ intent: "decline", donationId: id }}
        field={fields.reason}
        label={t("rider:actions.declineReason")}
        hint={t("rider:actions.declineHint")}
        required
        maxLength={REASON_MAX_LENGTH}
        textSize="base"
      >
        <Busy intent="decline" id={id}>
          {(busy) => (
            <button
              type="submit"
              disabled={busy}
              className={`${bigButton} w-full bg-red-700 text-white hover:bg-red-800 disabled:opacity-70`}
            >
              {busy ? t("rider:actions.sending") : t("rider:actions.sendDecline")}
            </button>
          )}
        </Busy>
      </ReasonForm>
    </div>
  );
}

/** At the door: the donor's 4-digit code marks the goods collected (a wrong code is refused, tries are limited). */
function CollectForm({ id, reply }: { id: string; reply?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.riderPickupSchema), {
    id: `collect-${id}`,
    lastResult: reply,
  });
  const codeError = fields.code.errors?.[0];
  const hintId = `${fields.code.id}-hint`;
  const { key, ...codeProps } = getInputProps(fields.code, { type: "text", ariaDescribedBy: hintId });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="collect" />
      <input type="hidden" name="donationId" value={id} />
      <label htmlFor={fields.code.id} className="font-medium text-slate-800">
        {t("rider:actions.code")}
      </label>
      <input
        {...codeProps}
        key={key}
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${PICKUP_CODE_DIGITS}}`}
        maxLength={PICKUP_CODE_DIGITS}
        dir="ltr"
        className="min-h-12 w-40 rounded-md border border-slate-400 bg-white px-3 py-2 text-center font-mono text-2xl tracking-[0.3em] aria-invalid:border-red-600"
      />
      <p id={hintId} className="text-slate-600">
        {t("rider:actions.codeHint")}
      </p>
      {codeError && (
        <p id={fields.code.errorId} className="font-medium text-red-700">
          {t(codeError)}
        </p>
      )}
      <Busy intent="collect" id={id}>
        {(busy) => (
          <button
            type="submit"
            disabled={busy}
            className={`${bigButton} w-full bg-brand-700 text-white hover:bg-brand-800 disabled:opacity-70`}
          >
            <Check aria-hidden="true" className="size-5" />
            {busy ? t("rider:actions.sending") : t("rider:actions.collected")}
          </button>
        )}
      </Busy>
    </Form>
  );
}
