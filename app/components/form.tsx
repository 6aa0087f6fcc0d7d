import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { useNavigation } from "react-router";
import { brandButton } from "#app/components/ui/button.ts";

/** Translates an error key ("namespace:key") coming from a schema or a domain error. */
function useErrorText() {
  const { t } = useTranslation();
  return (key: string) => t(key);
}

/** A field's label above it, and its hint and first error below, tied to the control by ids. */
function FieldFrame({
  field,
  label,
  hint,
  hintId,
  children,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  hintId?: string;
  children: React.ReactNode;
}) {
  const errorText = useErrorText();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {field.errors && field.errors.length > 0 && (
        <p id={field.errorId} className="text-sm font-medium text-red-700">
          {errorText(field.errors[0]!)}
        </p>
      )}
    </div>
  );
}

type InputType = "text" | "email" | "password" | "tel" | "file" | "number" | "url";

/**
 * A labelled input with its error below it, tied together with aria-invalid / aria-describedby.
 * Works before JavaScript arrives: the server renders the same errors from the action's reply.
 */
export function TextField({
  field,
  label,
  type = "text",
  autoComplete,
  hint,
  accept,
  inputMode,
  defaultValue,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  type?: InputType;
  autoComplete?: string;
  hint?: string;
  accept?: string;
  inputMode?: "numeric" | "tel" | "email" | "text";
  defaultValue?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const props = getInputProps(field as FieldMetadata<string>, { type: type === "file" ? "file" : (type as "text") });
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldFrame field={field} label={label} hint={hint} hintId={hintId}>
      <input
        {...props}
        {...(defaultValue !== undefined && type !== "file" ? { defaultValue } : {})}
        key={props.key}
        aria-describedby={describedBy}
        autoComplete={autoComplete}
        accept={accept}
        inputMode={inputMode}
        className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600 file:me-3 file:rounded file:border-0 file:bg-brand-100 file:px-3 file:py-1"
      />
    </FieldFrame>
  );
}

/** A labelled multi-line input with its error and hint, tied together like `TextField`. */
export function TextAreaField({
  field,
  label,
  hint,
  rows = 4,
  defaultValue,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  rows?: number;
  defaultValue?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const { key, ...props } = getTextareaProps(field as FieldMetadata<string>);
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldFrame field={field} label={label} hint={hint} hintId={hintId}>
      <textarea
        {...props}
        {...(defaultValue !== undefined ? { defaultValue } : {})}
        key={key}
        rows={rows}
        aria-describedby={describedBy}
        className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
      />
    </FieldFrame>
  );
}

/** A labelled choice from a fixed list, with a "choose" first option sent as empty; error and hint as `TextField`. */
export function SelectField({
  field,
  label,
  hint,
  placeholder,
  options,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  /** The empty first choice ("Choose a cause"): nothing is chosen until the person chooses. */
  placeholder: string;
  options: { value: string; label: string }[];
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const { key, defaultValue, ...props } = getSelectProps(field as FieldMetadata<string>);
  // A form sent back with the field twice (a crafted post) has a list here; a single select shows the first.
  const initial: unknown = Array.isArray(defaultValue) ? defaultValue[0] : defaultValue;
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldFrame field={field} label={label} hint={hint} hintId={hintId}>
      <select
        {...props}
        key={key}
        defaultValue={typeof initial === "string" ? initial : undefined}
        aria-describedby={describedBy}
        className="min-h-11 rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** Form-level errors in the specification's red 'Error: ' box. */
export function ErrorBox({ errors, id }: { errors?: string[] | null; id?: string }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
      {errors.map((e) => (
        <p key={e}>
          <strong>{t("common:errorPrefix")}</strong>
          {t(e)}
        </p>
      ))}
    </div>
  );
}

/** The '* Required' line shown above a form when any required field is empty. */
export function RequiredNotice({ fields }: { fields: FieldMetadata<unknown>[] }) {
  const { t } = useTranslation();
  const missing = fields.some((f) => f.errors?.some((e) => /Required$|:required$/.test(e)));
  if (!missing) return null;
  return <p className="font-medium text-red-700">{t("validation:required")}</p>;
}

/** A submit button that shows a busy label and is disabled while its form is being sent. */
export function SubmitButton({ children, busyLabel, className }: { children: React.ReactNode; busyLabel?: string; className?: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <button type="submit" disabled={busy} className={className ?? brandButton("block")}>
      {busy ? (busyLabel ?? t("common:loading")) : children}
    </button>
  );
}
