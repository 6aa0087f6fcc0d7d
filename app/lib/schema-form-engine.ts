import { INTENT, unstable_createFormContext as createFormContext } from "@conform-to/dom";
import type * as z from "zod/mini";
import type { I18n } from "#shared/i18n/i18n.ts";
import { messageNamespaces, parseWithZod } from "#shared/forms/parse.ts";
import type { SchemaFormOptions } from "./use-schema-form.ts";

/*
 * What use-schema-form.ts fetches when the person first reaches into a form: Conform's form engine, set up as
 * Conform's `useForm` sets it up (validate a field when it is left, again as it is typed into once it showed a
 * message), with the form's schema and the words of every message the schema may show.
 */

type Context = ReturnType<typeof createFormContext>;
export type FormState = ReturnType<Context["getState"]>;

export interface FormEngine {
  getState: () => FormState;
  subscribe: (listener: () => void) => () => void;
  /** The form's latest options (those of `useSchemaForm`, of the form's own schema). */
  onUpdate: (options: { formId: string }) => void;
  runSideEffect: (intents: FormState["pendingIntents"]) => void;
  submit: (event: React.FormEvent<HTMLFormElement>) => void;
  disconnect: () => void;
}

const EVERY_FIELD = { prefix: [""] };
const RENDERED = { formId: true, status: true, pendingIntents: true, error: EVERY_FIELD, key: EVERY_FIELD, initialValue: EVERY_FIELD };

export async function createFormEngine<S extends z.ZodMiniType>(
  options: SchemaFormOptions<S> & { formId: string },
  schema: S,
  i18n: I18n,
): Promise<FormEngine> {
  await loadNamespaces(i18n, messageNamespaces(schema));
  const withSchema = (o: SchemaFormOptions<S> & { formId: string }) =>
    ({
      ...o,
      onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }),
      shouldValidate: "onBlur",
      shouldRevalidate: "onInput",
    }) as Parameters<typeof createFormContext>[0];
  let onSubmit = options.onSubmit;
  const context = createFormContext(withSchema(options));
  const stopObserving = context.observe();
  document.addEventListener("input", context.onInput);
  document.addEventListener("focusout", context.onBlur);
  document.addEventListener("reset", context.onReset);
  return {
    getState: context.getState,
    // Only what a form's render reads: a value typed (which Conform follows as it changes) draws nothing again.
    subscribe: (listener) => context.subscribe(listener, () => RENDERED),
    onUpdate(next) {
      const options = next as SchemaFormOptions<S> & { formId: string };
      onSubmit = options.onSubmit;
      context.onUpdate(withSchema(options));
    },
    runSideEffect: context.runSideEffect,
    // As @conform-to/react's form context: a submission with messages stops here, a valid one goes on.
    submit(event) {
      const result = context.submit(event.nativeEvent as SubmitEvent);
      if (!result.submission || result.submission.status === "success" || result.submission.error === null) {
        if (!result.formData.has(INTENT)) onSubmit?.(event, result as Parameters<NonNullable<typeof onSubmit>>[1]);
      } else {
        event.preventDefault();
      }
    },
    disconnect() {
      stopObserving();
      document.removeEventListener("input", context.onInput);
      document.removeEventListener("focusout", context.onBlur);
      document.removeEventListener("reset", context.onReset);
    },
  };
}

/** The namespaces not yet on the page are fetched now, so a message shown on leaving a field has its words. */
async function loadNamespaces(i18n: I18n, namespaces: string[]) {
  for (const namespace of namespaces) {
    for (;;) {
      try {
        i18n.need([namespace]);
        break;
      } catch (pending) {
        if (!(pending instanceof Promise)) throw pending;
        await pending;
      }
    }
  }
}
