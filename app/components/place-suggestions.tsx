import { UserText } from "#app/components/user-text.tsx";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from "react";
import { MapPin } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor, type Place } from "#shared/places.ts";
import type { PointMapProps } from "./point-map.client.tsx";
import type { PlaceSuggestionsProps, Point } from "./place-field.tsx";

/** Wait this long after the last keystroke before asking the server, so fast typing sends one request. */
const DEBOUNCE_MS = 150;

/**
 * The place field's suggestions (place-field.tsx), fetched when the person first reaches into the field: the search
 * over /api/places, the listbox and its keys, the announcements, and the point map behind "Adjust". The field's
 * input stays the field's own; what the keys do to it comes through `handlers`, and what a reader is told of the
 * list (`aria-expanded`, `aria-activedescendant`) goes back through `onCombo`.
 */
export function PlaceSuggestions({ inputId, listId, statusId, input, handlers, onCombo, onChoose }: PlaceSuggestionsProps) {
  const { t, i18n } = useTranslation("places");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const request = useRef<AbortController | null>(null);
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Place[]>([]);
  const [active, setActive] = useState(-1);
  const [searched, setSearched] = useState(false);
  const [announcement, setAnnouncement] = useState("");

  const close = useCallback(() => {
    setOpen(false);
    setActive(-1);
  }, []);

  const search = useCallback(
    (text: string) => {
      clearTimeout(timer.current);
      request.current?.abort();
      const q = text.trim();
      if (!q) {
        setOptions([]);
        setSearched(false);
        close();
        return;
      }
      timer.current = setTimeout(async () => {
        const controller = new AbortController();
        request.current = controller;
        try {
          const res = await fetch(`/api/places?q=${encodeURIComponent(q.slice(0, 100))}`, { signal: controller.signal });
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          const body = (await res.json()) as { places?: Place[] };
          if (controller.signal.aborted) return;
          const places = Array.isArray(body.places) ? body.places : [];
          setOptions(places);
          setSearched(true);
          setActive(-1);
          setOpen(true);
          setAnnouncement(
            places.length === 0
              ? t("places:field.noMatch")
              : t(places.length === 1 ? "places:field.found_one" : "places:field.found_other", { count: places.length }),
          );
        } catch {
          // Aborted by newer typing, or offline: the field still works as plain text, resolved on submit.
        }
      }, DEBOUNCE_MS);
    },
    [close, t],
  );

  // Text typed while this part was on its way (the field no longer holds what it was drawn with) is searched for as
  // soon as it is here.
  useEffect(() => {
    const field = input.current;
    if (field && field.value !== field.defaultValue) search(field.value);
    return () => {
      clearTimeout(timer.current);
      request.current?.abort();
    };
    // Once, when this part arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const shown = (place: Place) => placeLabelFor(place, i18n.language);

  const choose = (place: Place) => {
    if (input.current) input.current.value = shown(place);
    onChoose({ lat: place.lat, lng: place.lng });
    setOptions([]);
    setSearched(false);
    close();
    setAnnouncement(t("places:field.chosen", { label: shown(place) }));
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        if (!open) {
          if (count > 0 || searched) setOpen(true);
          else search(e.currentTarget.value);
          if (count > 0) setActive(0);
          return;
        }
        if (count > 0) setActive((a) => (a + 1) % count);
        return;
      case "ArrowUp":
        e.preventDefault();
        if (!open) {
          if (count > 0) {
            setOpen(true);
            setActive(count - 1);
          }
          return;
        }
        if (count > 0) setActive((a) => (a <= 0 ? count - 1 : a - 1));
        return;
      case "Enter":
        // Enter on a highlighted suggestion chooses it; otherwise it submits the form as usual.
        if (open && active >= 0 && options[active]) {
          e.preventDefault();
          choose(options[active]);
        } else if (open) {
          close();
        }
        return;
      case "Escape":
        if (open) {
          e.preventDefault();
          close();
        }
        return;
      case "Tab":
        close();
        return;
    }
  };
  useLayoutEffect(() => {
    handlers.current = { onInput: search, onKeyDown, onBlur: close };
  });

  const expanded = open && (options.length > 0 || searched);
  const activeId = expanded && active >= 0 ? `${inputId}-option-${active}` : undefined;
  // In the same task as the key that changed them (a layout effect), so the input never tells a reader the old option.
  useLayoutEffect(() => onCombo({ expanded, activeId }), [onCombo, expanded, activeId]);

  // On a small phone the list can open below the fold, and the highlighted option can scroll out of the list.
  useEffect(() => {
    if (!expanded) return;
    const target = activeId ? document.getElementById(activeId) : document.getElementById(listId);
    target?.scrollIntoView?.({ block: "nearest" });
  }, [expanded, activeId, listId, options]);

  return (
    <>
      <ul
        id={listId}
        role="listbox"
        aria-label={t("places:field.suggestions")}
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-[1100] mt-1 max-h-80 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
      >
        {options.map((place, i) => {
          const label = shown(place);
          const name = label === place.labelUr && place.nameUr ? place.nameUr : place.name;
          const rest = label.startsWith(name) ? label.slice(name.length) : null;
          return (
            <li
              key={place.id}
              id={`${inputId}-option-${i}`}
              role="option"
              aria-selected={i === active}
              // Keeps the focus in the input, so choosing does not close the list before the click lands.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(place)}
              onMouseMove={() => i !== active && setActive(i)}
              className={`flex min-h-12 cursor-pointer items-center gap-2 px-3 py-2 text-start ${
                i === active ? "bg-brand-100 text-brand-900" : "text-slate-800"
              }`}
            >
              <MapPin aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
              <UserText className="flex-1">
                {rest === null ? (
                  label
                ) : (
                  <>
                    <span className="font-semibold">{name}</span>
                    {rest}
                  </>
                )}
              </UserText>
            </li>
          );
        })}
        {searched && options.length === 0 && (
          <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-3 text-slate-700">
            {t("places:field.noMatch")}
          </li>
        )}
      </ul>
      <p id={statusId} role="status" className="sr-only">
        {announcement}
      </p>
    </>
  );
}

/** Loads Leaflet and its styles only when a map is opened, so no page pays for them up front. */
export function LazyPointMap(props: { id: string; point: Point; onMove: (p: Point) => void; tileUrl?: string; tileAttribution?: string }) {
  const { t } = useTranslation();
  const [PointMap, setPointMap] = useState<ComponentType<PointMapProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("./point-map.client.tsx").then((m) => live && setPointMap(() => m.default)).catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);
  const helpId = `${props.id}-help`;
  return (
    <div id={props.id} role="group" aria-label={t("places:map.label")} aria-describedby={helpId} className="flex flex-col gap-1">
      <p id={helpId} className="text-sm text-slate-700">
        {t("places:map.help")}
      </p>
      {failed ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
          {t("places:map.error")}
        </p>
      ) : PointMap ? (
        <PointMap
          lat={props.point.lat}
          lng={props.point.lng}
          onMove={(lat, lng) => props.onMove({ lat, lng })}
          tileUrl={props.tileUrl}
          tileAttribution={props.tileAttribution}
          markerLabel={t("places:map.marker")}
          controls={{ zoomIn: t("places:map.zoomIn"), zoomOut: t("places:map.zoomOut"), leaflet: t("places:map.leaflet") }}
          onError={() => setFailed(true)}
        />
      ) : (
        <p role="status" className="flex h-60 items-center justify-center rounded-md bg-slate-100 text-slate-700">
          {t("places:map.loading")}
        </p>
      )}
    </div>
  );
}
