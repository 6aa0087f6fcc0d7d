import type { MetaDescriptor } from "react-router";

/**
 * The picture a shared link shows when the page has none of its own: link previews (WhatsApp among them) do not
 * render SVG, so the default campaign picture also exists as a PNG.
 */
export const DEFAULT_SHARE_PICTURE = "/static/default-campaign.png";

/** What a public page says about itself to a link preview; the loader fills it in the reader's language. */
export interface ShareMeta {
  /** The document title. */
  title: string;
  /** The preview's title. */
  ogTitle: string;
  /** The page's description (search engines). */
  description: string;
  /** The preview's line under the title. */
  summary: string;
  /** Absolute URL. */
  image: string;
  imageAlt: string;
  siteName: string;
  locale: "ur_PK" | "en_PK";
  /** "website" with a large picture (a campaign), or "profile" with a small one (an NGO's logo). */
  kind: "website" | "profile";
}

/** Title, description, canonical address and the preview card of a shared link (Open Graph, read by WhatsApp, and Twitter's card). */
export function shareTags(m: ShareMeta, pageUrl: string): MetaDescriptor[] {
  return [
    { title: m.title },
    { name: "description", content: m.description },
    { tagName: "link", rel: "canonical", href: pageUrl },
    { property: "og:type", content: m.kind },
    { property: "og:site_name", content: m.siteName },
    { property: "og:locale", content: m.locale },
    { property: "og:url", content: pageUrl },
    { property: "og:title", content: m.ogTitle },
    { property: "og:description", content: m.summary },
    { property: "og:image", content: m.image },
    { property: "og:image:alt", content: m.imageAlt },
    { name: "twitter:card", content: m.kind === "website" ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: m.ogTitle },
    { name: "twitter:description", content: m.summary },
    { name: "twitter:image", content: m.image },
    { name: "twitter:image:alt", content: m.imageAlt },
  ];
}
