import type { SubmissionResult } from "@conform-to/react";
import { Ban, PackageCheck, UserCheck } from "lucide-react";
import { Form, useNavigation } from "react-router";

import { getFormProps, getSelectProps, getTextareaProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor } from "#shared/places.ts";
import { ITEMS_MAX_LENGTH, REASON_MAX_LENGTH } from "#shared/constants.ts";
import { formatKm } from "#shared/format.ts";
import type { PickupAction, PickupStatus } from "#shared/statuses.ts";
import type { TimelineEvent } from "./pickup-timeline.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { brandButton } from "#app/components/ui/button.ts";

/** A rider the NGO can choose, as the loader gives it (the server's `riderChoices`). */
export interface RiderChoice {
  id: string;
  name: string;
  areaLabel: string | null;
  areaLabelUr: string | null;
  /** Kilometres from the pick-up point; null when the rider has not set an area. */
  distanceKm: number | null;
  /** Farther than the configured radius from the pick-up point. */
  far: boolean;
  /** Declined this pick-up before (listed last). */
  declined: boolean;
  /** Pick-ups the rider has under way now. */
  open: number;
}

export type PickupActionData = { result: SubmissionResult<string[]>; donationId: string; intent: string } | undefined;

/** The fields that each action form shows its own errors under; anything else is a form error. */
export const PICKUP_ACTION_FIELDS = ["riderId", "reason", "note"];

function useSending() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return { busy, sending: busy ? String(navigation.formData?.get("intent") ?? "") : "" };
}

/**
 * "Name — 3.2 km (Area) · 1 open", "distance unknown" for a rider who has set no area, "under 1 km" close by;
 * then "far" beyond the radius and "declined this pick-up" for a rider who said no to it.
 */
export function useRiderLabel(radiusKm: string) {
  const { t, i18n } = useTranslation();
  return (r: RiderChoice) => {
    let label: string;
    if (r.distanceKm === null) label = t("assign:rider.optionUnknown", { name: r.name, open: r.open });
    else {
      const km = formatKm(r.distanceKm, i18n.language);
      const distance = km === null ? t("assign:rider.underKm") : t("assign:rider.km", { km });
      label = r.areaLabel
        ? t("assign:rider.option", {
            name: r.name,
            distance,
            area: placeLabelFor({ label: r.areaLabel, labelUr: r.areaLabelUr }, i18n.language),
            open: r.open,
          })
        : t("assign:rider.optionNoArea", { name: r.name, distance, open: r.open });
    }
    if (r.far) label = t("assign:rider.withMark", { label, mark: t("assign:rider.far", { km: radiusKm }) });
    if (r.declined) label = t("assign:rider.withMark", { label, mark: t("assign:rider.declined") });
    return label;
  };
}

const primaryButton = brandButton("medium", "inline-flex items-center justify-center gap-1 self-start");
const fieldClass = "w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600";

/**
 * The NGO's actions on one pick-up request, by its state: assign (new), reassign (assigned / accepted), cancel
 * with a reason (until collected), confirm receipt with an optional note (delivered); otherwise its state.
 * Plain POST forms; while one is being sent, every button waits.
 */
export function PickupActions({
  detail,
  riders,
  radiusKm,
  actionData,
}: {
  detail: {
    id: string;
    status: PickupStatus;
    actions: readonly PickupAction[];
    riderId: string | null;
    riderName: string | null;
    receivedNote: string | null;
    events: TimelineEvent[];
  };
  riders: RiderChoice[];
  /** The configured radius beyond which riders are marked far, formatted. */
  radiusKm: string;
  actionData: PickupActionData;
}) {
  const { t } = useTranslation();
  const resultOf = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  // The forms are the actions the loader sends (the pick-up table's actionsFor); the rest are notes on the state.
  const can = (action: PickupAction) => detail.actions.includes(action);
  if (can("assign") || can("reassign") || can("cancel")) {
    return (
      <div className="flex flex-col gap-5">
        {can("reassign") && detail.riderName && <p className="text-slate-800">{t("assign:rider.current", { name: detail.riderName })}</p>}
        {can("assign") && <RiderForm id={detail.id} intent="assign" riders={riders} radiusKm={radiusKm} lastResult={resultOf("assign")} />}
        {can("reassign") && (
          <RiderForm
            id={detail.id}
            intent="reassign"
            riders={riders.filter((r) => r.id !== detail.riderId)}
            radiusKm={radiusKm}
            lastResult={resultOf("reassign")}
          />
        )}
        {can("cancel") && <CancelForm id={detail.id} lastResult={resultOf("cancel")} />}
      </div>
    );
  }
  if (can("receive")) return <ReceiveForm id={detail.id} lastResult={resultOf("received")} />;
  switch (detail.status) {
    case "collected":
      return <StateNote>{t("assign:states.collected")}</StateNote>;
    case "received":
      return (
        <StateNote>
          <span className="font-bold">{t("assign:states.received")}</span>
          {detail.receivedNote && (
            <span className="mt-1 block wrap-anywhere whitespace-pre-line">{t("assign:timeline.note", { text: detail.receivedNote })}</span>
          )}
        </StateNote>
      );
    case "cancelled": {
      const reason = [...detail.events].reverse().find((e) => e.type === "cancelled")?.reason;
      return (
        <StateNote>
          <span className="font-bold">{t("assign:states.cancelled")}</span>
          {reason && <span className="mt-1 block wrap-anywhere">{t("assign:timeline.reason", { text: reason })}</span>}
        </StateNote>
      );
    }
  }
}

function StateNote({ children }: { children: React.ReactNode }) {
  return <p className="rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-900">{children}</p>;
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p id={id} className="text-sm font-medium text-red-700">
      {t(error)}
    </p>
  );
}

/** Select Rider + Assign Rider (or Reassign): the riders nearest the pick-up point first. */
function RiderForm({
  id,
  intent,
  riders,
  radiusKm,
  lastResult,
}: {
  id: string;
  intent: "assign" | "reassign";
  riders: RiderChoice[];
  radiusKm: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const { busy, sending } = useSending();
  const label = useRiderLabel(radiusKm);
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.ngoPickupSchema), {
    id: `${intent}-${id}`,
    lastResult,
  });
  const field = fields.riderId;
  const hintId = `${field.id}-hint`;
  if (riders.length === 0) {
    return <p className="rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">{t("assign:rider.none")}</p>;
  }
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="donationId" value={id} />
      <label htmlFor={field.id} className="font-medium text-slate-800">
        {t("assign:rider.label")}
      </label>
      <select {...getSelectProps(field, { ariaDescribedBy: hintId })} key={field.key} required className={fieldClass}>
        <option value="">{t("assign:rider.choose")}</option>
        {riders.map((r) => (
          <option key={r.id} value={r.id}>
            {label(r)}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-sm text-slate-600">
        {intent === "assign" ? t("assign:rider.hint", { km: radiusKm }) : t("assign:actions.reassignHint")}
      </p>
      <FieldError id={field.errorId} error={field.errors?.[0]} />
      <button type="submit" disabled={busy} className={primaryButton}>
        <UserCheck aria-hidden="true" className="size-5" />
        {intent === "assign"
          ? sending === "assign"
            ? t("assign:actions.assigning")
            : t("assign:actions.assign")
          : sending === "reassign"
            ? t("assign:actions.reassigning")
            : t("assign:actions.reassign")}
      </button>
    </Form>
  );
}

/** Cancel (a native disclosure asking for the reason, open again when the server sends the form back). */
function CancelForm({ id, lastResult }: { id: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const { busy, sending } = useSending();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.ngoPickupSchema), {
    id: `cancel-${id}`,
    lastResult,
  });
  return (
    <ReasonForm
      open={Boolean(lastResult)}
      summary={t("assign:actions.cancel")}
      formProps={getFormProps(form)}
      hidden={{ intent: "cancel", donationId: id }}
      field={fields.reason}
      label={t("assign:actions.cancelReason")}
      hint={t("assign:actions.cancelHint")}
      required
      maxLength={REASON_MAX_LENGTH}
    >
      <button
        type="submit"
        disabled={busy}
        className="inline-flex items-center gap-1 self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:cursor-wait disabled:opacity-70"
      >
        <Ban aria-hidden="true" className="size-4" />
        {sending === "cancel" ? t("assign:actions.cancelling") : t("assign:actions.sendCancel")}
      </button>
    </ReasonForm>
  );
}

/** Confirm receipt, optionally noting what actually arrived. */
function ReceiveForm({ id, lastResult }: { id: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const { busy, sending } = useSending();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.ngoPickupSchema), {
    id: `received-${id}`,
    lastResult,
  });
  const field = fields.note;
  const hintId = `${field.id}-hint`;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="received" />
      <input type="hidden" name="donationId" value={id} />
      <p className="text-slate-800">{t("assign:actions.receiveLead")}</p>
      <label htmlFor={field.id} className="font-medium text-slate-800">
        {t("assign:actions.receiveNote")}
      </label>
      <textarea
        {...getTextareaProps(field, { ariaDescribedBy: hintId })}
        key={field.key}
        maxLength={ITEMS_MAX_LENGTH}
        rows={3}
        className={fieldClass}
      />
      <p id={hintId} className="text-sm text-slate-600">
        {t("assign:actions.receiveHint")}
      </p>
      <FieldError id={field.errorId} error={field.errors?.[0]} />
      <button
        type="submit"
        disabled={busy}
        className="inline-flex items-center justify-center gap-1 self-start rounded-md bg-emerald-700 px-5 py-2 font-bold text-white hover:bg-emerald-800 disabled:cursor-wait disabled:opacity-70"
      >
        <PackageCheck aria-hidden="true" className="size-5" />
        {sending === "received" ? t("assign:actions.receiving") : t("assign:actions.receive")}
      </button>
    </Form>
  );
}
