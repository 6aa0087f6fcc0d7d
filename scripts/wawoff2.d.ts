// wawoff2 ships no types; the part app/fonts/fonts.test.ts uses (Google's WOFF2 decoder as WebAssembly).
declare module "wawoff2" {
  /** A WOFF2 file's TrueType/OpenType bytes. */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
