import { useTranslation } from "#app/i18n/provider.ts";
import { Link } from "react-router";
import { PublicShell } from "#app/components/public-shell.tsx";
import { DataSources } from "#app/components/data-sources.tsx";

const AUDIENCES = ["ngo", "donor", "rider"] as const;

/** /about: what Ek Chhat is, who it serves, how NGOs and riders are vetted, and the data attributions. */
export default function About() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <title>{`${t("home:about.title")} · ${t("common:brand")}`}</title>
      <meta name="description" content={t("home:about.what.body")} />
      <article className="mx-auto flex max-w-3xl flex-col gap-6 rounded-lg bg-white p-6 shadow-sm">
        <h1 className="text-3xl font-bold text-brand-900">{t("home:about.title")}</h1>
        <section aria-labelledby="about-what">
          <h2 id="about-what" className="text-xl font-bold text-brand-800">
            {t("home:about.what.heading")}
          </h2>
          <p className="mt-2 text-slate-800">{t("home:about.what.body")}</p>
        </section>
        <section aria-labelledby="about-who">
          <h2 id="about-who" className="text-xl font-bold text-brand-800">
            {t("home:about.who.heading")}
          </h2>
          <ul className="mt-2 flex flex-col gap-2">
            {AUDIENCES.map((role) => (
              <li key={role} className="text-slate-800">
                <strong>{t(`common:roles.${role}`)}: </strong>
                {t(`home:about.who.${role}`)}{" "}
                <Link to={`/${role}`} className="text-brand-800 underline">
                  {t(`home:about.who.start.${role}`)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="about-vetting">
          <h2 id="about-vetting" className="text-xl font-bold text-brand-800">
            {t("home:about.vetting.heading")}
          </h2>
          <p className="mt-2 text-slate-800">{t("home:about.vetting.ngo")}</p>
          <p className="mt-2 text-slate-800">{t("home:about.vetting.rider")}</p>
          <p className="mt-2 text-slate-800">{t("home:about.vetting.ongoing")}</p>
        </section>
        <DataSources />
      </article>
    </PublicShell>
  );
}
