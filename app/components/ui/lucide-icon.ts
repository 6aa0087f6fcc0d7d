import { createElement, forwardRef, type ReactNode, type SVGProps } from "react";

/**
 * lucide-react's `createLucideIcon`, as one element: what the app's icons are made with, on the server and in the
 * browser (decisions 033 and 037, 2026-11-27).
 *
 * Every icon module of lucide-react (`dist/esm/icons/*.mjs`) calls `createLucideIcon` with its data. The package's
 * own builds the icon through a generic attribute builder, a class merger, an accessibility scan, a context for
 * defaults (`LucideProvider`, which this app does not use) and name conversions, then one React element for the
 * `<svg>` and one for each of its shapes. `scripts/lean-lucide-plugin.ts` points the icon modules of both builds
 * here and rewrites each icon's shapes at build time into their markup (`html`), so an icon is one element: the
 * `<svg>` with the same attributes for the same props, its shapes set as inner HTML, which React writes as they are
 * on the server and leaves alone while hydrating. `tests/integration/lucide-icon.test.ts` holds the markup equal to
 * lucide-react's for every icon and the props the app passes (and the others lucide takes).
 */

interface IconData {
  name: string;
  size?: number;
  width?: number;
  height?: number;
  /** The icon's shapes as markup (`<path d="…"></path>…`), made from lucide's `node` by the build. */
  html: string;
  aliases?: string[];
}

type IconProps = SVGProps<SVGSVGElement> & {
  size?: string | number;
  absoluteStrokeWidth?: boolean;
  nonScalingStroke?: boolean;
  children?: ReactNode;
};

const hasA11yProp = (props: Record<string, unknown>) =>
  Object.keys(props).some((prop) => (prop.startsWith("aria-") || prop === "role" || prop === "title") && props[prop] != null);

/**
 * The shapes as React elements, for the rare icon given children (a `<title>`), which inner HTML cannot sit beside,
 * or a non-scaling stroke. The build writes every attribute as `name="value"` with nothing to unescape (it refuses
 * any other).
 */
const shapeElements = (html: string, extra: object) =>
  [...html.matchAll(/<(\w+)([^>]*)><\/\1>/g)].map(([, tag, attrs], key) =>
    createElement(tag!, { key, ...extra, ...Object.fromEntries([...attrs!.matchAll(/ ([\w-]+)="([^"]*)"/g)].map((m) => m.slice(1))) }),
  );

/** At most this many class attributes kept an icon: the app passes a few literal ones; more would be made anew. */
const CLASS_NAMES_KEPT = 32;

export default function createLucideIcon(icon: IconData) {
  const box = icon.size ?? icon.width ?? 24;
  const names = ["lucide", `lucide-${icon.name}`, ...(icon.aliases ?? []).filter((a) => a.trim() !== "").map((a) => `lucide-${a}`)];
  // The shapes' markup, made by the build as React would write them, handed to React the same for every render.
  const inner = { __html: icon.html };
  // Each class attribute made once per className the app passes (a handful an icon), not on every render.
  const classNames = new Map<string, string>();
  return forwardRef<SVGSVGElement, IconProps>(
    ({ color, size, width, height, strokeWidth, absoluteStrokeWidth, nonScalingStroke, className = "", children, ...rest }, ref) => {
      const w = width ?? size ?? 24;
      const stroke = strokeWidth ?? 2;
      let classes = classNames.get(className);
      if (classes === undefined) {
        classes = [...new Set([...names, ...className.split(/\s+/)].filter(Boolean))].join(" ");
        if (classNames.size < CLASS_NAMES_KEPT) classNames.set(className, classes);
      }
      const props = {
        ref,
        xmlns: "http://www.w3.org/2000/svg",
        width: w,
        height: height ?? size ?? 24,
        viewBox: `0 0 ${box} ${icon.size ?? icon.height ?? 24}`,
        fill: "none",
        stroke: color || "currentColor",
        strokeWidth: absoluteStrokeWidth ? (Number(stroke) * Number(box)) / Number(w) : stroke,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: classes,
        ...(children || hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      } as const;
      if (children == null && !nonScalingStroke) return createElement("svg", { ...props, dangerouslySetInnerHTML: inner });
      return createElement("svg", props, [
        ...shapeElements(icon.html, nonScalingStroke ? { vectorEffect: "non-scaling-stroke" } : {}),
        ...(Array.isArray(children) ? children : [children]),
      ]);
    },
  );
}
