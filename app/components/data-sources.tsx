import { Fragment, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/provider.ts";

const linkClass = "text-brand-800 underline";

/** Puts elements where a translated sentence has `{{name}}`, so each language keeps its own word order. */
function withLinks(text: string, parts: Record<string, ReactNode>): ReactNode[] {
  return text.split(/\{\{\s*(\w+)\s*\}\}/g).map((piece, i) => <Fragment key={i}>{i % 2 === 1 ? (parts[piece] ?? piece) : piece}</Fragment>);
}

/** The attributions the data licences ask for: GeoNames (CC BY 4.0) for places, OpenStreetMap for maps. */
export function DataSources() {
  const { t } = useTranslation();
  return (
    <section id="sources" aria-labelledby="about-sources">
      <h2 id="about-sources" className="text-xl font-bold text-brand-800">
        {t("places:sources.heading")}
      </h2>
      <p className="mt-2 text-slate-800">
        {withLinks(t("places:sources.places"), {
          geonames: (
            <a href="https://www.geonames.org/" className={linkClass}>
              GeoNames
            </a>
          ),
          licence: (
            <a href="https://creativecommons.org/licenses/by/4.0/" className={linkClass}>
              CC BY 4.0
            </a>
          ),
        })}
      </p>
      <p className="mt-2 text-slate-800">
        {withLinks(t("places:sources.map"), {
          osm: (
            <a href="https://www.openstreetmap.org/copyright" className={linkClass}>
              {t("places:sources.osm")}
            </a>
          ),
        })}
      </p>
    </section>
  );
}
