import { useForm } from "@conform-to/react";
import type * as z from "zod/mini";
import { messageNamespaces, parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";

type FormOptions<S extends z.ZodMiniType> = Parameters<typeof useForm<z.input<S> & Record<string, unknown>, z.output<S>, string[]>>[0];

/**
 * The one way a screen sets up a form: validated with its schema in the browser when a field is left,
 * re-checked as the user types once a message shows, and checked again by the action on the server.
 */
export function useSchemaForm<S extends z.ZodMiniType>(
  schema: S,
  options: Omit<FormOptions<S>, "onValidate" | "shouldValidate" | "shouldRevalidate">,
) {
  // The page carries the words of every message the browser's check may show (decision 035).
  useTranslation(...messageNamespaces(schema));
  return useForm<z.input<S> & Record<string, unknown>, z.output<S>, string[]>({
    ...options,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}
