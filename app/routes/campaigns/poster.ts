import type { Route } from "./+types/poster";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { findOrNull, requireUser, pdfDownload } from "#app/lib/http.server.ts";
import { posterFileName, posterFor, renderPosterPdf } from "#server/domain/campaigns/poster.ts";

/**
 * GET /campaigns/:id/poster → the donation poster (PDF) of an active campaign, with the printing NGO's accounts (its
 * owner's, or a partner's own). Anyone else gets 404, as for every campaign page. Rendered on each request.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const poster = await findOrNull(posterFor(context.services.db, context.services.config, ngo, params.id));
  if (!poster) {
    return new Response(serverI18n(context.lang).t("errors:notFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const pdf = await renderPosterPdf(poster, serverI18n(context.lang).t, context.lang);
  return pdfDownload(pdf, posterFileName(poster));
}
