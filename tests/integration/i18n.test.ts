import { afterEach, describe, expect, it, vi } from "vitest";
import { ALWAYS_SENT, createI18n, pageStrings, serializeStrings, type Strings } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { resources } from "#shared/i18n/resources.ts";
import { fetchMissingNamespaces } from "#app/i18n/strings-files.ts";
import { messageNamespaces } from "#shared/forms/parse.ts";
import { riderSignUpSchema } from "#shared/forms/accounts.ts";
import { cashProofSchema } from "#shared/forms/donations.ts";
import { goodsOfferSchema } from "#shared/forms/pickups.ts";

describe("the strings a page carries (decision 035)", () => {
  it("are the namespaces its render asked for and the ones every page needs, as written", () => {
    const i18n = serverI18n("ur");
    i18n.t("donate:picker.title");
    i18n.t("auth:fields.email");
    i18n.t("noSuchNamespace:anything");
    const page = pageStrings(i18n);
    expect(Object.keys(page).sort()).toEqual([...ALWAYS_SENT, "auth", "donate"].sort());
    expect(page.donate).toBe(resources.ur.donate);
    expect(page).not.toHaveProperty("admin");
  });

  it("start from the ones every page needs, for a page that asked for nothing", () => {
    expect(Object.keys(pageStrings(serverI18n("en"))).sort()).toEqual([...ALWAYS_SENT].sort());
  });

  it("include the namespaces of the messages a form on the page can show in the browser", () => {
    expect(messageNamespaces(riderSignUpSchema).sort()).toEqual(["settings", "validation"]);
    expect(messageNamespaces(cashProofSchema).sort()).toEqual(["donations", "errors", "funds", "validation"]);
    expect(messageNamespaces(goodsOfferSchema)).toEqual(expect.arrayContaining(["pickups", "donations"]));
    const i18n = serverI18n("en");
    i18n.t("auth:signUp.submit");
    i18n.need(messageNamespaces(riderSignUpSchema));
    expect(Object.keys(pageStrings(i18n)).sort()).toEqual([...ALWAYS_SENT, "auth", "settings"].sort());
  });

  it("go into the page as the JSON of what it carries, with no < that could end the script element", () => {
    const i18n = serverI18n("ur");
    i18n.t("donate:picker.title");
    const page = { ...pageStrings(i18n), odd: { text: "</script><b>" }, plain: "a < b" };
    // Twice: the second time each namespace's JSON comes from what the first one made.
    for (let i = 0; i < 2; i += 1) {
      const json = serializeStrings(page);
      expect(json).not.toContain("<");
      expect(JSON.parse(json)).toEqual(page);
      expect(json).toBe(JSON.stringify(page).replace(/</g, "\\u003c"));
    }
  });

  it("are tracked per translator, so one page's words never leak into another's", () => {
    serverI18n("en").t("admin:title");
    expect(pageStrings(serverI18n("en"))).not.toHaveProperty("admin");
  });

  it("include a namespace whose text another page's translator found first (texts are looked up once a language)", () => {
    // Every request's translator reads the same strings of its language, and a text, once found, is not looked up
    // again; a later page that asks for it must still carry its namespace, in the language it asked in.
    const key = "volunteer:anywhere";
    const first = serverI18n("ur");
    const text = first.t(key);
    expect(text).not.toBe(key);
    const later = serverI18n("ur");
    expect(later.t(key)).toBe(text);
    expect(Object.keys(pageStrings(later))).toContain("volunteer");
    expect(serverI18n("en").t(key)).toBe("Anywhere (remote)");
    // Words are still put in, after the text was found, and an unknown key is its own text each time.
    expect(later.t("common:unread", { count: 3 })).toBe(later.t("common:unread", { count: 3 }));
    expect(later.t("common:unread", { count: 3 })).toContain("3");
    expect(later.t("volunteer:noSuchKey")).toBe("volunteer:noSuchKey");
    expect(later.t("volunteer:noSuchKey", { defaultValue: "x" })).toBe("x");
  });
});

/** The promise a render that asks for words not yet loaded suspends on (what `t` throws). */
function suspension(ask: () => unknown): unknown {
  try {
    ask();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("the browser's translator", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("suspends on a namespace its page did not carry, and reads it once the file arrives", async () => {
    const fetched: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify(resources.ur.auth), { status: 200 });
    });
    const strings: Strings = { common: resources.ur.common };
    const { t } = createI18n("ur", strings, { missing: fetchMissingNamespaces("ur", strings) });

    const thrown = suspension(() => t("auth:signIn.title.admin"));
    expect(thrown).toBeInstanceOf(Promise);
    // A second render before it arrives waits on the same fetch.
    expect(() => t("auth:fields.email")).toThrow();
    await thrown;
    expect(t("auth:signIn.title.admin")).toBe(resources.ur.auth.signIn.title.admin);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatch(/auth/);
    expect(t("common:brand")).toBe(resources.ur.common.brand);
  });

  it("tries again after a failed fetch", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      vi.stubGlobal("fetch", async () => {
        calls++;
        if (calls === 1) throw new TypeError("Failed to fetch");
        return new Response(JSON.stringify(resources.en.admin), { status: 200 });
      });
      const strings: Strings = {};
      const { t } = createI18n("en", strings, { missing: fetchMissingNamespaces("en", strings) });
      const thrown = suspension(() => t("admin:title"));
      await vi.advanceTimersByTimeAsync(1_000);
      await thrown;
      expect(calls).toBe(2);
      expect(strings.admin).toEqual(resources.en.admin);
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the key of a namespace the build has no file for, as the server does", async () => {
    const fetched: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      fetched.push(url);
      return new Response("Not found", { status: 404 });
    });
    const strings: Strings = {};
    const { t } = createI18n("en", strings, { missing: fetchMissingNamespaces("en", strings) });
    const thrown = suspension(() => t("noSuchNamespace:x"));
    await thrown;
    expect(t("noSuchNamespace:x")).toBe("noSuchNamespace:x");
    expect(t("noSuchNamespace:y", { defaultValue: "shown" })).toBe("shown");
    expect(fetched).toHaveLength(1);
    // What is not a namespace's name never becomes part of an address.
    expect(t("../../x:y")).toBe("../../x:y");
    expect(fetched).toHaveLength(1);
  });
});
