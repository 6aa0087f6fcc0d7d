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
