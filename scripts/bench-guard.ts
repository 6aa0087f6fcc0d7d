/**
 * What the per-request guards of decision 010 cost: the address guard (`badPart`) on typical addresses and the
 * copy that adds the default Cache-Control. Prints nanoseconds per request. `npx tsx scripts/bench-guard.ts`
 */
import { badPart } from "#server/http/app.ts";

const N = 300_000;
const urls = [
  "http://127.0.0.1:3000/campaign/roti-bank-karachi-3",
  "http://127.0.0.1:3000/donate1?campaign=roti-bank-karachi-3&q=%DA%A9%D8%B1%D8%A7%DA%86%DB%8C&page=2",
  "http://127.0.0.1:3000/apps.data?view=00000000-0000-4000-8000-000000000000&_routes=routes%2Freview%2Fapps",
];
const perRequest = (run: () => void) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) run();
  return Math.round(Number(process.hrtime.bigint() - start) / N);
};
for (const url of urls) console.log(`address guard: ${perRequest(() => badPart(url))} ns  ${url.slice(21)}`);
const page = new Response("x".repeat(20_000), { headers: { "content-type": "text/html" } });
console.log(
  `Cache-Control copy: ${perRequest(() => {
    const headers = new Headers(page.headers);
    headers.set("Cache-Control", "private, no-store");
    return new Response(null, { status: 200, headers });
  })} ns`,
);
