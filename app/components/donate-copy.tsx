import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/provider.ts";

/**
 * Copies a wallet or account number to the clipboard. It needs JavaScript, so it appears only once the page
 * has it; without, the number stays plain text to select.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        aria-label={t("payment:proof.copyLabel", { what })}
        className="inline-flex items-center gap-1 rounded-md border border-brand-700 bg-white px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
      >
        {state === "copied" ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
        {t("payment:proof.copy")}
      </button>
      <span role="status" className="text-sm text-slate-700">
        {state === "copied" ? t("payment:proof.copied") : state === "failed" ? t("payment:proof.copyFailed") : ""}
      </span>
    </span>
  );
}
