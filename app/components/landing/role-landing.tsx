import { useTranslation } from "#app/i18n/provider.ts";
import { Link, useSearchParams } from "react-router";
import { PublicShell } from "#app/components/public-shell.tsx";
import { ROLE_SIGN_IN, safeRedirectTarget, withReturnTo } from "#shared/roles.ts";
import { brandButton } from "#app/components/ui/button.ts";

const SIGN_UP = { ngo: "/ngo_signup", donor: "/donor_signup", rider: "/rider_signup" } as const;

/** /ngo, /donor and /rider: Log In and Sign Up for that role. */
export function RoleLanding({ role }: { role: keyof typeof SIGN_UP }) {
  const { t } = useTranslation();
  // Where the visitor was going (a page any signed-in account may open, chosen from the home page's roles).
  const [params] = useSearchParams();
  const back = safeRedirectTarget(params.get("redirectTo"), "");
  return (
    <PublicShell>
      <title>{`${t(`common:roles.${role}`)} · ${t("common:brand")}`}</title>
      <section className="mx-auto max-w-md rounded-lg bg-white p-6 text-center shadow-sm">
        <h1 className="text-2xl font-bold text-brand-900">{t(`landing:role.${role}.title`)}</h1>
        <p className="mt-2 text-slate-700">{t(`landing:role.${role}.lead`)}</p>
        <div className="mt-6 flex flex-col gap-3">
          <Link to={withReturnTo(ROLE_SIGN_IN[role], back)} className={brandButton("tall")}>
            {t("common:logIn")}
          </Link>
          <Link
            to={role === "donor" ? withReturnTo(SIGN_UP[role], back) : SIGN_UP[role]}
            className="rounded-lg border-2 border-brand-700 px-4 py-3 font-bold text-brand-800 hover:bg-brand-50"
          >
            {t("common:signUp")}
          </Link>
        </div>
      </section>
    </PublicShell>
  );
}
