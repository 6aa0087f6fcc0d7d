import { STRINGS_BASE } from "virtual:strings-files";
import type { Lang, MissingNamespace, Strings } from "#shared/i18n/i18n.ts";

/*
 * Every namespace of every language is a file of the build, at an address that changes with the words (cached
 * for a year, sent compressed: scripts/strings-files-plugin.ts). The page's HTML carries the namespaces its
 * first render used; a later screen that needs another fetches it here (decision 035).
 */

/** Tries again after a failed fetch (a phone that lost its signal), waiting a little longer each time. */
const RETRY_DELAYS_MS = [500, 2_000, 5_000];

async function fetchNamespace(url: string): Promise<Strings[string]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { credentials: "same-origin" });
      if (res.ok) return (await res.json()) as Strings[string];
      // No such namespace: its keys show as they are, as on the server.
      if (res.status === 404) return {};
      throw new Error(`${url}: ${res.status}`);
    } catch (err) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * The browser translator's answer to a namespace its page did not carry: fetch the file and suspend the
 * render that asked (React Router renders a new screen in a transition, so the old one stays until the
 * words arrive).
 */
export function fetchMissingNamespaces(lang: Lang, strings: Strings): MissingNamespace {
  const loading = new Map<string, Promise<void>>();
  return (namespace) => {
    // Only a namespace's name can be part of the address.
    if (!/^\w+$/.test(namespace)) return undefined;
    const url = `${STRINGS_BASE}${lang}/${namespace}.json`;
    let pending = loading.get(namespace);
    if (!pending) {
      pending = fetchNamespace(url).then(
        (loaded) => void (strings[namespace] = loaded),
        // Given up: the next render asks again.
        (err: unknown) => {
          loading.delete(namespace);
          throw err;
        },
      );
      loading.set(namespace, pending);
    }
    throw pending;
  };
}
