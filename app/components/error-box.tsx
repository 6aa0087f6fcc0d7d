import { useTranslation } from "#app/i18n/provider.ts";

/**
 * Form-level errors in the specification's red 'Error: ' box. Its own module, apart from the form fields, so a page
 * that only reports errors (the review queue) does not load the field components.
 */
export function ErrorBox({ errors, id }: { errors?: string[] | null; id?: string }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
      {errors.map((e) => (
        <p key={e}>
          <strong>{t("common:errorPrefix")}</strong>
          {t(e)}
        </p>
      ))}
    </div>
  );
}
