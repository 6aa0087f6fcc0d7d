/**
 * What the narrower copies of a picture cost at upload and what they save a phone (decision 034): for a phone
 * photo and a smaller picture, the bytes of the stored original and of each copy, and the time of the re-encode
 * with and without the copies (median of several runs, one at a time). `npx tsx scripts/measure-picture-copies.ts`
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { reEncodeImage } from "#server/domain/files/re-encode.ts";

const RUNS = 7;

/** A photo-like JPEG: smooth noise scaled up, as a camera would save it (as tests/integration/image-cost.test.ts). */
async function photo(width: number, height: number): Promise<Buffer> {
  const w = Math.ceil(width / 16);
  const h = Math.ceil(height / 16);
  return sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(input: Buffer, copies: boolean): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = await reEncodeImage(input, { copies });
    times.push(performance.now() - start);
    if (!result.ok) throw new Error("the picture did not re-encode");
  }
  return median(times);
}

for (const [name, width, height] of [
  ["12 MP phone photo", 4000, 3000],
  ["2400 x 1260 picture", 2400, 1260],
  ["800 x 450 picture (the demo's size)", 800, 450],
] as const) {
  const input = await photo(width, height);
  const result = await reEncodeImage(input, { copies: true });
  if (!result.ok) throw new Error("the picture did not re-encode");
  const kb = (b: Buffer) => `${(b.length / 1024).toFixed(1)} KB`;
  const copies = result.copies.map((c) => `${c.width} px ${kb(c.output)}`).join(", ") || "none";
  const without = await timed(input, false);
  const withCopies = await timed(input, true);
  console.log(
    `${name} (${kb(input)} JPEG): original ${kb(result.output)}; copies ${copies}; ` +
      `re-encode ${without.toFixed(0)} ms, with copies ${withCopies.toFixed(0)} ms (median of ${RUNS})`,
  );
}
