/**
 * Measures the offline gazetteer (decision 038): the first search in a fresh process (reading the file and
 * building the index) and the time of each search over the names of issue 16 and their prefixes, typed one
 * letter at a time. `npx tsx scripts/measure-places.ts [path to gazetteer.ts]`: another checkout's module can
 * be measured the same way, for a before and after.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";

const modulePath = path.resolve(process.argv[2] ?? "server/domain/places/gazetteer.ts");
const start = performance.now();
const gazetteer = (await import(pathToFileURL(modulePath).href)) as { searchPlaces: (q: string, limit?: number) => unknown[] };
const imported = performance.now();
gazetteer.searchPlaces("lahore");
const firstSearch = performance.now();

const names = ["کراچی", "لاہور", "اسلام آباد", "راولپنڈی", "Pindi", "Isb", "Khi", "Karachi", "Lahore", "Gulberg, Lahore", "DHA", "Clifton"];
names.push(
  "Gulshan-e-Iqbal",
  "Saddar",
  "Johar Town",
  "Bahria Town",
  "G-9",
  "F-7",
  "Korangi",
  "Hayatabad",
  "Street 4, Mohalla Sadiq, Multan",
);
// Every prefix, as the field asks on each keystroke.
const queries = names.flatMap((n) => Array.from({ length: n.length }, (_, i) => n.slice(0, i + 1)));
const times: number[] = [];
for (let round = 0; round < 20; round += 1) {
  for (const q of queries) {
    const t = performance.now();
    gazetteer.searchPlaces(q, 8);
    times.push(performance.now() - t);
  }
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
const file = path.join(path.dirname(modulePath), "pakistan-places.json");
const bytes = fs.readFileSync(file);
const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(`gazetteer file: ${(bytes.length / 1024).toFixed(1)} KB, gzip ${(zlib.gzipSync(bytes).length / 1024).toFixed(1)} KB`);
console.log(`import ${ms(imported - start)}; first search (read, parse, index) ${ms(firstSearch - imported)}`);
console.log(`${times.length} searches: median ${ms(at(0.5))}, p95 ${ms(at(0.95))}, max ${ms(times[times.length - 1]!)}`);
console.log(`heap used ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(1)} MB`);
