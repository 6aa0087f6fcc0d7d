import "leaflet/dist/leaflet.css";
import "./point-map.css";
import type { LeafletMouseEvent } from "leaflet";
// The same tree-shaken Leaflet source modules as the campaign map (map/map-engine.ts), so both share one chunk.
import { Map as LeafletMap } from "leaflet/src/map/Map.js";
import "leaflet/src/map/handler/Map.Drag.js";
import "leaflet/src/map/handler/Map.Keyboard.js";
import "leaflet/src/map/handler/Map.ScrollWheelZoom.js";
import "leaflet/src/map/handler/Map.DoubleClickZoom.js";
import "leaflet/src/map/handler/Map.TouchZoom.js";
// This map shows Leaflet's zoom buttons and the tiles' attribution, as its own controls, in the reader's language.
import { Zoom } from "leaflet/src/control/Control.Zoom.js";
import { Attribution } from "leaflet/src/control/Control.Attribution.js";
import { TileLayer } from "leaflet/src/layer/tile/TileLayer.js";
import { Marker } from "leaflet/src/layer/marker/Marker.js";
import { DivIcon } from "leaflet/src/layer/marker/DivIcon.js";
import { LatLngBounds } from "leaflet/src/geo/LatLngBounds.js";
import { LatLng } from "leaflet/src/geo/LatLng.js";
import { Point } from "leaflet/src/geometry/Point.js";
import { useEffect, useRef } from "react";
import { PAKISTAN_BOUNDS } from "#shared/places.ts";

/**
 * The small map of the place field: one draggable marker on the chosen point, kept inside Pakistan.
 * Browser-only (Leaflet needs `window`) and loaded on demand by `PlaceField`, never with the page.
 */
export interface PointMapProps {
  lat: number;
  lng: number;
  onMove: (lat: number, lng: number) => void;
  tileUrl?: string;
  tileAttribution?: string;
  markerLabel: string;
  /** The words Leaflet's controls would otherwise say in English: its zoom buttons' names, its own link's title. */
  controls: { zoomIn: string; zoomOut: string; leaflet: string };
  onError?: () => void;
}

const INITIAL_ZOOM = 11;
/** Pixels the marker moves per arrow key. */
const KEY_STEP_PX = 12;

const PIN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="42" viewBox="0 0 32 42" aria-hidden="true">' +
  '<path d="M16 1C7.7 1 1 7.6 1 15.8 1 27 16 41 16 41s15-14 15-25.2C31 7.6 24.3 1 16 1z" fill="#0f766e" stroke="#fff" stroke-width="2"/>' +
  '<circle cx="16" cy="15.5" r="5.5" fill="#fff"/></svg>';

function clamp(lat: number, lng: number): LatLng {
  const b = PAKISTAN_BOUNDS;
  return new LatLng(Math.min(b.north, Math.max(b.south, lat)), Math.min(b.east, Math.max(b.west, lng)));
}

const round = (x: number) => Math.round(x * 1e5) / 1e5;

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export default function PointMap({ lat, lng, onMove, tileUrl, tileAttribution, markerLabel, controls, onError }: PointMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<LeafletMap | null>(null);
  const marker = useRef<Marker | null>(null);
  const moved = useRef(onMove);
  moved.current = onMove;

  useEffect(() => {
    if (!element.current) return;
    try {
      const b = PAKISTAN_BOUNDS;
      const m = new LeafletMap(element.current, {
        maxBounds: new LatLngBounds([b.south - 2, b.west - 2], [b.north + 2, b.east + 2]),
        minZoom: 4,
        // Leaflet's own controls are made below with our words (its defaults are English).
        zoomControl: false,
        attributionControl: false,
      }).setView(clamp(lat, lng), INITIAL_ZOOM);
      new Zoom({ zoomInTitle: controls.zoomIn, zoomOutTitle: controls.zoomOut }).addTo(m);
      // Leaflet's credit as it writes it, its title in the reader's language; the line is Latin licence text, left to right.
      const credit = new Attribution({
        prefix: `<a href="https://leafletjs.com" title="${escapeAttribute(controls.leaflet)}">Leaflet</a>`,
      }).addTo(m);
      credit.getContainer()?.setAttribute("dir", "ltr");
      if (tileUrl) new TileLayer(tileUrl, { attribution: tileAttribution, maxZoom: 18 }).addTo(m);
      const icon = new DivIcon({ className: "ekc-point-marker", html: PIN_SVG, iconSize: [32, 42], iconAnchor: [16, 41] });
      const mk = new Marker(clamp(lat, lng), { draggable: true, autoPan: true, keyboard: true, title: markerLabel, icon }).addTo(m);
      const place = (to: LatLng) => {
        const p = clamp(to.lat, to.lng);
        mk.setLatLng(p);
        moved.current(round(p.lat), round(p.lng));
      };
      mk.on("dragend", () => place(mk.getLatLng()));
      m.on("click", (e: LeafletMouseEvent) => place(e.latlng));
      const el = mk.getElement();
      el?.setAttribute("aria-label", markerLabel);
      // Dragging needs a pointer; the arrow keys move a focused marker too (and do not pan the map).
      el?.addEventListener("keydown", (e) => {
        const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
        if (!d) return;
        e.preventDefault();
        e.stopPropagation();
        const at = m.latLngToContainerPoint(mk.getLatLng());
        place(m.containerPointToLatLng(new Point(at.x + d[0]! * KEY_STEP_PX, at.y + d[1]! * KEY_STEP_PX)));
        m.panInside(mk.getLatLng());
      });
      map.current = m;
      marker.current = mk;
    } catch {
      onError?.();
    }
    return () => {
      map.current?.remove();
      map.current = null;
      marker.current = null;
    };
    // The map is made once; later points arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A new place chosen while the map is open: move the marker there.
  useEffect(() => {
    const m = map.current;
    const mk = marker.current;
    if (!m || !mk) return;
    const current = mk.getLatLng();
    if (round(current.lat) === round(lat) && round(current.lng) === round(lng)) return;
    mk.setLatLng(clamp(lat, lng));
    m.setView(clamp(lat, lng), m.getZoom());
  }, [lat, lng]);

  return <div ref={element} className="ekc-point-map h-60 w-full rounded-md border border-slate-300" />;
}
