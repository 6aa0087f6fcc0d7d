import { eq } from "drizzle-orm";
import { isolate, pdfDocument } from "#server/domain/pdf.ts";
import type { Lang, TFunction } from "#shared/i18n/i18n.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { ngoProfiles } from "#server/db/schema.ts";
import type { Config } from "#server/config.ts";
import { platformSettingsOf } from "#server/domain/admin/platform.ts";
import { accountsOf, type PaymentAccount } from "#server/domain/donations/cash.ts";
import { notFound } from "#server/domain/errors.ts";
import { appLink } from "#server/domain/notifications/notifications.ts";
import { qrMatrix, type QrMatrix } from "#server/domain/payments/qr-image.ts";
import { isPakistaniIban, normalizeIban, raastPayload } from "#server/domain/payments/raast-qr.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { campaignForNgo } from "./access.ts";

/** What a donation poster shows: the campaign (or the NGO's collection point), its accounts, the Raast QR, a page to open. */
export interface Poster {
  /** A campaign's poster, or the NGO's own for a collection point (its name as the title, the site's home as the page). */
  kind: "campaign" | "collection";
  title: string;
  slug: string;
  ngo: { name: string; registrationNumber: string; contactNumber: string };
  accounts: PaymentAccount[];
  /** The Raast payload for the NGO's IBAN, unless it has none or the administrator turned the QR off. */
  raast: string | null;
  publicUrl: string;
}

/** The printing NGO's part of any poster: its name, its own accounts and the Raast QR of its IBAN. */
async function ngoPart(db: DbOrTx, actor: Actor): Promise<Pick<Poster, "ngo" | "accounts" | "raast">> {
  const [profile] = await db
    .select()
    .from(ngoProfiles)
    .where(eq(ngoProfiles.userId, idAs(actor, "ngo")))
    .limit(1);
  if (!profile) throw notFound();
  const accounts = accountsOf(profile);
  const iban = normalizeIban(accounts.find((a) => a.method === "bank")?.number ?? "");
  const raast = iban && isPakistaniIban(iban) && (await platformSettingsOf(db)).raastQr ? raastPayload({ iban }) : null;
  return {
    ngo: { name: profile.name, registrationNumber: profile.registrationNumber, contactNumber: profile.contactNumber },
    accounts,
    raast,
  };
}

/**
 * The poster of an active campaign for the NGO that prints it: its owner, or an accepted partner, each with its own
 * accounts (a partner collects into its own). Anyone else finds nothing; an ended campaign takes no more gifts.
 */
export async function posterFor(db: DbOrTx, config: Config, actor: Actor, campaignId: string): Promise<Poster> {
  const { campaign } = await campaignForNgo(db, campaignId, actor);
  if (campaign.status !== "active") throw notFound();
  return {
    kind: "campaign",
    title: campaign.title,
    slug: campaign.slug,
    ...(await ngoPart(db, actor)),
    publicUrl: appLink(config, `/campaign/${encodeURIComponent(campaign.slug)}`),
  };
}

/** The NGO's poster for a collection point (a counter, a mosque, an office): its accounts for any of its work. */
export async function collectionPosterFor(db: DbOrTx, config: Config, actor: Actor): Promise<Poster> {
  const part = await ngoPart(db, actor);
  return { kind: "collection", title: part.ngo.name, slug: "collection-point", ...part, publicUrl: appLink(config, "/") };
}

/** The download's file name: ek-chhat-poster-<slug>.pdf (the slug is already safe in a file name). */
export function posterFileName(poster: Pick<Poster, "slug">): string {
  return `ek-chhat-poster-${poster.slug.replace(/[^a-z0-9-]/gi, "").slice(0, 80) || "campaign"}.pdf`;
}

/** Draws a QR's modules as squares, with the 4-module quiet zone it needs, at (x, y) and `size` points wide. */
function drawQr(doc: PDFKit.PDFDocument, matrix: QrMatrix, x: number, y: number, size: number): void {
  const cell = size / (matrix.size + 8);
  doc.rect(x, y, size, size).fill("#ffffff");
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (matrix.dark(row, col)) doc.rect(x + (col + 4) * cell, y + (row + 4) * cell, cell, cell);
    }
  }
  doc.fill("#000000");
}

/**
 * An A4 poster to print and put up at a collection point: title, how to give (each account), the Raast QR for the
 * IBAN, and a QR of the public page with its address written out. In the printing NGO's language (decision 039);
 * the QR codes are drawn as vectors, sharp at any print size.
 */
export async function renderPosterPdf(poster: Poster, t: TFunction, lang: Lang): Promise<Buffer> {
  const pdf = await pdfDocument(
    { size: "A4", margin: 48, info: { Title: poster.title, Author: poster.ngo.name, Creator: "Ek Chhat" } },
    lang,
  );
  const { doc } = pdf;
  const brand = "#115e59";
  const width = doc.page.width - 96;

  pdf.text(t("campaigns:poster.brand"), { size: 14, bold: true, color: brand, align: "center" });
  doc.moveDown(0.6);
  pdf.text(poster.title, { size: 30, bold: true, align: "center" });
  doc.moveDown(0.4);
  pdf.text(
    t(`campaigns:poster.${poster.kind === "campaign" ? "by" : "collection"}`, {
      ngo: isolate(poster.ngo.name),
      registration: isolate(poster.ngo.registrationNumber),
    }),
    { size: 13, align: "center" },
  );
  doc.moveDown(1.2);

  pdf.text(t("campaigns:poster.howToGive"), { size: 16, bold: true, color: brand });
  doc.moveDown(0.3);
  for (const a of poster.accounts) {
    pdf.text(
      [
        { text: `${t(`donations:methods.${a.method}`)}: `, bold: true },
        { text: a.number, bold: true, mono: true, isolate: true },
      ],
      { size: 13 },
    );
    if (a.method === "bank") pdf.text(`${isolate(a.bankName ?? "")} · ${isolate(a.title ?? "")}`, { size: 11 });
    doc.moveDown(0.3);
  }
  doc.moveDown(0.3);
  pdf.text(t("campaigns:poster.proof"), { size: 11 });
  doc.moveDown(1);

  const qrSize = 170;
  const top = doc.y;
  const codes: { label: string; matrix: QrMatrix }[] = [
    {
      label: t(poster.kind === "campaign" ? "campaigns:poster.scanPage" : "campaigns:poster.scanSite"),
      matrix: qrMatrix(poster.publicUrl),
    },
  ];
  if (poster.raast) codes.unshift({ label: t("campaigns:poster.scanRaast"), matrix: qrMatrix(poster.raast) });
  // Right to left in Urdu: the first code (Raast, when there is one) on the right, where the reader starts.
  if (lang === "ur") codes.reverse();
  const gap = (width - codes.length * qrSize) / (codes.length + 1);
  codes.forEach((c, i) => {
    const x = 48 + gap + i * (qrSize + gap);
    drawQr(doc, c.matrix, x, top, qrSize);
    doc.y = top + qrSize + 6;
    pdf.text(c.label, { size: 11, bold: true, align: "center", x: x - 20, width: qrSize + 40 });
  });
  doc.y = top + qrSize + 48;
  pdf.text(poster.publicUrl, { size: 11, mono: true, align: "center" });
  doc.moveDown(1);
  pdf.text(t("campaigns:poster.contact", { contact: isolate(poster.ngo.contactNumber) }), {
    size: 10,
    color: "#475569",
    align: "center",
  });
  doc.end();
  return pdf.finished;
}
