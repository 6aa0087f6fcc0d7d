/**
 * Server time of the pages a change touched, through the whole app (Hono, the guard, React Router, SSR) over the
 * production build on PGlite: mean milliseconds per request after a warm-up, for a signed-in donor and NGO with a
 * few waiting gifts, and for a signed-out visitor on the public pages. Run with NODE_ENV=production after
 * `npm run build`; the same file runs on an older checkout to compare (decisions 022 and 028 have the figures). A
 * page marked "br" is asked for with `Accept-Encoding: br`, so its figure includes the compression.
 *
 *   NODE_ENV=production npx tsx scripts/bench-pages.ts [requests]
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { ngoProfiles } from "#server/db/schema.ts";
import { createApp } from "#server/http/app.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices } from "#tests/helpers/services.ts";

const N = Number(process.argv[2] ?? 300);
const s = await createTestServices();
try {
  const build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  const app = createApp({ services: s, build, mode: "production" });
  const ngo = await makeUser(s.db, "ngo");
  await s.db
    .update(ngoProfiles)
    .set({
      jazzcashNumber: "03001112222",
      bankName: "Meezan Bank",
      bankAccountTitle: "Bench NGO",
      bankAccountNumber: "PK36SCBL0000001123456702",
    })
    .where(eq(ngoProfiles.userId, ngo.id));
  const donor = await makeUser(s.db, "donor");
  const donorlessNgo = await makeUser(s.db, "ngo");
  const campaign = await makeCampaign(s.db, ngo.id);
  // A landing page's worth of campaigns, some joint.
  for (let i = 0; i < 11; i++) await makeCampaign(s.db, i % 3 ? ngo.id : donorlessNgo.id, { partners: i % 3 ? [] : [ngo.id] });
  for (let i = 0; i < 8; i++) await makeDonation(s.db, campaign, donor.id, { transactionId: `BENCH${i}` });
  const cookie = async (id: string) => `${SESSION_COOKIE}=${(await createSession(s.db, id)).token}`;
  const as = { ngo: await cookie(ngo.id), donor: await cookie(donor.id), visitor: "", "visitor br": "" };
  const pages: [keyof typeof as, string][] = [
    ["visitor", "/"],
    ["visitor br", "/"],
    ["visitor", `/campaign/${campaign.slug}`],
    ["donor", "/donate1"],
    ["donor", `/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=bank`],
    ["donor", `/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`],
    ["ngo", "/apps"],
    ["ngo", "/ngo_home"],
    ["ngo", "/donHistory"],
  ];
  for (const [who, page] of pages) {
    const get = async () => {
      const headers: Record<string, string> = { cookie: as[who] };
      if (who === "visitor br") headers["accept-encoding"] = "br";
      const res = await app.request(`${s.config.APP_URL.replace(/\/$/, "")}${page}`, { headers });
      if (res.status !== 200) throw new Error(`${page}: ${res.status}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 30; i++) await get();
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await get();
    const ms = Number(process.hrtime.bigint() - start) / 1e6 / N;
    const label = `${page.split("?")[0]}${page.includes("method=") ? ` (${page.split("method=")[1]})` : ""}`;
    console.log(`${label}${who === "visitor br" ? " (br)" : ""}: ${ms.toFixed(2)} ms`);
  }
} finally {
  await s.close();
}
