/**
 * Makes public/static/default-campaign.png from the default campaign picture (SVG) for link previews:
 * WhatsApp and most social sites do not render SVG. 1200×630 is the size their large cards expect.
 * Run again after changing the SVG: `npx tsx scripts/default-campaign-png.ts`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const svg = path.join(root, "public/static/default-campaign.svg");
const png = path.join(root, "public/static/default-campaign.png");
// The SVG's own background colour fills the sides the picture does not cover.
const background = "#ccfbf1";

await sharp(svg, { density: 600 })
  .resize(1200, 630, { fit: "contain", background })
  .flatten({ background })
  .png({ compressionLevel: 9, palette: true })
  .toFile(png);
console.log(`wrote ${path.relative(root, png)}`);
