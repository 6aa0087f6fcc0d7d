/** The first `words` words of a text, with an ellipsis when anything was cut (the specification's previews). */
export function previewWords(text: string | null | undefined, words: number): string {
  const all = (text ?? "").split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(" ") : `${all.slice(0, words).join(" ")}…`;
}
