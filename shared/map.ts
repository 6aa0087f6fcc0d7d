/** What the map pages receive: clusters and markers for a view, and the plain list (server/domain/map/map.ts makes them). */

/** Several active campaigns close together at this zoom, drawn as one circle with their number. */
export interface MapCluster {
  lat: number;
  lng: number;
  count: number;
  /** The box around its campaigns, [[south, west], [north, east]]: a click zooms there. */
  bounds: [[number, number], [number, number]];
}

/** One active campaign, drawn as a marker with an info window. */
export interface MapCampaign {
  id: string;
  slug: string;
  title: string;
  /** The first 20 words of the description, with "…" when cut. */
  preview: string;
  lat: number;
  lng: number;
}

export interface MapData {
  clusters: MapCluster[];
  campaigns: MapCampaign[];
}

export interface ListedCampaign {
  id: string;
  slug: string;
  title: string;
  preview: string;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
}
