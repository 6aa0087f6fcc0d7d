import { useEffect, useRef, useState } from "react";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { Link } from "react-router";
import leafletCss from "leaflet/dist/leaflet.css?url";
import { useTranslation } from "#app/i18n/provider.ts";
import { Pager } from "#app/components/pager.tsx";
import type { Paged } from "#shared/paging.ts";
import type { ListedCampaign } from "#shared/map.ts";

/** Leaflet's stylesheet, only on the map pages (it is CSS: the script itself is loaded on demand). */
export const mapLinks = () => [{ rel: "stylesheet", href: leafletCss }];

export interface MapPageProps {
  tileUrl: string;
  attribution: string;
  list: Paged<ListedCampaign>;
}

/**
 * /ngo_map and /donor_map: the signed-in user's sidebar (name and logo or picture), the map of active
 * campaigns filling the rest of the screen, and under it the same campaigns as a paged list, which is what
 * a visitor without JavaScript (or a screen-reader user who prefers it) gets.
 */
export function MapPage({ tileUrl, attribution, list }: MapPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <title>{`${t("map:title")} · ${t("common:brand")}`}</title>
      <div className="ekc-map-area">
        <CampaignMap tileUrl={tileUrl} />
        <p className="mt-1 text-xs text-slate-700">
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

type MapState = "loading" | "ready" | "error";

function CampaignMap({ tileUrl }: { tileUrl: string }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<MapState>("loading");
  const [refetchFailed, setRefetchFailed] = useState(false);

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    let cancelled = false;
    let handle: { destroy(): void } | null = null;
    setState("loading");
    const start = async () => {
      const engine = await import("./map-engine.ts");
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
        onDataError: (failed) => {
          if (!cancelled) setRefetchFailed(failed);
        },
      });
      if (cancelled) h.destroy();
      else {
        handle = h;
        setState("ready");
      }
    };
    start().catch(() => {
      if (!cancelled) setState("error");
    });
    return () => {
      cancelled = true;
      handle?.destroy();
    };
    // The strings only change with the language, which reloads the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tileUrl]);

  const failed = state === "error" || refetchFailed;
  return (
    <div className="relative isolate h-[calc(100dvh-17rem)] min-h-72 overflow-hidden rounded-lg border border-slate-300 bg-slate-200 md:h-[calc(100dvh-10rem)]">
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
      <div role="status" className="pointer-events-none absolute inset-x-0 top-3 z-[1000] flex justify-center">
        {state === "loading" && <span className="rounded-md bg-white px-4 py-2 font-bold text-slate-900 shadow">{t("map:loading")}</span>}
      </div>
      <div role="alert" className="pointer-events-none absolute inset-x-0 bottom-3 z-[1000] flex justify-center">
        {failed && (
          <span className="rounded-md border border-red-300 bg-red-50 px-4 py-2 font-bold text-red-900 shadow">{t("map:error")}</span>
        )}
      </div>
    </div>
  );
}

function CampaignList({ list }: { list: Paged<ListedCampaign> }) {
  const { t } = useTranslation();
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
                {c.title}
              </Link>
              <p className="text-sm text-slate-700">{c.locationLabel}</p>
              <p className="mt-1 text-slate-800">{c.preview}</p>
            </li>
          ))}
        </ul>
      )}
      <Pager page={list.page} pages={list.pages} label={t("map:list.pager")} />
    </section>
  );
}
