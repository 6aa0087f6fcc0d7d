import { expect, type Page } from "@playwright/test";

/**
 * One isolate never sits inside another (decision 040): not an isolate control (LRI, RLI, FSI … PDI) inside another in
 * a string, not an isolating element (`<bdi>`, an element with `dir`: `UserText`'s `dir="auto"`) inside another, and
 * no isolate control in the text of an isolating element.
 */

/** How deep isolates go in a text: 0 without any, 1 when none sits inside another (an unmatched PDI is ignored, as UAX #9 does). */
export function isolateDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const ch of text) {
    if (ch >= "\u2066" && ch <= "\u2068") deepest = Math.max(deepest, ++depth);
    else if (ch === "\u2069" && depth > 0) depth--;
  }
  return deepest;
}

/**
 * Every nesting on the page, described: walked in the browser, so self-contained (Playwright sends its source). The
 * root's `dir` (and the body's) sets the page's direction and is no isolate around the rest.
 */
function nestingsInDocument(): string[] {
  const ISOLATING = "bdi, [dir]";
  const found: string[] = [];
  const root = (el: Element) => el === document.documentElement || el === document.body;
  const name = (el: Element) => {
    const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 60);
    return `<${el.localName}${el.getAttribute("dir") ? ` dir=${el.getAttribute("dir")}` : ""}> «${text}»`;
  };
  const outer = (el: Element) => {
    const around = el.parentElement?.closest(ISOLATING);
    return around && !root(around) ? around : null;
  };
  const depth = (text: string) => {
    let d = 0;
    let deepest = 0;
    for (const ch of text) {
      if (ch >= "\u2066" && ch <= "\u2068") deepest = Math.max(deepest, ++d);
      else if (ch === "\u2069" && d > 0) d--;
    }
    return deepest;
  };
  for (const el of document.body.querySelectorAll(ISOLATING)) {
    const around = outer(el);
    if (around) found.push(`${name(el)} inside ${name(around)}`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node as Text).data;
    const parent = node.parentElement!;
    if (!/[\u2066-\u2069]/.test(text) || parent.closest("script, style, template")) continue;
    if (depth(text) > 1) found.push(`nested isolate controls in «${text}»`);
    const around = parent.closest(ISOLATING);
    if (/[\u2066-\u2068]/.test(text) && around && !root(around)) found.push(`isolate controls in «${text}» inside ${name(around)}`);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [alt], [placeholder], [aria-description]")) {
    for (const attr of ["aria-label", "title", "alt", "placeholder", "aria-description"]) {
      const value = el.getAttribute(attr);
      if (value && depth(value) > 1) found.push(`nested isolate controls in ${attr}="${value}" of ${name(el)}`);
    }
  }
  return found;
}

/** Fails with each nesting of isolates on the current page (decision 040). */
export async function expectNoNestedIsolates(page: Page) {
  expect(await page.evaluate(nestingsInDocument), `nested isolates on ${page.url()}`).toEqual([]);
}
