import type { Lang, TFunction } from "#shared/i18n/i18n.ts";
import { formatDay } from "#shared/format.ts";
import { CHECK_KINDS, type CheckKind, type RegistrationAuthority } from "#shared/statuses.ts";

/**
 * A check of an NGO as the public is told it (decision 051): what was checked, against whom, its number, the day it
 * was checked and the last day it is valid. Only standing checks (not revoked, not expired) are ever shown.
 */
export interface ShownCheck {
  kind: CheckKind;
  authority: RegistrationAuthority | null;
  /** The authority's name when it is `other`. */
  authorityName: string | null;
  reference: string;
  /** YYYY-MM-DD, Pakistan time. */
  checkedOn: string;
  expiresOn: string | null;
}

/** The authority a registration is with, as a sentence names it ("the Sindh Charity Commission"). */
export function authorityInSentence(check: Pick<ShownCheck, "authority" | "authorityName">, t: TFunction): string {
  if (check.authority === "other" || !check.authority) return check.authorityName ?? "";
  return t(`checks:authority.${check.authority}.inSentence`);
}

/** One check as a sentence: "Registered with the Sindh Charity Commission, No. KAR-1182, checked 12 Nov 2026". */
export function checkSentence(check: ShownCheck, t: TFunction, lang: Lang): string {
  const params = {
    reference: check.reference,
    checked: formatDay(check.checkedOn, lang),
    expires: check.expiresOn ? formatDay(check.expiresOn, lang) : "",
    authority: authorityInSentence(check, t),
  };
  const key =
    check.kind === "registration" && !check.expiresOn ? "registration" : check.kind === "registration" ? "registrationUntil" : check.kind;
  return t(`checks:sentence.${key}`, params);
}

/** Standing checks in the order the badge tells them: registration, PCP, tax exemption; the newest of a kind first. */
export function inBadgeOrder<C extends Pick<ShownCheck, "kind" | "checkedOn">>(checks: readonly C[]): C[] {
  return [...checks].sort((a, b) => CHECK_KINDS.indexOf(a.kind) - CHECK_KINDS.indexOf(b.kind) || b.checkedOn.localeCompare(a.checkedOn));
}

/** The whole statement the campaign page and the profile show: every standing check, one sentence each. */
export function badgeStatement(checks: readonly ShownCheck[], t: TFunction, lang: Lang): string {
  return inBadgeOrder(checks)
    .map((c) => checkSentence(c, t, lang))
    .join(t("checks:separator"));
}
