import type { Response } from "@playwright/test";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

// Decision 029: Chromium, as a phone's browser would, is sent pages, their `.data` and the hashed assets compressed.
test("a page, its .data and a hashed script arrive compressed, the script cached for a year", async ({ page, db, login }) => {
  // Enough campaigns that the home page's data is worth compressing.
  const ngo = await makeUser(db, "ngo");
  for (let i = 0; i < 6; i++) await makeCampaign(db, ngo.id);
  await login({ role: "donor" });

  const scripts: Response[] = [];
  page.on("response", (r) => {
    if (/\/assets\/[^/]+-[\w-]{8}\.js$/.test(new URL(r.url()).pathname)) scripts.push(r);
  });
  const document = await page.goto("/donate1");
  expect(document?.status()).toBe(200);
  const pageHeaders = await document!.allHeaders();
  expect(pageHeaders["content-encoding"]).toBe("br");
  expect(pageHeaders["vary"]).toMatch(/accept-encoding/i);
  expect(pageHeaders["cache-control"]).toBe("private, no-store");
  await page.waitForLoadState("networkidle");

  expect(scripts.length).toBeGreaterThan(0);
  // The chunk of React, React Router and the shell that every page loads (vite.config.ts).
  const script = scripts.find((r) => r.url().includes("/framework-"))!;
  expect(script, "the framework chunk was loaded").toBeTruthy();
  const scriptHeaders = await script.allHeaders();
  expect(scriptHeaders["content-encoding"]).toBe("br");
  expect(scriptHeaders["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(scriptHeaders["content-type"]).toMatch(/^text\/javascript/);
  expect(scriptHeaders["vary"]).toMatch(/accept-encoding/i);
  // What the page ran is the script as built: Chromium decompressed it.
  expect((await script.text()).length).toBeGreaterThan(Number(scriptHeaders["content-length"]));

  const [data] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === "/_root.data"),
    page.evaluate(() => fetch("/_root.data").then((r) => r.text())),
  ]);
  const dataHeaders = await data.allHeaders();
  expect(data.status()).toBe(200);
  expect(dataHeaders["content-type"]).toMatch(/^text\/x-script/);
  expect(dataHeaders["content-encoding"]).toBe("br");
  expect(dataHeaders["vary"]).toMatch(/accept-encoding/i);
});
