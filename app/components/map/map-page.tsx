import { UserText } from "#app/components/user-text.tsx";
import { useEffect, useRef, useState } from "react";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor } from "#shared/places.ts";
import { Pager } from "#app/components/pager.tsx";
import type { Paged } from "#shared/paging.ts";
import type { ListedCampaign } from "#shared/map.ts";
import type { MapHandle } from "./map-engine.ts";
import { Expand, MapIcon } from "lucide-react";

/** Below Tailwind's `md`: a phone, where the map fills the screen under the header and starts on the whole country. */
const PHONE = "(max-width: 767.98px)";
/** The map is never shorter than this, whatever is above it (Tailwind's min-h-72). */
const MIN_MAP_HEIGHT = 288;

export interface MapPageProps {
  tileUrl: string;
  attribution: string;
  list: Paged<ListedCampaign>;
}

/**
 * /ngo_map and /donor_map: the signed-in user's sidebar (name and logo or picture), the map of active
 * campaigns filling the rest of the screen, and under it the same campaigns as a paged list, which is what
 * a visitor without JavaScript (or a screen-reader user who prefers it) gets. The map's place first holds one
 * "Show the map" button; the map and Leaflet come when it is pressed (decision 033, 2026-11-27).
 */
export function MapPage({ tileUrl, attribution, list }: MapPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <title>{`${t("map:title")} · ${t("common:brand")}`}</title>
      {/* On a phone the map runs edge to edge, right under the header. */}
      <div className="ekc-map-area -mx-4 -mt-4 md:mx-0 md:mt-0">
        <CampaignMap tileUrl={tileUrl} />
        <p className="mt-1 px-4 text-xs text-slate-700 md:px-0">
          <span dir="ltr">{attribution}</span>
        </p>
      </div>
      {/* Without JavaScript the map cannot load: hide its area and let the list below stand in. */}
      <noscript>
        <style>{".ekc-map-area{display:none}"}</style>
      </noscript>
      <CampaignList list={list} />
    </>
  );
}

/**
 * "idle" until the person asks for the map: Leaflet and the map engine (28 KB gzip, more than the rest of the page's
 * script) come on that press, not with the page (decision 033, 2026-11-27).
 */
type MapState = "idle" | "loading" | "ready" | "error";

let engineLoad: Promise<typeof import("./map-engine.ts")> | undefined;
/** The map engine, fetched once: on the press, or already when the pointer or the focus reaches the button. */
function loadEngine() {
  engineLoad ??= import("./map-engine.ts");
  engineLoad.catch(() => (engineLoad = undefined));
  return engineLoad;
}

function CampaignMap({ tileUrl }: { tileUrl: string }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const handle = useRef<MapHandle | null>(null);
  const [state, setState] = useState<MapState>("idle");
  const [refetchFailed, setRefetchFailed] = useState(false);
  // The button is drawn by the server, but only the page's script can answer it: until the page is hydrated it says so
  // (disabled), rather than take a tap on a slow phone and do nothing.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // On a phone the map reaches down to the bottom of the screen, leaving the attribution line visible; how far
  // that is depends on what is above it (the header wraps in some languages), so it is measured.
  useEffect(() => {
    const box = frame.current;
    if (!box) return;
    const phone = window.matchMedia(PHONE);
    const fit = () => {
      if (!phone.matches) {
        box.style.height = "";
        return;
      }
      const top = box.getBoundingClientRect().top + window.scrollY;
      const below = (box.nextElementSibling as HTMLElement | null)?.offsetHeight ?? 0;
      box.style.height = `${Math.max(MIN_MAP_HEIGHT, Math.floor(window.innerHeight - top - below - 8))}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, []);

  const wanted = state !== "idle";
  useEffect(() => {
    const el = element.current;
    if (!el || !wanted) return;
    let cancelled = false;
    setState("loading");
    const start = async () => {
      const engine = await loadEngine();
      // (Development's strict mode runs this effect twice; only the live run may take the element.)
      if (cancelled) return;
      const h = await engine.startMap(el, {
        tileUrl,
        campaignHref: publicCampaignPath,
        strings: {
          viewCampaign: t("map:viewCampaign"),
          closeInfo: t("map:closeInfo"),
          cluster: (count) => t("map:cluster", { count }),
        },
        fitCountry: window.matchMedia(PHONE).matches,
        onDataError: (failed) => {
          if (!cancelled) setRefetchFailed(failed);
        },
      });
      if (cancelled) h.destroy();
      else {
        handle.current = h;
        setState("ready");
      }
    };
    start().catch(() => {
      if (!cancelled) setState("error");
    });
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
    };
    // The strings only change with the language, which reloads the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tileUrl, wanted]);

  const failed = state === "error" || refetchFailed;
  return (
    <div
      ref={frame}
      className="relative isolate h-[calc(100dvh-13rem)] min-h-72 overflow-hidden border-y border-slate-300 bg-slate-200 md:h-[calc(100dvh-10rem)] md:rounded-lg md:border"
    >
      <div
        ref={element}
        role="region"
        aria-label={t("map:mapLabel")}
        aria-describedby="ekc-map-keys"
        className="h-full w-full"
        // Leaflet sets its own font on the map; the page's font (Noto Sans, Nastaliq in Urdu) reads better.
        style={{ fontFamily: "inherit" }}
      />
      <p id="ekc-map-keys" className="sr-only">
        {t("map:keys")}
      </p>
      {state === "idle" && (
        // What shows before the map is asked for: one button in the middle of the map's place.
        <div className="absolute inset-0 z-[1000] flex items-center justify-center p-4">
          <button
            type="button"
            disabled={!hydrated}
            onClick={() => setState("loading")}
            onPointerEnter={() => void loadEngine()}
            onFocus={() => void loadEngine()}
            className="inline-flex min-h-11 items-center gap-2 rounded-md border-2 border-slate-700 bg-white px-5 py-3 font-bold text-slate-900 shadow hover:bg-slate-100 focus-visible:outline-3 disabled:cursor-wait disabled:opacity-70 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
          >
            <MapIcon aria-hidden="true" className="size-5 shrink-0" />
            {t("map:show")}
          </button>
        </div>
      )}
      <div role="status" className="pointer-events-none absolute inset-x-0 top-3 z-[1000] flex justify-center">
        {state === "loading" && <span className="rounded-md bg-white px-4 py-2 font-bold text-slate-900 shadow">{t("map:loading")}</span>}
      </div>
      {state === "ready" && (
        // After zooming in to a cluster (or panning far away), the way back to the whole country.
        <button
          type="button"
          onClick={() => handle.current?.showAll()}
          className="absolute end-2 top-2 z-[1000] inline-flex min-h-11 min-w-11 items-center gap-2 rounded-md border-2 border-slate-700 bg-white px-3 py-2 text-sm font-bold text-slate-900 shadow hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
        >
          <Expand aria-hidden="true" className="size-4 shrink-0" />
          {t("map:showAll")}
        </button>
      )}
      <div role="alert" className="pointer-events-none absolute inset-x-0 bottom-3 z-[1000] flex justify-center">
        {failed && (
          <span className="rounded-md border border-red-300 bg-red-50 px-4 py-2 font-bold text-red-900 shadow">{t("map:error")}</span>
        )}
      </div>
    </div>
  );
}

function CampaignList({ list }: { list: Paged<ListedCampaign> }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="ekc-map-list" className="mx-auto mt-8 max-w-3xl">
      <h2 id="ekc-map-list" className="mb-2 text-lg font-bold">
        {t("map:list.heading")}
      </h2>
      <noscript>
        <p className="mb-3 text-slate-700">{t("map:list.noScript")}</p>
      </noscript>
      {list.rows.length === 0 ? (
        <p className="text-slate-700">{t("map:list.none")}</p>
      ) : (
        <ul className="space-y-3">
          {list.rows.map((c) => (
            <li key={c.id} className="rounded-lg bg-white p-4 shadow-sm">
              <Link to={publicCampaignPath(c.slug)} className="font-bold text-brand-800 underline">
                <UserText>{c.title}</UserText>
              </Link>
              <UserText as="p" className="text-sm text-slate-700">
                {placeLabelFor({ label: c.locationLabel, labelUr: c.locationLabelUr }, i18n.language)}
              </UserText>
              <p className="mt-1 text-slate-800">{c.preview}</p>
            </li>
          ))}
        </ul>
      )}
      <Pager page={list.page} pages={list.pages} label={t("map:list.pager")} />
    </section>
  );
}
