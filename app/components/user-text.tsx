import { createElement, type HTMLAttributes } from "react";
import { useTranslation } from "#app/i18n/provider.ts";
import { dirOf } from "#shared/i18n/i18n.ts";
import { isolateForeign } from "#shared/text.ts";

type UserTextTag = "span" | "p" | "h1" | "h2" | "h3" | "dd" | "pre";

/**
 * Text a person wrote (a campaign's title, a name, a place, a message), shown in whichever script they wrote it:
 * its direction is its own (`dir="auto"`), isolated from the page's, so an English title on an Urdu page reads left
 * to right, truncates at its own end, and cannot reorder the numbers and words around it. The one way user text is
 * put on a page (decision 040); a sentence of ours that carries user text isolates it in the translator instead.
 */
export function UserText({ as = "span", ...props }: { as?: UserTextTag } & HTMLAttributes<HTMLElement>) {
  return createElement(as, { ...props, dir: "auto" });
}

/**
 * The same as a function called in the render (`{userText("h3", { className, children: title })}`), for a list that
 * draws it on every row: the element alone, without a component around it for React to render (decision 037,
 * 2026-11-28).
 */
export function userText(as: UserTextTag, props: HTMLAttributes<HTMLElement>) {
  return createElement(as, { ...props, dir: "auto" });
}

/**
 * A card's title: at most two lines, cut with an ellipsis at the title's own end; no wider than its words, so a short
 * title in the other script still sits on the page's start side of the card (an English title on the right in Urdu).
 */
export const CARD_TITLE = "line-clamp-2 w-fit max-w-full break-words text-start text-lg font-bold text-slate-900";

/**
 * A choice in a `<select>` whose words a person wrote (a campaign's title, a column's heading): an option holds text,
 * not elements, so the text is isolated as the translator isolates a value, when it is in the other script.
 */
export function UserOption({ value, text }: { value: string; text: string }) {
  const { i18n } = useTranslation();
  return <option value={value}>{isolateForeign(text, dirOf(i18n.language))}</option>;
}
