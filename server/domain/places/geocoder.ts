import type { Config } from "../../config";
import type { Logger } from "../../log";
import type { Geocoder } from "./types";

/** TEMPORARY (being built by the places work): the configured geocoder. */
export function createGeocoder(_config: Config, _log: Logger): Geocoder {
  return {
    async suggest() {
      return [];
    },
    async resolve(text: string) {
      const t = text.trim();
      if (!t) return null;
      return { id: "tmp", name: t, label: t, kind: "city", lat: 31.5, lng: 74.35 };
    },
  };
}
