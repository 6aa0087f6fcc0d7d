/**
 * The brand's filled button, for a <button>, a submit button or a link that looks like one. While a form is
 * being sent its disabled button shows that it waits. Layout (margins, flex, width) is the caller's.
 */
const BRAND = "bg-brand-700 font-bold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70";

const SIZES = {
  /** Across the form: sign-in, sign-up, the proof and the goods offer. */
  block: "w-full rounded-lg px-4 py-3",
  /** The landing pages' choices. */
  tall: "rounded-lg px-4 py-3",
  /** A page's main link or a settings form's save. */
  page: "rounded-lg px-4 py-2",
  /** The long forms' submit (campaign, position). */
  wide: "rounded-lg px-8 py-3",
  /** Most actions. */
  regular: "rounded-md px-4 py-2",
  /** A card's or a campaign page's main action. */
  medium: "rounded-md px-5 py-2",
  /** Side by side in a narrow card. */
  narrow: "rounded-md px-3 py-2",
  /** A next step on a thank-you page. */
  roomy: "rounded-md px-6 py-2",
  /** Inside a table row. */
  small: "rounded-md px-3 py-1",
} as const;

export type BrandButtonSize = keyof typeof SIZES;

export function brandButton(size: BrandButtonSize = "regular", layout?: string): string {
  return layout ? `${layout} ${SIZES[size]} ${BRAND}` : `${SIZES[size]} ${BRAND}`;
}
