/**
 * A donor's yearly statement at its bound (decision 052): STATEMENT_GIFTS_LISTED gifts over 5 NGOs and 4 funds, the
 * campaign titles in Urdu, rendered in English and in Urdu after one warm-up render (pdfkit, HarfBuzz and the font
 * loaded): bytes, pages, wall time, the process's CPU time (steadier than wall time on a shared machine), its memory
 * after each, and how long the render held the event loop: the longest gap between the ticks of a 5 ms timer (what a
 * request arriving meanwhile waits at most), and how many gaps passed 50 ms.
 *
 *   NODE_ENV=production npx tsx scripts/measure-statement.ts [gifts]
 */
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import { STATEMENT_GIFTS_LISTED, type GivingStatement, type StatementNgo } from "#server/domain/donations/giving-statements.ts";
import { renderGivingStatementPdf } from "#server/domain/donations/giving-statement-pdf.ts";
import { fiscalYearBounds } from "#server/domain/donations/giving-years.ts";

const gifts = Number(process.argv[2] ?? STATEMENT_GIFTS_LISTED);
const { from, to } = fiscalYearBounds(2025);
const ngos: StatementNgo[] = Array.from({ length: 5 }, (_, n) => ({
  ngoId: `ngo-${n}`,
  name: n % 2 === 0 ? `الخدمت فاؤنڈیشن ${n}` : `Roshni Welfare Trust ${n}`,
  registrationNumber: `SECP-2019-44${n}`,
  total: 0,
  count: 0,
  funds: FUND_KINDS.map((fund) => ({ fund, total: 0, count: 0, gifts: [] })),
}));
for (let i = 0; i < gifts; i++) {
  const ngo = ngos[i % ngos.length]!;
  const fund = ngo.funds[i % FUND_KINDS.length]!;
  const amount = 500 + ((i * 7919) % 250_000);
  fund.gifts.push({
    approvedAt: new Date(from.getTime() + ((to.getTime() - from.getTime()) * i) / gifts),
    amount,
    receipt: `N00${i % 5}-${String(i + 1).padStart(6, "0")}`,
    campaignTitle: i % 3 === 0 ? "سردیوں کے کمبل، کوئٹہ" : "Clean water for Tharparkar",
    inNameOf: i % 10 === 0 ? "والدہ مرحومہ" : null,
  });
  fund.total += amount;
  fund.count++;
  ngo.total += amount;
  ngo.count++;
}
const statement: GivingStatement = {
  kind: "fiscal",
  year: 2025,
  from,
  to,
  donor: { name: "عائشہ صدیقی", email: "ayesha@example.com" },
  ngos,
  funds: FUND_KINDS.map((fund) => ({ fund, total: 0, count: 0 })),
  total: ngos.reduce((a, n) => a + n.total, 0),
  count: gifts,
  listed: gifts,
};
const references = new Map([["ngo-0", "FBR/EXEMPT/2(36)/2024-118"]]);
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
await renderGivingStatementPdf({ ...statement, ngos: [] }, references, serverI18n("ur").t, "ur");
/** A 5 ms timer's gaps while `work` runs: the longest, and how many over 50 ms (the event loop held that long). */
async function loopGaps<T>(work: () => Promise<T>): Promise<{ result: T; longest: number; over50: number }> {
  let last = performance.now();
  let longest = 0;
  let over50 = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    last = now;
    longest = Math.max(longest, gap);
    if (gap > 50) over50++;
  }, 5);
  const result = await work();
  clearInterval(timer);
  // The stretch since the last tick counts too: a render that never lets the timer run is one long gap.
  const gap = performance.now() - last;
  longest = Math.max(longest, gap);
  if (gap > 50) over50++;
  return { result, longest, over50 };
}
for (const lang of ["en", "ur"] as Lang[]) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const { result: pdf, longest, over50 } = await loopGaps(() => renderGivingStatementPdf(statement, references, serverI18n(lang).t, lang));
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const pages = (pdf.toString("latin1").match(/\/Type \/Page\b/g) ?? []).length;
  const m = process.memoryUsage();
  console.log(
    `${lang}: ${gifts} gifts, ${pdf.length} B, ${pages} pages, ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU; rss ${mb(m.rss)} MB, heap used ${mb(m.heapUsed)} MB; event loop held ${longest.toFixed(0)} ms at most, ${over50} times over 50 ms`,
  );
}
