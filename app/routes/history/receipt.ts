import type { Route } from "./+types/receipt";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { findOrNull, requireAnyUser, pdfDownload } from "#app/lib/http.server.ts";
import { receiptFileName, receiptFor, renderReceiptPdf } from "#server/domain/donations/receipts.ts";

/**
 * GET /receipts/:id → the PDF receipt of an approved cash donation, for the donor who gave it, the NGO it was
 * paid to and the admin. Anyone else, and any donation without a receipt, gets the same 404: a receipt's
 * existence never leaks. Rendered on each request, never stored.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireAnyUser(context);
  const receipt = await findOrNull(receiptFor(context.services.db, user, params.id));
  if (!receipt) {
    return new Response(serverI18n(context.lang).t("errors:notFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const pdf = await renderReceiptPdf(receipt, serverI18n(context.lang).t, context.lang);
  return pdfDownload(pdf, receiptFileName(receipt));
}
