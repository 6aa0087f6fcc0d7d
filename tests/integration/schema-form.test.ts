import { INTENT } from "@conform-to/dom";
import * as conform from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { FORM_INTENT, getFormProps, getInputProps, getSelectProps, getTextareaProps } from "#app/lib/use-schema-form.ts";

describe("useSchemaForm", () => {
  it("names Conform's own check buttons as Conform does, without loading its engine", () => {
    expect(FORM_INTENT).toBe(INTENT);
  });

  // The fields' metadata as useSchemaForm draws it: drawn fresh, sent back with a value, with an error, with both.
  const fields = [
    { initialValue: undefined, errors: undefined },
    { initialValue: "Lahore", errors: undefined },
    { initialValue: undefined, errors: ["validation:required"] },
    { initialValue: "x", errors: ["validation:tooShort"] },
    { initialValue: ["a", "b"], errors: undefined },
  ].map((f, i) => ({ id: `f-city${i}`, name: `city${i}`, formId: "f", errorId: `f-city${i}-error`, ...f }));

  it("gives a form and its controls the props Conform's helpers give them", () => {
    for (const field of fields) {
      for (const options of [{}, { ariaDescribedBy: "hint" }]) {
        const c = conform as unknown as Record<string, (m: unknown, o?: unknown) => unknown>;
        for (const type of ["text", "hidden", "date", "file"] as const) {
          expect(getInputProps(field, { ...options, type })).toEqual(c.getInputProps!(field, { ...options, type }));
        }
        expect(getSelectProps(field, options)).toEqual(c.getSelectProps!(field, options));
        expect(getTextareaProps(field, options)).toEqual(c.getTextareaProps!(field, options));
        const form = { ...field, onSubmit: () => {}, noValidate: true };
        expect(getFormProps(form, options)).toEqual(c.getFormProps!(form, options));
      }
    }
  });
});
