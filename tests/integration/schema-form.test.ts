import { INTENT } from "@conform-to/dom";
import { describe, expect, it } from "vitest";
import { FORM_INTENT } from "#app/lib/use-schema-form.ts";

describe("useSchemaForm", () => {
  it("names Conform's own check buttons as Conform does, without loading its engine", () => {
    expect(FORM_INTENT).toBe(INTENT);
  });
});
