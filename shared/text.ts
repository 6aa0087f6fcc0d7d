/** The first `words` words of a text, with an ellipsis when anything was cut (the specification's previews). */
export function previewWords(text: string | null | undefined, words: number): string {
  const all = (text ?? "").split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(" ") : `${all.slice(0, words).join(" ")}…`;
}

/**
 * Characters that no text a person types contains: the C0 controls (NUL among them, which PostgreSQL refuses
 * outright), DEL, the C1 controls and unpaired UTF-16 surrogates. Tab, line feed and carriage return are
 * ordinary in a textarea and are kept unless `lineBreaks` is false (a URL, a path). Letters and marks of every
 * script are kept, Urdu's zero-width non-joiner and the direction marks among them.
 */
const CONTROLS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROLS_AND_BREAKS = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasControlCharacters(text: string, { lineBreaks = true }: { lineBreaks?: boolean } = {}): boolean {
  return (lineBreaks ? CONTROLS : CONTROLS_AND_BREAKS).test(text);
}

/**
 * Unicode's isolates (UAX #9): what they enclose is laid out in its own direction and cannot reorder the text around
 * it, like `<bdi>` in HTML but inside a string (a sentence of ours that carries a name, a time, a size).
 */
const FIRST_STRONG_ISOLATE = "\u2068";
const LEFT_TO_RIGHT_ISOLATE = "\u2066";
const POP_DIRECTIONAL_ISOLATE = "\u2069";

const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
const LATIN_LETTER = /[A-Za-z\u00C0-\u024F]/;
const WEB_ADDRESS = /^[a-z][a-z0-9+.-]*:\/\/\S*$/i;

/** Latin text ("6:06 PM", "5 MB", "Rs. 500") kept left to right inside a right-to-left sentence. */
export function isolateLtr(text: string): string {
  return `${LEFT_TO_RIGHT_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
}

/** A run already isolated (an isolate initiator, what it holds, its closing mark), innermost first. */
const ISOLATED_RUN = /[\u2066-\u2068][^\u2066-\u2069]*\u2069/g;
const ISOLATE_CONTROL = /[\u2066-\u2069]/g;

/** The text outside the isolated runs it holds (what decides the direction of an isolate around it, UAX #9 P2). */
function outsideIsolates(text: string): string {
  for (let before = ""; before !== text;) [before, text] = [text, text.replace(ISOLATED_RUN, "")];
  return text;
}

/**
 * A value placed in a sentence of the page's direction, isolated when it holds letters of the other direction (an
 * English name in Urdu, an Urdu name in English); a value of the sentence's own script, or only digits, is left as
 * it is. The isolate takes the direction of the value's first letter. A web address is left bare: mail programs find
 * links by what surrounds them, and an isolate's closing mark would read as part of the address.
 *
 * One isolate never sits inside another (decision 040). A value may hold isolates of its own (a sentence of ours
 * that isolated a name, an Urdu time "6:06 PM"): only the letters outside them decide, so such a value in a sentence
 * of its own language is left as it is; and a value isolated whole loses the isolates inside it: they kept its parts
 * apart from a sentence of the other direction, and now the whole value is kept apart, its parts ordered by their own
 * letters inside it.
 */
export function isolateForeign(text: string, dir: "rtl" | "ltr"): string {
  if (WEB_ADDRESS.test(text)) return text;
  const foreign = dir === "rtl" ? LATIN_LETTER : RTL_LETTER;
  if (!foreign.test(outsideIsolates(text))) return text;
  return `${FIRST_STRONG_ISOLATE}${text.replace(ISOLATE_CONTROL, "")}${POP_DIRECTIONAL_ISOLATE}`;
}
