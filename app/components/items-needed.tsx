import { UserText } from "#app/components/user-text.tsx";
import { Package } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";

/**
 * A campaign's "items needed", so a donor of goods knows what helps. Campaigns that list none take any
 * useful goods: the box says so rather than staying empty.
 */
export function ItemsNeeded({ items, compact = false }: { items: string | null; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`rounded-md border border-amber-300 bg-amber-50 ${compact ? "p-2 text-sm" : "p-3"}`}>
      <p className="flex items-center gap-1 font-bold text-amber-950">
        <Package aria-hidden="true" className="size-4 shrink-0" />
        {t("goods:itemsNeeded")}
      </p>
      <UserText as="p" className={`break-words text-start whitespace-pre-line text-slate-900 ${compact ? "line-clamp-3" : ""}`}>
        {items ?? t("goods:anyItems")}
      </UserText>
    </div>
  );
}
