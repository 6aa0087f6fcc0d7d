import type { Route } from "./+types/ngo-export";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { ngoHistoryCsv, parseNgoHistoryFilter } from "#server/domain/donations/history.ts";

/** The download's name: donations-YYYY-MM-DD.csv, the day in Pakistan. */
function fileName(now: Date): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Karachi", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  return `donations-${day}.csv`;
}

/**
 * GET /donHistory/export?campaign=&status=&sort= → the NGO's donation history under the same filter and sort
 * as the screen, as CSV streamed from the database in batches, headings in the user's language.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const filter = parseNgoHistoryFilter(new URL(request.url).searchParams);
  const { t } = serverI18n(context.lang);
  return new Response(ngoHistoryCsv(context.services.db, user, filter, t), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName(new Date())}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
