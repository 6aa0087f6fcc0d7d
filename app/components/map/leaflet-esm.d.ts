// Leaflet's own ES source modules, imported one by one so the map pages load only the parts they use (the
// map with its handlers, tiles, markers, popups; the place field's point map adds the zoom and attribution
// controls): the whole library would not fit the JavaScript budget. Both maps share one Leaflet chunk.
// Their types are those of "leaflet".
declare module "leaflet/src/map/Map.js" {
  export { Map } from "leaflet";
}
declare module "leaflet/src/layer/tile/TileLayer.js" {
  export { TileLayer } from "leaflet";
}
declare module "leaflet/src/layer/marker/Marker.js" {
  export { Marker } from "leaflet";
}
declare module "leaflet/src/layer/marker/DivIcon.js" {
  export { DivIcon } from "leaflet";
}
declare module "leaflet/src/layer/LayerGroup.js" {
  export { LayerGroup } from "leaflet";
}
declare module "leaflet/src/geo/LatLngBounds.js" {
  export { LatLngBounds } from "leaflet";
}
declare module "leaflet/src/geo/LatLng.js" {
  export { LatLng } from "leaflet";
}
declare module "leaflet/src/geometry/Point.js" {
  export { Point } from "leaflet";
}
declare module "leaflet/src/layer/Popup.js" {
  export { Popup } from "leaflet";
}
declare module "leaflet/src/map/handler/Map.Drag.js";
declare module "leaflet/src/map/handler/Map.Keyboard.js";
declare module "leaflet/src/map/handler/Map.ScrollWheelZoom.js";
declare module "leaflet/src/map/handler/Map.DoubleClickZoom.js";
declare module "leaflet/src/map/handler/Map.TouchZoom.js";
declare module "leaflet/src/control/Control.Zoom.js" {
  import type { Control } from "leaflet";
  export const Zoom: typeof Control.Zoom;
}
declare module "leaflet/src/control/Control.Attribution.js" {
  import type { Control } from "leaflet";
  export const Attribution: typeof Control.Attribution;
}
