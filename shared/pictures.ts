/** Default pictures stand in when none was uploaded. */
export const DEFAULT_PICTURES = {
  logo: "/static/default-logo.svg",
  avatar: "/static/default-avatar.svg",
  campaign: "/static/default-campaign.svg",
} as const;

/** The URL a stored picture is shown from, or the default for its kind. */
export function pictureUrl(key: string | null | undefined, fallback: keyof typeof DEFAULT_PICTURES): string {
  return key ? `/files/${key}` : DEFAULT_PICTURES[fallback];
}

/**
 * The narrower copies stored beside a wide picture (campaign pictures and posters), made when it is uploaded, so a
 * phone downloads what it shows instead of the 1600-pixel original: a card on a 360-pixel phone is about 330 CSS
 * pixels wide, 480 device pixels at 1.5x, 960 at 2x and 3x (decision 034).
 */
export const PICTURE_WIDTHS = [480, 960] as const;
export type PictureWidth = (typeof PICTURE_WIDTHS)[number];

/** The longest edge of every stored picture (server/domain/files/re-encode.ts): what srcset says the original is. */
export const PICTURE_MAX_EDGE = 1600;

/** `campaign/<uuid>.webp` → `campaign/<uuid>.w480.webp`: the copy's key, beside the original's. */
export function pictureVariantKey(key: string, width: PictureWidth): string {
  return key.replace(/\.webp$/, `.w${width}.webp`);
}

const VARIANT_KEY = new RegExp(`^([a-z]+/[0-9a-f-]{36})\\.w(${PICTURE_WIDTHS.join("|")})\\.webp$`);

/** The original a copy's key belongs to, and the copy's width; null for any other key. */
export function pictureVariantOf(key: string): { original: string; width: PictureWidth } | null {
  const match = VARIANT_KEY.exec(key);
  return match ? { original: `${match[1]}.webp`, width: Number(match[2]) as PictureWidth } : null;
}

/**
 * The `srcset` of a stored picture: its copies and the original. Every width is listed whatever the picture's own
 * width: the files route answers a copy narrower pictures do not have with the original (files.ts), so the page
 * needs nothing but the key. A default picture (an SVG) has none.
 */
export function pictureSrcSet(key: string | null | undefined): string | undefined {
  if (!key) return undefined;
  return [...PICTURE_WIDTHS.map((w) => `/files/${pictureVariantKey(key, w)} ${w}w`), `/files/${key} ${PICTURE_MAX_EDGE}w`].join(", ");
}

/**
 * How wide the layouts show a picture (`sizes`), by Tailwind's breakpoints: a card of the grids of campaigns and
 * positions (one a row on a phone, two from `sm`, three from `lg`), a row of the NGO's list of campaigns (the whole
 * width on a phone, a 9rem square beside the text from `sm`) and a page's main picture (`max-w-3xl`).
 */
export const PICTURE_SIZES = {
  card: "(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw",
  row: "(min-width: 640px) 9rem, 100vw",
  page: "(min-width: 48rem) 48rem, 100vw",
} as const;
