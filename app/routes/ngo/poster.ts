import type { Route } from "./+types/poster";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { requireUser, throwHttp, pdfDownload } from "#app/lib/http.server.ts";
import { collectionPosterFor, posterFileName, renderPosterPdf } from "#server/domain/campaigns/poster.ts";

/** GET /poster → the NGO's donation poster for a collection point (PDF): its accounts and the Raast QR. */
export async function loader({ context }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const poster = await collectionPosterFor(context.services.db, context.services.config, ngo).catch(throwHttp);
  const pdf = await renderPosterPdf(poster, serverI18n(context.lang).t, context.lang);
  return pdfDownload(pdf, posterFileName(poster));
}
