/**
 * The campaign map in the browser: Leaflet, the clusters and markers of /api/map, and their info windows.
 * Loaded only by the map pages, through a dynamic import(), so no other page carries Leaflet. Its stylesheets come
 * with it (the import resolves once they have loaded), so they never hold up the page's first paint.
 */
import "leaflet/dist/leaflet.css";
import "./map-page.css";
import type { PopupEvent } from "leaflet";
import { Map as LeafletMap } from "leaflet/src/map/Map.js";
// The ways to move the map: drag, keyboard (arrows, + and -), wheel, double-click and pinch. Each registers itself.
import "leaflet/src/map/handler/Map.Drag.js";
import "leaflet/src/map/handler/Map.Keyboard.js";
import "leaflet/src/map/handler/Map.ScrollWheelZoom.js";
import "leaflet/src/map/handler/Map.DoubleClickZoom.js";
import "leaflet/src/map/handler/Map.TouchZoom.js";
import { TileLayer } from "leaflet/src/layer/tile/TileLayer.js";
import { Marker } from "leaflet/src/layer/marker/Marker.js";
import { DivIcon } from "leaflet/src/layer/marker/DivIcon.js";
import { LayerGroup } from "leaflet/src/layer/LayerGroup.js";
import { LatLngBounds } from "leaflet/src/geo/LatLngBounds.js";
// Adds bindPopup to markers.
import "leaflet/src/layer/Popup.js";
import type { MapCampaign, MapCluster, MapData } from "#shared/map.ts";
import { PAKISTAN_BOUNDS } from "#shared/places.ts";

/** Pakistan, at the specification's zoom: the view of a desktop screen. */
export const PAKISTAN_CENTER: [number, number] = [30.3753, 69.3451];
export const INITIAL_ZOOM = 5.8;
/** The whole country, which a phone's narrow map fits instead (at zoom 5.8 it would show only the middle of it). */
const PAKISTAN: [[number, number], [number, number]] = [
  [PAKISTAN_BOUNDS.south, PAKISTAN_BOUNDS.west],
  [PAKISTAN_BOUNDS.north, PAKISTAN_BOUNDS.east],
];
const REFETCH_DELAY_MS = 200;

export interface MapStrings {
  viewCampaign: string;
  closeInfo: string;
  /** The accessible name of a cluster, for its count. */
  cluster: (count: number) => string;
}

export interface MapOptions {
  tileUrl: string;
  strings: MapStrings;
  /** Where each info window's link leads. */
  campaignHref: (slug: string) => string;
  /** Called after a refetch fails (true) or succeeds again (false); the first load's failure rejects startMap. */
  onDataError: (failed: boolean) => void;
  /** Start with the whole of Pakistan fitted into the map (a phone) instead of the specification's zoom 5.8. */
  fitCountry: boolean;
}

export interface MapHandle {
  /** Goes back to the first view: the whole country, after zooming in to a cluster or panning away. */
  showAll(): void;
  destroy(): void;
}

/**
 * Draws the map into `element` and resolves once the first campaigns are on it; rejects when they cannot be
 * loaded. Tiles that fail are ignored: the markers show on a blank background.
 */
export async function startMap(element: HTMLElement, options: MapOptions): Promise<MapHandle> {
  const map = new LeafletMap(element, {
    zoomSnap: 0.1,
    zoomDelta: 0.5,
    minZoom: 3,
    maxZoom: 18,
    // The default controls are off; keyboard (arrows, + and -), wheel, double-click and pinch still zoom and pan.
    zoomControl: false,
    // The attribution is shown as a line under the map by the page.
    attributionControl: false,
  });
  const firstView = (animate: boolean) => {
    if (options.fitCountry) map.fitBounds(PAKISTAN, { animate });
    else map.setView(PAKISTAN_CENTER, INITIAL_ZOOM, { animate });
  };
  firstView(false);
  new TileLayer(options.tileUrl, { maxZoom: 19 }).addTo(map);

  const clusterLayer = new LayerGroup().addTo(map);
  const markers = new Map<string, Marker>();
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let destroyed = false;

  const load = async () => {
    controller?.abort();
    const current = (controller = new AbortController());
    const b = map.getBounds();
    const clampLat = (v: number) => Math.max(-90, Math.min(90, v)).toFixed(4);
    const clampLng = (v: number) => Math.max(-180, Math.min(180, v)).toFixed(4);
    const query = new URLSearchParams({
      south: clampLat(b.getSouth()),
      west: clampLng(b.getWest()),
      north: clampLat(b.getNorth()),
      east: clampLng(b.getEast()),
      zoom: map.getZoom().toFixed(1),
    });
    const response = await fetch(`/api/map?${query}`, { signal: current.signal, headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`map data: HTTP ${response.status}`);
    const data = (await response.json()) as MapData;
    if (current.signal.aborted || destroyed) return;
    draw(data);
  };

  const draw = (data: MapData) => {
    clusterLayer.clearLayers();
    for (const cluster of data.clusters) clusterLayer.addLayer(clusterMarker(map, cluster, options.strings));
    // Markers that stay in view are kept, so their open info windows stay open while the map moves.
    const wanted = new Set(data.campaigns.map((c) => c.id));
    for (const [id, marker] of markers) {
      if (!wanted.has(id)) {
        marker.remove();
        markers.delete(id);
      }
    }
    const offsets = spreadOffsets(data.campaigns);
    for (const campaign of data.campaigns) {
      if (markers.has(campaign.id)) continue;
      const marker = campaignMarker(campaign, offsets.get(campaign.id) ?? [0, 0], options);
      marker.addTo(map);
      markers.set(campaign.id, marker);
    }
  };

  const scheduleLoad = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      load().then(
        () => options.onDataError(false),
        (err: unknown) => {
          if (!isAbort(err) && !destroyed) options.onDataError(true);
        },
      );
    }, REFETCH_DELAY_MS);
  };

  const destroy = () => {
    destroyed = true;
    clearTimeout(timer);
    controller?.abort();
    map.remove();
  };

  try {
    await load();
  } catch (err) {
    destroy();
    throw err;
  }
  map.on("moveend", scheduleLoad);
  return { showAll: () => firstView(true), destroy };
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === "AbortError";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A circle with the number of campaigns; a click (or Enter) zooms in to them. */
function clusterMarker(map: LeafletMap, cluster: MapCluster, strings: MapStrings): Marker {
  const size = Math.round(34 + 8 * Math.log10(cluster.count));
  const icon = new DivIcon({
    // (Leaflet's stylesheet makes the icon itself display:block, so an inner box centres the number.)
    className: "ekc-map-cluster rounded-full border-2 border-white bg-amber-300 font-bold text-slate-900 shadow-md",
    html:
      `<span aria-hidden="true" class="flex h-full w-full items-center justify-center">${cluster.count}</span>` +
      `<span class="sr-only">${escapeHtml(strings.cluster(cluster.count))}</span>`,
    iconSize: [size, size],
  });
  const marker = new Marker([cluster.lat, cluster.lng], { icon, keyboard: true, riseOnHover: true });
  marker.on("click", () => {
    const bounds = new LatLngBounds(cluster.bounds);
    const target = Math.min(map.getBoundsZoom(bounds.pad(0.2)), map.getMaxZoom());
    if (target > map.getZoom() + 0.5) map.flyToBounds(bounds.pad(0.2), { duration: 0.4 });
    else map.setView([cluster.lat, cluster.lng], Math.min(map.getZoom() + 2, map.getMaxZoom()));
  });
  return marker;
}

/** A campaign's marker; a click opens or closes its own info window, several may be open at once. */
function campaignMarker(campaign: MapCampaign, offset: [number, number], options: MapOptions): Marker {
  const [dx, dy] = offset;
  const icon = new DivIcon({
    className: "ekc-map-campaign rounded-full border-[3px] border-white bg-brand-700 shadow-md",
    html: `<span class="sr-only">${escapeHtml(campaign.title)}</span>`,
    iconSize: [24, 24],
    iconAnchor: [12 - dx, 12 - dy],
    popupAnchor: [dx, dy - 12],
  });
  const marker = new Marker([campaign.lat, campaign.lng], { icon, keyboard: true, title: campaign.title, riseOnHover: true });

  const content = document.createElement("div");
  content.className = "ekc-map-info space-y-1 text-sm";
  const title = document.createElement("p");
  title.className = "text-base font-bold text-slate-900";
  title.textContent = campaign.title;
  const preview = document.createElement("p");
  preview.className = "text-slate-800";
  preview.textContent = campaign.preview;
  // What the NGO wrote, in whichever script, in its own direction (as UserText shows it, decision 040).
  title.dir = "auto";
  preview.dir = "auto";
  const link = document.createElement("a");
  link.className = "font-bold underline";
  link.href = options.campaignHref(campaign.slug);
  link.textContent = options.strings.viewCampaign;
  content.append(title, preview, link);

  marker.bindPopup(content, { autoClose: false, closeOnClick: false, maxWidth: 260, minWidth: 180, className: "ekc-map-popup" });
  marker.on("popupopen", (e) => {
    const close = (e as PopupEvent).popup.getElement()?.querySelector(".leaflet-popup-close-button");
    close?.setAttribute("aria-label", options.strings.closeInfo);
    close?.setAttribute("title", options.strings.closeInfo);
  });
  return marker;
}

/** Campaigns at the very same point are set around it in a small ring, so each can be clicked. */
function spreadOffsets(list: MapCampaign[]): Map<string, [number, number]> {
  const groups = new Map<string, MapCampaign[]>();
  for (const c of list) {
    const key = `${c.lat},${c.lng}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const result = new Map<string, [number, number]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const radius = Math.min(60, 14 + 4 * group.length);
    group.forEach((c, i) => {
      const angle = (2 * Math.PI * i) / group.length - Math.PI / 2;
      result.set(c.id, [Math.round(radius * Math.cos(angle)), Math.round(radius * Math.sin(angle))]);
    });
  }
  return result;
}
