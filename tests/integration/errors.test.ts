import { describe, expect, it } from "vitest";
import { attempt, findOrNull, formAction, httpError } from "#app/lib/http.server.ts";
import {
  DomainError,
  ERROR_KINDS,
  ERROR_MESSAGES,
  ERROR_STATUS,
  conflict,
  invalid,
  invalidInput,
  notFound,
  rateLimited,
} from "#server/domain/errors.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import * as z from "zod/mini";

describe("the error contract (decision 017)", () => {
  it("maps every kind to one HTTP status", () => {
    expect(ERROR_STATUS).toEqual({ invalid: 400, conflict: 409, not_found: 404, forbidden: 403, rate_limited: 429 });
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it("gives every code a text in English and in Urdu", () => {
    for (const lang of ["en", "ur"] as const) {
      const { t } = serverI18n(lang);
      const missing = Object.entries(ERROR_MESSAGES).filter(([, key]) => t(key) === key);
      expect(missing, `codes without a ${lang} text`).toEqual([]);
    }
  });

  it("carries a stable code, the message key taken from it, and the status of its kind", () => {
    const err = conflict("pickups.code_wrong", "code");
    expect(err).toMatchObject({
      kind: "conflict",
      code: "pickups.code_wrong",
      message: "pickups:errors.codeWrong",
      field: "code",
      status: 409,
    });
    expect(notFound()).toMatchObject({ code: "not_found", message: "errors:notFound", status: 404 });
    expect(rateLimited()).toMatchObject({ code: "rate_limited", status: 429 });
    expect(invalidInput("validation:tooLong", "title")).toMatchObject({
      code: "invalid_input",
      message: "validation:tooLong",
      field: "title",
      status: 400,
    });
  });

  it("attempt turns a refusal into data and throws on anything else", async () => {
    expect(await attempt(Promise.resolve(7))).toEqual({ ok: true, value: 7 });
    const refused = await attempt(Promise.reject(invalid("map.inverted", undefined, { a: "b" })));
    expect(refused).toEqual({
      ok: false,
      refusal: { kind: "invalid", code: "map.inverted", message: "map:errors.inverted", field: undefined, params: { a: "b" }, status: 400 },
    });
    await expect(attempt(Promise.reject(new TypeError("a bug")))).rejects.toThrow(TypeError);
  });

  it("findOrNull answers null for not found and throws other refusals as their HTTP status", async () => {
    expect(await findOrNull(Promise.reject(notFound()))).toBeNull();
    expect(await findOrNull(Promise.resolve("x"))).toBe("x");
    const thrown = await findOrNull(Promise.reject(conflict("collab.too_many"))).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ init: { status: 409 }, data: { message: "collab:errors.tooMany" } });
    expect(httpError({ kind: "forbidden", code: "forbidden", message: "errors:forbidden", status: 403 })).toMatchObject({
      init: { status: 403 },
    });
  });

  it("formAction replies with the field's message and the kind's status", async () => {
    const form = new FormData();
    form.set("title", "x");
    const submission = parseWithZod(form, { schema: z.object({ title: z.string() }) });
    const failed = await formAction(submission, async () => {
      throw new DomainError("conflict", "campaigns.title_taken", "title", { collaborateWith: "id" });
    });
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    const answer = failed.answer({ row: "r1" });
    expect(answer.init?.status).toBe(409);
    expect(answer.data.result.error).toEqual({ title: ["campaigns:errors.titleTaken"] });
    expect(answer.data.errorParams).toEqual({ collaborateWith: "id" });
    expect(answer.data.row).toBe("r1");
    const done = await formAction(submission, async () => "saved");
    expect(done).toEqual({ ok: true, value: "saved" });
  });
});
