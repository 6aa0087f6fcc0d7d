import type { SubmissionResult } from "@conform-to/react";
import { Ban, PackageCheck, UserCheck } from "lucide-react";
import { Form, useNavigation } from "react-router";

import { useTranslation } from "#app/i18n/provider.ts";
import { ITEMS_MAX_LENGTH, REASON_MAX_LENGTH } from "#shared/constants.ts";
import type { PickupAction, PickupStatus } from "#shared/statuses.ts";
import type { TimelineEvent } from "./pickup-timeline.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { useRequiredCheck } from "#app/components/review-dialog.tsx";
import { brandButton } from "#app/components/ui/button.ts";

/** A rider the NGO can choose: the id its option sends and the option's words, written by the loader (`riderOptions`). */
export interface RiderOption {
  id: string;
  label: string;
}

export type PickupActionData = { result: SubmissionResult<string[]>; donationId: string; intent: string } | undefined;

/** The fields that each action form shows its own errors under; anything else is a form error. */
export const PICKUP_ACTION_FIELDS = ["riderId", "reason", "note"];

function useSending() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return { busy, sending: busy ? String(navigation.formData?.get("intent") ?? "") : "" };
}

const primaryButton = brandButton("medium", "inline-flex items-center justify-center gap-1 self-start");
const fieldClass = "w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600";

/**
 * The NGO's actions on one pick-up request, by its state: assign (new), reassign (assigned / accepted), cancel
 * with a reason (until collected), confirm receipt with an optional note (delivered); otherwise its state.
 * Plain POST forms checked by the server, without the form library (decision 033): a missing rider or reason is
 * answered before sending (`useRequiredCheck`), anything else by the server's answer under its field. While one is
 * being sent, every button waits.
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
  riders: RiderOption[];
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

/** The value a form was sent back with, to draw it again. */
function sentValue(result: SubmissionResult<string[]> | undefined, name: string): string | undefined {
  const value = result?.initialValue?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The attributes tying a field to its hint and, when there is one, its error (as the form library set them). */
function described(errorId: string, hintId: string, error: string | undefined) {
  return error ? { "aria-invalid": true, "aria-describedby": `${errorId} ${hintId}` } : { "aria-describedby": hintId };
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
  riders: RiderOption[];
  radiusKm: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const { busy, sending } = useSending();
  const { errors, ...check } = useRequiredCheck("riderId", "pickups:errors.riderRequired", lastResult?.error?.riderId);
  const formId = `${intent}-${id}`;
  const fieldId = `${formId}-riderId`;
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  if (riders.length === 0) {
    return <p className="rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">{t("assign:rider.none")}</p>;
  }
  return (
    <Form method="post" id={formId} {...check} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="donationId" value={id} />
      <label htmlFor={fieldId} className="font-medium text-slate-800">
        {t("assign:rider.label")}
      </label>
      <select
        id={fieldId}
        name="riderId"
        defaultValue={sentValue(lastResult, "riderId")}
        {...described(errorId, hintId, errors?.[0])}
        required
        className={fieldClass}
      >
        <option value="">{t("assign:rider.choose")}</option>
        {riders.map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-sm text-slate-600">
        {intent === "assign" ? t("assign:rider.hint", { km: radiusKm }) : t("assign:actions.reassignHint")}
      </p>
      <FieldError id={errorId} error={errors?.[0]} />
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
  const { errors, ...check } = useRequiredCheck("reason", "pickups:errors.reasonRequired", lastResult?.error?.reason);
  const formId = `cancel-${id}`;
  return (
    <ReasonForm
      open={Boolean(lastResult)}
      summary={t("assign:actions.cancel")}
      formProps={{ id: formId, ...check }}
      hidden={{ intent: "cancel", donationId: id }}
      field={{
        id: `${formId}-reason`,
        name: "reason",
        errorId: `${formId}-reason-error`,
        errors,
        initialValue: sentValue(lastResult, "reason"),
      }}
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

/** Confirm receipt, optionally noting what actually arrived (its length held by the field and by the server). */
function ReceiveForm({ id, lastResult }: { id: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation();
  const { busy, sending } = useSending();
  const formId = `received-${id}`;
  const fieldId = `${formId}-note`;
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  const error = lastResult?.error?.note?.[0];
  return (
    <Form method="post" id={formId} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="received" />
      <input type="hidden" name="donationId" value={id} />
      <p className="text-slate-800">{t("assign:actions.receiveLead")}</p>
      <label htmlFor={fieldId} className="font-medium text-slate-800">
        {t("assign:actions.receiveNote")}
      </label>
      <textarea
        id={fieldId}
        name="note"
        defaultValue={sentValue(lastResult, "note")}
        {...described(errorId, hintId, error)}
        maxLength={ITEMS_MAX_LENGTH}
        rows={3}
        className={fieldClass}
      />
      <p id={hintId} className="text-sm text-slate-600">
        {t("assign:actions.receiveHint")}
      </p>
      <FieldError id={errorId} error={error} />
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
