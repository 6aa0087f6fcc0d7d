/**
 * What compression costs the server (decision 029): CPU time per request of `/donate1` for a signed-in donor
 * through the whole app over the production build on PGlite, without compression, with gzip and with brotli; then
 * the page's size and the CPU of compressing it once at each setting. CPU is `process.cpuUsage()` (every thread,
 * so the zlib work on libuv's pool counts), which a busy shared machine disturbs less than wall time.
 *
 *   NODE_ENV=production npx tsx scripts/bench-compression.ts [requests]
 */
import path from "node:path";
import zlib from "node:zlib";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/http/app.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices } from "#tests/helpers/services.ts";

const N = Number(process.argv[2] ?? 200);
const cpuMs = (f: () => void, n: number) => {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / n;
};

const s = await createTestServices();
try {
  const build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  const app = createApp({ services: s, build, mode: "production" });
  const ngo = await makeUser(s.db, "ngo");
  for (let i = 0; i < 6; i++) await makeCampaign(s.db, ngo.id);
  const donor = await makeUser(s.db, "donor");
  const cookie = `${SESSION_COOKIE}=${(await createSession(s.db, donor.id)).token}`;
  const base = s.config.APP_URL.replace(/\/$/, "");

  for (const lang of ["en", "ur"]) {
    const headers = (ae: string) => ({ cookie: `${cookie}; ekc_lang=${lang}`, "accept-encoding": ae });
    const get = async (ae: string) => {
      const res = await app.request(`${base}/donate1`, { headers: headers(ae) });
      if (res.status !== 200) throw new Error(`/donate1: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    };
    for (const [label, ae] of [
      ["none", "identity"],
      ["gzip", "gzip"],
      ["br", "br"],
    ] as const) {
      for (let i = 0; i < 20; i++) await get(ae);
      const start = process.cpuUsage();
      const wall = process.hrtime.bigint();
      let bytes = 0;
      for (let i = 0; i < N; i++) bytes = (await get(ae)).length;
      const used = process.cpuUsage(start);
      const ms = (used.user + used.system) / 1000 / N;
      const wallMs = Number(process.hrtime.bigint() - wall) / 1e6 / N;
      console.log(`/donate1 (${lang}) ${label}: ${bytes} bytes, ${ms.toFixed(2)} ms CPU, ${wallMs.toFixed(2)} ms wall per request`);
    }
    const page = await get("identity");
    const q = (quality: number) => () =>
      zlib.brotliCompressSync(page, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
      });
    for (const [label, f] of [
      ["gzip 6", () => zlib.gzipSync(page, { level: 6 })],
      ["brotli 4", q(4)],
      ["brotli 5", q(5)],
      ["brotli 6", q(6)],
    ] as const) {
      f();
      console.log(`  ${label}: ${page.length} → ${f().length} bytes, ${cpuMs(f, 100).toFixed(2)} ms CPU`);
    }
  }
} finally {
  await s.close();
}
