import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";

/** Until the NGO adds a payment account, donors cannot give its campaigns cash: it is told where it starts a campaign and lists them. */
export function NoAccountWarning() {
  const { t } = useTranslation();
  return (
    <p
      role="alert"
      className="mb-4 flex items-start gap-2 rounded-md border-2 border-amber-500 bg-amber-50 p-3 text-amber-950"
      data-testid="no-account"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>
        {t("campaigns:noAccount.text")}{" "}
        <Link to="/settingsNGO" className="font-bold underline">
          {t("campaigns:noAccount.link")}
        </Link>
      </span>
    </p>
  );
}
