// subset-font ships no types; the part scripts/build-fonts.ts uses (https://github.com/papandreou/subset-font).
declare module "subset-font" {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: "sfnt" | "woff" | "woff2"; keepFeatures?: string[]; noHinting?: boolean },
  ): Promise<Buffer>;
}
