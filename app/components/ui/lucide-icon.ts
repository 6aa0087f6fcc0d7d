import { createElement, forwardRef, type ReactNode, type SVGProps } from "react";

/**
 * lucide-react's `createLucideIcon`, small: what the browser's icons are made with (decision 033, 2026-11-27).
 *
 * Every icon module of lucide-react (`dist/esm/icons/*.mjs`) calls `createLucideIcon` with its data. The package's
 * own builds the icon through a generic attribute builder, a class merger, an accessibility scan, a context for
 * defaults (`LucideProvider`, which this app does not use) and name conversions, about 1.5 KB gzip that every page
 * loaded in the framework chunk. This draws the same `<svg>` with the same attributes and children for the same
 * props, without the context: `scripts/lean-lucide-plugin.ts` points the icon modules of the client build here, and
 * `tests/integration/lucide-icon.test.ts` holds the markup equal to lucide-react's for every icon and the props
 * the app passes (and the others lucide takes). The server renders with lucide-react's own, so a difference would
 * show there first.
 */

interface IconData {
  name: string;
  size?: number;
  width?: number;
  height?: number;
  node: [string, Record<string, string>, unknown?][];
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

export default function createLucideIcon(icon: IconData) {
  const box = icon.size ?? icon.width ?? 24;
  const names = ["lucide", `lucide-${icon.name}`, ...(icon.aliases ?? []).filter((a) => a.trim() !== "").map((a) => `lucide-${a}`)];
  return forwardRef<SVGSVGElement, IconProps>(
    ({ color, size, width, height, strokeWidth, absoluteStrokeWidth, nonScalingStroke, className = "", children, ...rest }, ref) => {
      const w = width ?? size ?? 24;
      const stroke = strokeWidth ?? 2;
      const classes = [...new Set([...names, ...className.split(/\s+/)].filter(Boolean))].join(" ");
      return createElement(
        "svg",
        {
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
        },
        [
          ...icon.node.map(([tag, attrs]) =>
            createElement(tag, nonScalingStroke ? { vectorEffect: "non-scaling-stroke", ...attrs } : attrs),
          ),
          ...(Array.isArray(children) ? children : [children]),
        ],
      );
    },
  );
}
