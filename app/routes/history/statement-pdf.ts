import type { Route } from "./+types/statement-pdf";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { isLang } from "#shared/i18n/i18n.ts";
import { requireUser, pdfDownload } from "#app/lib/http.server.ts";
import { givingStatement, STATEMENT_KINDS, type StatementKind } from "#server/domain/donations/giving-statements.ts";
import { renderGivingStatementPdf, statementFileName } from "#server/domain/donations/giving-statement-pdf.ts";
import { taxExemptionReferences } from "#server/domain/admin/checks.ts";
import { pakistanToday } from "#server/domain/dates.ts";

/**
 * GET /dvh/statements/fiscal/2025 (the fiscal year 2025–26) or /dvh/statements/zakat/1446 (the Zakat summary of 1446
 * AH) → the signed-in donor's own statement as a PDF, in the page's language or the one `?lang=` names (decision 052).
 * The address names no donor: each donor gets only their own gifts (policy `statement`). A year without gifts, an
 * unknown kind or a year out of range is a plain 404. Rendered on each request, never stored.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const asked = new URL(request.url).searchParams.get("lang");
  const lang = isLang(asked) ? asked : context.lang;
  const { t } = serverI18n(lang);
  const kind = (STATEMENT_KINDS as readonly string[]).includes(params.kind) ? (params.kind as StatementKind) : null;
  const year = /^\d{4}$/.test(params.year) ? Number(params.year) : NaN;
  const { db } = context.services;
  const statement = kind ? await givingStatement(db, user, kind, year) : null;
  if (!kind || !statement) {
    return new Response(t("givingStatements:notFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  // Each NGO's tax-exemption reference that the administrator's checks held during the statement's period (decision 051).
  const period = { from: pakistanToday(statement.from), to: pakistanToday(new Date(statement.to.getTime() - 1)) };
  const references = await taxExemptionReferences(
    db,
    statement.ngos.map((n) => n.ngoId),
    period,
  );
  const pdf = await renderGivingStatementPdf(statement, references, t, lang);
  return pdfDownload(pdf, statementFileName(kind, statement.year, lang));
}
