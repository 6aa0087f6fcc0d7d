import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "#app/i18n/provider.ts";

export interface Point {
  lat: number;
  lng: number;
}

export interface PlaceFieldProps {
  /** Name of the text input; the point goes in `${name}Lat` and `${name}Lng`. */
  name: string;
  label: string;
  id?: string;
  defaultValue?: string;
  /** The point of `defaultValue` (an edited record's), kept until the text changes. */
  defaultPoint?: Point | null;
  /** A translation key ("campaigns:errors.locationInvalid") or already translated text. */
  error?: string;
  errorId?: string;
  /** Further ids that describe the input. */
  describedBy?: string;
  required?: boolean;
  /** Replaces the default hint; pass "" for none. */
  hint?: string;
  /** Leaflet URL template of the map tiles (`config.MAP_TILE_URL`) and their attribution. */
  tileUrl?: string;
  tileAttribution?: string;
}

/** What a reader is told of the suggestions: whether the list is open, and which option is highlighted. */
export interface ComboState {
  expanded: boolean;
  activeId?: string;
}

/** The keys and text of the field, handed to its suggestions once they are here (place-suggestions.tsx). */
export interface ComboHandlers {
  onInput: (text: string) => void;
  onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => void;
  onBlur: () => void;
}

export interface PlaceSuggestionsProps {
  inputId: string;
  listId: string;
  statusId: string;
  input: React.RefObject<HTMLInputElement | null>;
  handlers: React.RefObject<ComboHandlers | null>;
  onCombo: (combo: ComboState) => void;
  onChoose: (point: Point) => void;
}

type Suggestions = typeof import("./place-suggestions.tsx");
let suggestionsLoad: Promise<Suggestions> | undefined;
/** The field's suggestions and point map, fetched once, on the first focus, press or key in a place field. */
function loadSuggestions(): Promise<Suggestions> {
  suggestionsLoad ??= import("./place-suggestions.tsx");
  suggestionsLoad.catch(() => (suggestionsLoad = undefined));
  return suggestionsLoad;
}

/**
 * A place of Pakistan. Without JavaScript it is a plain text field that the server resolves on submit.
 * With JavaScript it becomes a combobox (WAI-ARIA 1.2, list autocomplete) over /api/places: choosing a
 * suggestion fills the formatted address and the hidden point, typing again clears the point, and the point
 * can be adjusted on a small map that is loaded only when asked for. An Urdu reader is shown, and chooses, a
 * place's Urdu label where it has one; the server resolves either.
 *
 * The page carries only the field (its input, hint, error and point); the suggestions, their keys and the point
 * map (place-suggestions.tsx, 1.7 KB gzip) come when the person first focuses, presses or types in it, or asks for
 * the map (decision 033, 2026-11-27). Text typed before they arrive is searched for when they do.
 */
export function PlaceField({
  name,
  label,
  id,
  defaultValue,
  defaultPoint,
  error,
  errorId,
  describedBy,
  required,
  hint,
  tileUrl,
  tileAttribution,
}: PlaceFieldProps) {
  // Its suggestions and announcements show after hydration and in callbacks: the page carries them.
  const { t } = useTranslation("places");
  const uid = useId();
  const inputId = id ?? `${name}-${uid}`;
  const listId = `${inputId}-listbox`;
  const hintId = `${inputId}-hint`;
  const ownErrorId = errorId ?? `${inputId}-error`;
  const statusId = `${inputId}-status`;
  const mapId = `${inputId}-map`;
  const hintText = hint ?? t("places:field.hint");

  const inputRef = useRef<HTMLInputElement>(null);
  const handlers = useRef<ComboHandlers | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const [live, setLive] = useState<Suggestions | null>(null);
  const [combo, setCombo] = useState<ComboState>({ expanded: false });
  const [point, setPoint] = useState<Point | null>(defaultPoint ?? null);
  const [mapOpen, setMapOpen] = useState(false);

  useEffect(() => setHydrated(true), []);
  const wake = () => {
    if (!live) loadSuggestions().then(setLive, () => {});
  };
  const onCombo = useCallback((c: ComboState) => setCombo(c), []);

  const onInput = (e: React.FormEvent<HTMLInputElement>) => {
    // The point belonged to the text that was chosen; new text is resolved anew.
    setPoint(null);
    setMapOpen(false);
    wake();
    handlers.current?.onInput(e.currentTarget.value);
  };

  const describedByIds = [describedBy, hintText ? hintId : null, error ? ownErrorId : null].filter(Boolean).join(" ") || undefined;

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          ref={inputRef}
          id={inputId}
          name={name}
          type="text"
          dir="auto"
          defaultValue={defaultValue}
          required={required}
          maxLength={300}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds}
          autoComplete="off"
          spellCheck={false}
          {...(hydrated
            ? {
                role: "combobox",
                "aria-autocomplete": "list" as const,
                "aria-expanded": combo.expanded,
                "aria-controls": live ? listId : undefined,
                "aria-activedescendant": combo.activeId,
                onFocus: wake,
                onPointerDown: wake,
                onInput,
                onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => {
                  wake();
                  handlers.current?.onKeyDown(e);
                },
                onBlur: () => handlers.current?.onBlur(),
              }
            : {})}
          className="min-h-12 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
        />
        {live && (
          <live.PlaceSuggestions
            inputId={inputId}
            listId={listId}
            statusId={statusId}
            input={inputRef}
            handlers={handlers}
            onCombo={onCombo}
            onChoose={setPoint}
          />
        )}
      </div>
      <input type="hidden" name={`${name}Lat`} value={hydrated && point ? String(point.lat) : ""} />
      <input type="hidden" name={`${name}Lng`} value={hydrated && point ? String(point.lng) : ""} />
      {hintText && (
        <p id={hintId} className="text-sm text-slate-600">
          {hintText}
        </p>
      )}
      {error && (
        <p id={ownErrorId} className="text-sm font-medium text-red-700">
          {t(error)}
        </p>
      )}
      {hydrated && point && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <p className="text-sm text-slate-700" data-testid={`${name}-point`}>
            {t("places:field.point")}
          </p>
          <button
            type="button"
            aria-expanded={mapOpen}
            aria-controls={mapOpen && live ? mapId : undefined}
            onClick={() => {
              wake();
              setMapOpen((o) => !o);
            }}
            className="min-h-11 rounded-md px-2 py-2 text-sm font-medium text-brand-800 underline hover:bg-brand-50"
          >
            {mapOpen ? t("places:field.hideMap") : t("places:field.adjust")}
          </button>
        </div>
      )}
      {hydrated && point && mapOpen && live && (
        <live.LazyPointMap id={mapId} point={point} onMove={setPoint} tileUrl={tileUrl} tileAttribution={tileAttribution} />
      )}
    </div>
  );
}
