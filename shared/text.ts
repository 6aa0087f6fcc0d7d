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
