import QRCode from "qrcode";

/**
 * The payment QR as pictures, drawn on the server so the donor's page needs no script (decision 005) and a PDF can
 * draw the same modules. Error correction M restores about 15 % of damaged modules (a smudged print, glare on a
 * screen) while keeping the modules large for a 54–80 character payload. ISO/IEC 18004 asks for a light margin
 * (quiet zone) of 4 modules on every side; scanners miss codes drawn tight against other dark content.
 */

const QUIET_ZONE = 4;
/** CSS pixels per module for the SVG's intrinsic size; pages may scale it, the viewBox keeps the modules square. */
const PIXELS_PER_MODULE = 6;

export interface QrMatrix {
  /** Modules per side, without the quiet zone (a PDF adds its own margin of 4 modules). */
  size: number;
  dark(row: number, col: number): boolean;
}

export function qrMatrix(payload: string): QrMatrix {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: "M" });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

/**
 * A standalone SVG: role="img" with a <title> (the label, or a plain default) for screen readers, white quiet zone,
 * dark modules as one path, no script, no external reference. Safe to inline in a page or serve as image/svg+xml.
 */
export async function qrSvg(payload: string, opts: { label?: string } = {}): Promise<string> {
  const matrix = qrMatrix(payload);
  const side = matrix.size + 2 * QUIET_ZONE;
  let path = "";
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (!matrix.dark(row, col)) continue;
      // Runs of dark modules in a row become one rectangle: a third of the path for a typical code.
      let run = 1;
      while (col + run < matrix.size && matrix.dark(row, col + run)) run++;
      path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h${run}v1h-${run}z`;
      col += run - 1;
    }
  }
  const label = escapeXml(opts.label?.trim() || "Payment QR code");
  const px = side * PIXELS_PER_MODULE;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${px}" height="${px}" ` +
    `role="img" aria-label="${label}" shape-rendering="crispEdges">` +
    `<title>${label}</title>` +
    `<rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/>` +
    `</svg>`
  );
}

function escapeXml(text: string): string {
  // Control characters are not allowed in XML 1.0 at all; drop them rather than break the document.
  const clean = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "");
  return clean.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
