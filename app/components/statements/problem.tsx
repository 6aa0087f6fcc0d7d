import { useTranslation } from "#app/i18n/provider.ts";

/**
 * A statement's refusal above the form, with what it names filled in (the row, the column, the value): "Row 14,
 * column “Date”: “31/02/2026” is not a date." Focusable, so a keyboard or screen-reader user lands on it.
 */
export function StatementProblem({ errors, params }: { errors?: string[] | null; params?: Record<string, string> }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <div role="alert" tabIndex={-1} className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900" data-testid="statement-problem">
      {errors.map((e) => (
        <p key={e}>{t(e, params ?? {})}</p>
      ))}
    </div>
  );
}
