import type { Lang } from "#shared/i18n/i18n.ts";
import sansRegular from "./noto-sans-400.woff2?url";
import nastaliqRegular from "./noto-nastaliq-urdu-400.woff2?url";

/** The one font a language's first view cannot do without: its body text's (decision 030). */
const BODY_FONT: Record<Lang, string> = { en: sansRegular, ur: nastaliqRegular };

/**
 * A `Link` header that preloads it with the page: the browser starts the download before it has read the HTML or
 * the stylesheet. `crossorigin` makes it the same request as the @font-face's (fonts are always fetched in CORS
 * mode), not a second download. Sent by entry.server, so it costs the page no JavaScript.
 */
export function bodyFontPreload(lang: Lang): string {
  return `<${BODY_FONT[lang]}>; rel=preload; as=font; type="font/woff2"; crossorigin`;
}
