/**
 * The size and render time of a receipt in English and Urdu (decision 039): one cold render (HarfBuzz and the font
 * load), then 15 renders of each, median.
 *
 *   NODE_ENV=production npx tsx scripts/measure-pdf.ts
 */
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { renderReceiptPdf, type Receipt } from "#server/domain/donations/receipts.ts";

const receipt = (name: string, campaignTitle: string): Receipt => ({
  donationId: "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f",
  receiptNumber: 42,
  receiptSeries: 7,
  amount: 50_000,
  method: "jazzcash",
  transactionId: "JC778899",
  approvedAt: new Date("2026-11-23T10:05:00Z"),
  campaignTitle,
  fund: "zakat",
  inNameOf: "Late Mrs Khadija Bibi",
  ngo: { name: "Al-Khidmat Karachi", registrationNumber: "SECP-2019-4471", address: "Plot 12, Block 7, Gulshan-e-Iqbal, Karachi" },
  donor: { name, email: "ayesha@example.com" },
});

const cases: [string, Lang, Receipt][] = [
  ["English, Latin name", "en", receipt("Ayesha Siddiqui", "Winter blankets for Quetta")],
  ["English, Urdu name", "en", receipt("عائشہ صدیقی", "Winter blankets for Quetta")],
  ["Urdu, Urdu name", "ur", receipt("عائشہ صدیقی", "سردیوں کے کمبل، کوئٹہ")],
];
const cold = performance.now();
await renderReceiptPdf(cases[2]![2], serverI18n("ur").t, "ur");
console.log(`first Urdu receipt in the process: ${(performance.now() - cold).toFixed(0)} ms`);
for (const [label, lang, r] of cases) {
  const t = serverI18n(lang).t;
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    size = (await renderReceiptPdf(r, t, lang)).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: ${size} B, median ${times[7]!.toFixed(1)} ms`);
}
