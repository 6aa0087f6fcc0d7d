import { getInputProps, getSelectProps, getTextareaProps } from "#app/lib/use-schema-form.ts";
import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { useEffect, useRef, useState } from "react";
import { UserText } from "#app/components/user-text.tsx";
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
  note,
  noteId,
  children,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  hintId?: string;
  /** A notice about this field for now (not its standing rules, which are the hint), shown above the error. */
  note?: string;
  noteId?: string;
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
      {note && (
        <p id={noteId} className="rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-950">
          {note}
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

type InputType = "text" | "email" | "password" | "tel" | "number" | "url" | "date";

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
  inputMode,
  defaultValue,
  note,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  type?: InputType;
  autoComplete?: string;
  hint?: string;
  inputMode?: "numeric" | "tel" | "email" | "text";
  defaultValue?: string;
  /** A notice about this field for now (not its standing rules, which are the hint), shown above the error. */
  note?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const noteId = note ? `${field.id}-note` : undefined;
  const props = getInputProps(field as FieldMetadata<string>, { type: type as "text" });
  const describedBy = [props["aria-describedby"], hintId, noteId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldFrame field={field} label={label} hint={hint} hintId={hintId} note={note} noteId={noteId}>
      <input
        {...props}
        {...(defaultValue !== undefined ? { defaultValue } : {})}
        key={props.key}
        aria-describedby={describedBy}
        autoComplete={autoComplete}
        inputMode={inputMode}
        className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
      />
    </FieldFrame>
  );
}

/**
 * A labelled file input whose button speaks the page's language: the browser's own button says "Choose file" in the
 * browser's language whatever the page's, so the native input is kept (a form sends the file without JavaScript, and
 * a screen reader announces it as the field) but visually hidden, and a label of ours stands in for its button, with
 * the chosen file's name beside it once the page has JavaScript. Error and hint as `TextField`.
 */
export function FileField({
  field,
  label,
  accept,
  hint,
  note,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  accept: string;
  hint?: string;
  /** A notice about this field for now (not its standing rules, which are the hint), shown above the error. */
  note?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const noteId = note ? `${field.id}-note` : undefined;
  const { key, ...props } = getInputProps(field as FieldMetadata<string>, { type: "file" });
  const describedBy = [props["aria-describedby"], hintId, noteId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldFrame field={field} label={label} hint={hint} hintId={hintId} note={note} noteId={noteId}>
      {/* A new input (the form came back) starts with no file, and so does what this shows of it. */}
      <FilePicker key={key} inputProps={{ ...props, "aria-describedby": describedBy, accept }} />
    </FieldFrame>
  );
}

function FilePicker({ inputProps }: { inputProps: React.InputHTMLAttributes<HTMLInputElement> & { id?: string } }) {
  const { t } = useTranslation();
  // Null until hydration: without JavaScript nothing of ours could show the name, so nothing claims there is none;
  // the browser's own input is shown instead (`noscript:`, the `scripting: none` media query), which names the
  // chosen file itself, in the browser's language.
  const [chosen, setChosen] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <input
        {...inputProps}
        onChange={(event) => setChosen(event.currentTarget.files?.[0]?.name ?? "")}
        className="peer sr-only noscript:not-sr-only noscript:min-h-11"
      />
      {/* The field's name is its label above; this one is the button to look at and press, so it is not read twice. */}
      <label
        htmlFor={inputProps.id}
        aria-hidden="true"
        className="inline-flex min-h-11 cursor-pointer items-center noscript:hidden rounded-md border border-slate-400 bg-brand-100 px-4 py-2 font-medium text-brand-900 hover:bg-brand-50 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-amber-500 peer-aria-invalid:border-red-600"
      >
        {t("common:file.choose")}
      </label>
      {live && (
        <span aria-hidden="true" className="min-w-0 text-sm wrap-anywhere text-slate-700" data-testid="chosen-file">
          {chosen ? <UserText>{chosen}</UserText> : t("common:file.none")}
        </span>
      )}
    </div>
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

/** The '* Required' line shown above a form when any required field is empty. */
export function RequiredNotice({ fields }: { fields: FieldMetadata<unknown>[] }) {
  const { t } = useTranslation();
  const missing = fields.some((f) => f.errors?.some((e) => /Required$|:required$/.test(e)));
  if (!missing) return null;
  return <p className="font-medium text-red-700">{t("validation:required")}</p>;
}

/** The path and query a form posts to, as React Router records it in `navigation.formAction`. */
function formTarget(form: HTMLFormElement): string {
  const url = new URL(form.action, window.location.href);
  return url.pathname + url.search;
}

/**
 * A submit button that shows a busy label and stays disabled from the moment its form is sent until the next
 * page has arrived: while the action runs ("submitting") and while the loaders of the page it leads to run
 * ("loading" after this form's submission), so a slow page cannot offer a second, lost press.
 *
 * Pressing it does not take the focus: the field being left would otherwise blur first, its new error could
 * push the button down mid-press and the click would land elsewhere. Keyboard use is unchanged.
 */
export function SubmitButton({ children, busyLabel, className }: { children: React.ReactNode; busyLabel?: string; className?: string }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const ref = useRef<HTMLButtonElement>(null);
  const busy =
    navigation.state === "submitting" ||
    (navigation.state === "loading" && navigation.formAction !== undefined && isOwnSubmission(ref.current, navigation));
  return (
    <button
      ref={ref}
      type="submit"
      disabled={busy}
      aria-busy={busy || undefined}
      onMouseDown={(e) => e.preventDefault()}
      className={className ?? brandButton("block")}
    >
      {busy ? (busyLabel ?? t("common:loading")) : children}
    </button>
  );
}

/** Whether the submission in flight is this button's form: same target and method (a page may hold several forms). */
function isOwnSubmission(button: HTMLButtonElement | null, navigation: ReturnType<typeof useNavigation>): boolean {
  const form = button?.form;
  // Before the first render has attached the button, any submission in flight is the one to wait for.
  if (!form) return true;
  const method = (button.getAttribute("formmethod") ?? form.getAttribute("method") ?? "get").toUpperCase();
  const action = button.hasAttribute("formaction") ? new URL(button.formAction, window.location.href) : null;
  const target = action ? action.pathname + action.search : formTarget(form);
  return navigation.formMethod?.toUpperCase() === method && navigation.formAction === target;
}
