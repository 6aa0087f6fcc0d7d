import type { FieldMetadata, FormMetadata, SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useId, useLayoutEffect, useMemo, useState, useSyncExternalStore } from "react";
import type * as z from "zod/mini";
import { useTranslation } from "#app/i18n/provider.ts";
import type { I18n } from "#shared/i18n/i18n.ts";
import type { FormEngine, FormState } from "./schema-form-engine.ts";

type Values<S extends z.ZodMiniType> = z.input<S> & Record<string, unknown>;
type FormOptions<S extends z.ZodMiniType> = Parameters<typeof useForm<Values<S>, z.output<S>, string[]>>[0];
export type SchemaFormOptions<S extends z.ZodMiniType> = Omit<FormOptions<S>, "onValidate" | "shouldValidate" | "shouldRevalidate">;

/**
 * The one way a screen sets up a form: validated with its schema in the browser when a field is left,
 * re-checked as the user types once a message shows, and checked again by the action on the server.
 *
 * The schema comes as a loader (`() => import("#shared/forms/x.ts").then((m) => m.xSchema)`): Conform's form engine,
 * zod and the schema are fetched when the person first reaches into the form (focus, a press, typing), not with the
 * page (decision 033). Until they are there the form is what the server drew (ids, the action's messages, the values
 * sent back); a submission waits for them, and goes to the server unchecked only if they cannot be fetched (the
 * server checks every submission; without JavaScript it is the only check).
 */
export function useSchemaForm<S extends z.ZodMiniType>(loadSchema: () => Promise<S>, options: SchemaFormOptions<S>) {
  const { i18n } = useTranslation();
  const generatedId = useId();
  const formId = options.id ?? generatedId;
  const latest = { ...options, formId } as SchemaFormOptions<S> & { formId: string };
  const [store] = useState(() => new LazyFormStore(latest, loadSchema, i18n));
  const engineState = useSyncExternalStore(store.subscribe, store.getState, serverState);
  // What the server drew, until the engine takes over from the same options.
  const initial = useMemo(() => initialState(options.lastResult, options.defaultValue), [options.lastResult, options.defaultValue]);
  const state = engineState ?? initial;

  useLayoutEffect(() => store.update(latest));
  useEffect(() => store.listen(), [store]);
  useEffect(() => store.runSideEffect(state.pendingIntents), [store, state.pendingIntents]);

  const form = metadata(formId, state, "") as unknown as FormMetadata<Values<S>, string[]>;
  Object.assign(form, { status: state.submissionStatus, noValidate: true, onSubmit: store.submit });
  const fields = new Proxy({} as Record<string, FieldMetadata<unknown, Values<S>, string[]>>, {
    get: (_, name) => (typeof name === "string" ? metadata(formId, state, name) : undefined),
  }) as ReturnType<FormMetadata<Values<S>, string[]>["getFieldset"]>;
  return [form, fields] as const;
}

/**
 * The name of the button Conform's engine presses to run a check of its own (its `INTENT`), written here so that a
 * page which tells those presses apart does not load the engine with it; a test holds the two equal.
 */
export const FORM_INTENT = "__intent__";

const serverState = () => null;

/** The form's state before the engine arrives, as Conform makes it from the same options (no list fields here). */
function initialState(lastResult: SubmissionResult<string[]> | null | undefined, defaultValue: unknown): FormState {
  const initialValue = (lastResult?.initialValue ?? serialize(defaultValue) ?? {}) as Record<string, unknown>;
  return {
    submissionStatus: lastResult?.status,
    pendingIntents: [],
    initialValue,
    value: initialValue,
    error: (lastResult?.error ?? {}) as Record<string, string[]>,
    key: {},
    constraint: {},
    valid: {},
    dirty: {},
  } as unknown as FormState;
}

/** Default values as the form's fields hold them: text (Conform's `serialize`, for the values forms are given). */
function serialize(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(serialize);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialize(v)]));
  return String(value);
}

/** Whether `name` is `prefix` or a field inside it ("items[0].name" is inside "items"). */
function isInside(name: string, prefix: string): boolean {
  return prefix === "" || name === prefix || name.startsWith(`${prefix}.`) || name.startsWith(`${prefix}[`);
}

/** A field's (or, for "", the form's) metadata, as Conform's `getFieldset` gives it, read from the state. */
function metadata(formId: string, state: FormState, name: string) {
  const id = name ? `${formId}-${name}` : formId;
  const initialValue: unknown = state.initialValue[name];
  const errors = state.error[name] ?? undefined;
  const allErrors = Object.fromEntries(Object.entries(state.error).filter(([key, error]) => error && isInside(key, name)));
  return {
    id,
    name,
    formId,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    initialValue,
    defaultValue: typeof initialValue === "string" ? initialValue : Array.isArray(initialValue) ? (initialValue[0] as unknown) : undefined,
    defaultOptions: typeof initialValue === "string" ? [initialValue] : Array.isArray(initialValue) ? initialValue : undefined,
    defaultChecked: initialValue === "on" ? true : undefined,
    errors,
    allErrors,
    key: state.key[name],
    // Read in callbacks if at all: a render of the form does not follow them (schema-form-engine.ts).
    get value(): unknown {
      return state.value[name];
    },
    get valid(): boolean {
      return state.valid[name] ?? errors === undefined;
    },
    get dirty(): boolean | undefined {
      return state.dirty[name];
    },
  };
}

type Listener = () => void;

/**
 * Holds the form's engine once it is there. It is made from the options the form was first drawn with and then
 * given the latest ones, so an answer of the server that came before it is handled as Conform handles any answer.
 */
class LazyFormStore<S extends z.ZodMiniType> {
  private engine: FormEngine | null = null;
  private loading: Promise<void> | null = null;
  private unavailable = false;
  private gone = false;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly first: SchemaFormOptions<S> & { formId: string },
    private readonly loadSchema: () => Promise<S>,
    private readonly i18n: I18n,
    private latest = first,
  ) {}

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getState = (): FormState | null => this.engine?.getState() ?? null;

  update(options: SchemaFormOptions<S> & { formId: string }) {
    this.latest = options;
    this.engine?.onUpdate(options);
    // An answer of the server's that came before the engine: the engine, once there, shows it as Conform would.
    if (!this.engine && options.lastResult && options.lastResult !== this.first.lastResult) void this.load();
  }

  runSideEffect(intents: FormState["pendingIntents"]) {
    this.engine?.runSideEffect(intents);
  }

  /**
   * Conform's check runs before a submission goes. One made before the engine is there (it is on its way since the
   * press or the focus that led to it) waits for it and is made again; if the engine cannot be fetched, it goes as
   * it is, and the server checks it.
   */
  submit = (event: React.FormEvent<HTMLFormElement>) => {
    if (this.engine) return this.engine.submit(event);
    if (this.unavailable) return;
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    void this.load().then(() => {
      if (form.isConnected) form.requestSubmit(submitter?.isConnected ? submitter : undefined);
    });
  };

  /** The person reaching into this form is what fetches the engine. */
  listen() {
    this.gone = false;
    const reach = (event: Event) => {
      const target = event.target;
      const form = target instanceof Element ? (target.closest("form") ?? (target as HTMLInputElement).form) : null;
      if (form?.id === this.latest.formId) void this.load();
    };
    const kinds = ["focusin", "pointerdown", "input", "keydown"] as const;
    for (const kind of kinds) document.addEventListener(kind, reach, true);
    return () => {
      this.gone = true;
      for (const kind of kinds) document.removeEventListener(kind, reach, true);
      this.engine?.disconnect();
      this.engine = null;
      this.loading = null;
    };
  }

  private load(): Promise<void> {
    this.loading ??= Promise.all([import("./schema-form-engine.ts"), this.loadSchema()])
      .then(async ([{ createFormEngine }, schema]) => {
        const engine = await createFormEngine(this.first, schema, this.i18n);
        if (this.gone) return engine.disconnect();
        engine.onUpdate(this.latest);
        engine.subscribe(() => this.emit());
        this.engine = engine;
        this.unavailable = false;
        this.emit();
      })
      // Not fetched (the signal dropped): submissions go to the server meanwhile, and the next reach tries again.
      .catch(() => {
        this.loading = null;
        this.unavailable = true;
      });
    return this.loading;
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The props of a form and of its controls, from the metadata above: what Conform's `getFormProps`, `getInputProps`,
 * `getSelectProps` and `getTextareaProps` give for it (ids, name, the form's id, `aria-invalid`, `aria-describedby`
 * naming the error, the value the form was drawn with), in a few lines instead of their 1 KB (gzip) with Babel's
 * helpers on every form page (decision 033, 2026-11-27). The metadata carries no constraints (the schema is checked
 * by the engine and the server), so no `required` or `maxLength` is set; `key` is left out as Conform leaves it out.
 */
interface ControlMetadata {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
}
interface PropsOptions {
  /** More ids for `aria-describedby`, after the error's. */
  ariaDescribedBy?: string;
}
interface ControlProps {
  key?: string;
  id: string;
  name: string;
  form: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

function ariaAttributes(metadata: { errorId: string; errors?: string[] }, options: PropsOptions, control: boolean) {
  const invalid = metadata.errors !== undefined;
  const describedBy = invalid ? `${metadata.errorId} ${options.ariaDescribedBy ?? ""}`.trim() : options.ariaDescribedBy;
  return {
    ...(control && invalid ? { "aria-invalid": true } : {}),
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
  };
}

function controlProps(metadata: ControlMetadata, options: PropsOptions): ControlProps {
  return { id: metadata.id, name: metadata.name, form: metadata.formId, ...ariaAttributes(metadata, options, true) };
}

/** `<form {...getFormProps(form)}>`: its id, the submit handler, `noValidate`, and the form's error for a reader. */
export function getFormProps(
  metadata: { id: string; errorId: string; errors?: string[]; onSubmit: React.FormEventHandler<HTMLFormElement>; noValidate: boolean },
  options: PropsOptions = {},
) {
  return { id: metadata.id, onSubmit: metadata.onSubmit, noValidate: metadata.noValidate, ...ariaAttributes(metadata, options, false) };
}

/** `<input {...getInputProps(field, { type })}>`, with the value it was drawn with unless it is a file. */
export function getInputProps(metadata: ControlMetadata, options: PropsOptions & { type: React.HTMLInputTypeAttribute }) {
  const value = metadata.initialValue;
  return {
    ...controlProps(metadata, options),
    type: options.type,
    ...(typeof value === "string" ? { defaultValue: value } : {}),
  } as ControlProps & { type: React.HTMLInputTypeAttribute; defaultValue?: string };
}

/** `<select {...getSelectProps(field)}>`, with the choice (or choices) it was drawn with. */
export function getSelectProps(metadata: ControlMetadata, options: PropsOptions = {}) {
  const value = metadata.initialValue;
  const defaultValue = Array.isArray(value) ? value.map((item) => String(item ?? "")) : value == null ? undefined : String(value);
  return { ...controlProps(metadata, options), ...(defaultValue === undefined ? {} : { defaultValue }) } as ControlProps & {
    defaultValue?: string | string[];
  };
}

/** `<textarea {...getTextareaProps(field)}>`, with the text it was drawn with. */
export function getTextareaProps(metadata: ControlMetadata, options: PropsOptions = {}) {
  const value = metadata.initialValue;
  return { ...controlProps(metadata, options), ...(value == null ? {} : { defaultValue: String(value) }) } as ControlProps & {
    defaultValue?: string;
  };
}
