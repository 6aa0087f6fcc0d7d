import type { getFormProps } from "#app/lib/use-schema-form.ts";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";

/** The field a reason form writes: a Conform field's metadata, or the same few names for a plain form. */
export interface ReasonField {
  id: string;
  name: string;
  errorId: string;
  /** Error keys (translated here); the first is shown. */
  errors?: string[];
  /** Set by Conform: ties the textarea to its form and restarts it when the form is reset. */
  formId?: string;
  key?: string;
  initialValue?: unknown;
}

/** The red outline button that opens a reason form. */
export const REASON_SUMMARY_CLASS =
  "inline-block cursor-pointer rounded-md border-2 border-red-700 px-4 py-1.5 font-bold text-red-800 hover:bg-red-50";
const TEXTAREA_CLASS = "w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600";

/**
 * A refusal that asks why: a native disclosure (works without JavaScript) holding a POST form with a labelled
 * reason, its hint and its error tied to it (aria-invalid, aria-describedby), the hidden fields that say what
 * is refused, and the caller's submit button. It is open when the server has sent the form back.
 */
export function ReasonForm({
  open,
  summary,
  summaryClassName = REASON_SUMMARY_CLASS,
  className = "min-w-0",
  formProps,
  formClassName = "mt-3 flex flex-col gap-2",
  hidden,
  field,
  label,
  hint,
  required,
  maxLength,
  dir,
  textSize = "sm",
  children,
}: {
  open: boolean;
  /** The disclosure's button: the action's name (and an icon). */
  summary: ReactNode;
  summaryClassName?: string;
  className?: string;
  /** `getFormProps(form)` of a Conform form, or a plain form's id and whether the browser's check is left out. */
  formProps?: ReturnType<typeof getFormProps> | { id: string; noValidate: boolean; onSubmit?: React.FormEventHandler<HTMLFormElement> };
  formClassName?: string;
  hidden: Record<string, string>;
  field: ReasonField;
  label: string;
  hint: string;
  required?: boolean;
  maxLength?: number;
  dir?: "auto";
  /** The hint's and error's size: "base" where the screen's text is larger (the rider's cards). */
  textSize?: "sm" | "base";
  /** The submit button. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const hintId = `${field.id}-hint`;
  const error = field.errors?.[0];
  const small = textSize === "sm" ? "text-sm " : "";
  return (
    <details open={open} className={className}>
      <summary className={summaryClassName}>{summary}</summary>
      <Form method="post" {...formProps} className={formClassName}>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor={field.id} className="font-medium text-slate-800">
          {label}
        </label>
        <textarea
          key={field.key}
          id={field.id}
          name={field.name}
          form={field.formId}
          defaultValue={typeof field.initialValue === "string" ? field.initialValue : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${field.errorId} ${hintId}` : hintId}
          required={required}
          maxLength={maxLength}
          rows={3}
          dir={dir}
          className={TEXTAREA_CLASS}
        />
        <p id={hintId} className={`${small}text-slate-600`}>
          {hint}
        </p>
        {error && (
          <p id={field.errorId} className={`${small}font-medium text-red-700`}>
            {t(error)}
          </p>
        )}
        {children}
      </Form>
    </details>
  );
}
