import { createElement, forwardRef, type ReactNode, type SVGProps } from "react";
import { jsx } from "react/jsx-runtime";

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

/** The props the icon reads itself; every other one goes on the `<svg>` as given. */
const OWN_PROPS = new Set([
  "color",
  "size",
  "width",
  "height",
  "strokeWidth",
  "absoluteStrokeWidth",
  "nonScalingStroke",
  "className",
  "children",
]);

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
  const viewBox = `0 0 ${box} ${icon.size ?? icon.height ?? 24}`;
  // Each class attribute made once per className the app passes (a handful an icon), not on every render.
  const classNames = new Map<string, string>();
  return forwardRef<SVGSVGElement, IconProps>((given, ref) => {
    const { size, children } = given;
    const attributes = given as Record<string, unknown>;
    const w = given.width ?? size ?? 24;
    const stroke = given.strokeWidth ?? 2;
    const className = given.className ?? "";
    let classes = classNames.get(className);
    if (classes === undefined) {
      classes = [...new Set([...names, ...className.split(/\s+/)].filter(Boolean))].join(" ");
      if (classNames.size < CLASS_NAMES_KEPT) classNames.set(className, classes);
    }
    // Unlabelled icons are hidden from assistive technology, as lucide-react's are.
    let labelled = Boolean(children);
    for (const name in attributes) {
      const value = attributes[name];
      if (value != null && (name.startsWith("aria-") || name === "role" || name === "title")) labelled = true;
    }
    // lucide-react's attributes in its order, then the others given, in one object that React takes as it is (the
    // JSX runtime keeps a props object without `key`); a given attribute of the same name replaces lucide's in place,
    // as lucide's spread did, so the markup is the same attribute for attribute.
    const props: Record<string, unknown> = {
      ref,
      xmlns: "http://www.w3.org/2000/svg",
      width: w,
      height: given.height ?? size ?? 24,
      viewBox,
      fill: "none",
      stroke: given.color || "currentColor",
      strokeWidth: given.absoluteStrokeWidth ? (Number(stroke) * Number(box)) / Number(w) : stroke,
      strokeLinecap: "round",
      strokeLinejoin: "round",
      className: classes,
    };
    if (!labelled) props["aria-hidden"] = "true";
    for (const name in attributes) if (!OWN_PROPS.has(name)) props[name] = attributes[name];
    if (children == null && !given.nonScalingStroke) {
      props.dangerouslySetInnerHTML = inner;
      return jsx("svg", props);
    }
    return createElement("svg", props, [
      ...shapeElements(icon.html, given.nonScalingStroke ? { vectorEffect: "non-scaling-stroke" } : {}),
      ...(Array.isArray(children) ? children : [children]),
    ]);
  });
}
