/**
 * Pledge codes (decision 022): six characters a donor writes in a transfer's remark, so the NGO's statement line
 * can be tied to the gift. No 0/O or 1/I, so a code read aloud or copied from a phone cannot be misread; shown
 * as EK-XXX-XXX, but found in a remark whatever the separators, case or prefix.
 */
export const PLEDGE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const PLEDGE_CODE_LENGTH = 6;
export const PLEDGE_PREFIX = "EK";

/** The code as shown and as the donor types it: EK-7KQ-4M9. */
export function formatPledgeCode(code: string): string {
  return `${PLEDGE_PREFIX}-${code.slice(0, 3)}-${code.slice(3)}`;
}

const CODE = new RegExp(`^[${PLEDGE_ALPHABET}]{${PLEDGE_CODE_LENGTH}}$`);

/** A code as typed ("ek-7kq-4m9", "7KQ 4M9") in its stored form, or null when it cannot be one. */
export function normalizePledgeCode(text: string): string | null {
  const bare = text.toUpperCase().replace(/[\s\-_.]/g, "");
  const code = bare.startsWith(PLEDGE_PREFIX) && bare.length === PLEDGE_PREFIX.length + PLEDGE_CODE_LENGTH ? bare.slice(2) : bare;
  return CODE.test(code) ? code : null;
}
