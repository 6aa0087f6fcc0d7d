import { ExternalLink, ZoomIn, ZoomOut } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/provider.ts";

/**
 * A payment screenshot for the reviewer: fitted to the screen, with a zoom toggle (JavaScript) that shows it
 * twice as wide in a scrollable frame, and a plain link to the full-size image that works without JavaScript.
 */
export function ProofImage({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation();
  const [hydrated, setHydrated] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <figure className="flex flex-col gap-2">
      <div
        className={`overflow-auto rounded-md border border-slate-300 bg-slate-100 ${zoomed ? "max-h-[75vh]" : ""}`}
        data-zoomed={zoomed ? "true" : "false"}
      >
        <img src={src} alt={alt} className={zoomed ? "w-[200%] max-w-none" : "mx-auto max-h-[55vh] w-auto max-w-full object-contain"} />
      </div>
      <figcaption className="flex flex-wrap items-center gap-2">
        {hydrated && (
          <button
            type="button"
            onClick={() => setZoomed((z) => !z)}
            className="inline-flex items-center gap-1 rounded-md border border-slate-400 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50"
          >
            {zoomed ? <ZoomOut aria-hidden="true" className="size-4" /> : <ZoomIn aria-hidden="true" className="size-4" />}
            {zoomed ? t("review:dialog.zoomOut") : t("review:dialog.zoomIn")}
          </button>
        )}
        <a
          href={src}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 font-medium text-brand-800 underline hover:bg-brand-50"
        >
          <ExternalLink aria-hidden="true" className="size-4" />
          {t("review:dialog.openFull")}
          <span className="sr-only"> {t("review:dialog.openFullNote")}</span>
        </a>
      </figcaption>
    </figure>
  );
}
