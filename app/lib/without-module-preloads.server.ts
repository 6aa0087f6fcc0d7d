import { Transform } from "node:stream";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const HEAD_END = "</head>";

/**
 * The page's HTML without the `<link rel="modulepreload">` elements of its `<head>` (decision 036).
 *
 * React Router's `<Scripts />` renders one for every module the page hydrates with (17 on `/`, 110 KB), and React
 * hoists them into the head, so the browser's preload scanner asks for all the page's JavaScript at once, with the
 * stylesheet, the body font and the first picture, at "High" priority, on a slow line they share. Without them the
 * scripts are asked for by the module script at the end of the body, which the browser reaches after the
 * stylesheet has arrived (the inline scripts before it wait for it), and then by their imports: the content is
 * painted first, hydration comes a little later. Lighthouse's simulation counts every request that ended before
 * the first paint as needed for it, so with the links the JavaScript was most of the time charged to the paint.
 *
 * A stream transform, because `<Scripts />` has no way to leave its links out. It edits bytes, read as Latin-1
 * (one character a byte, so writing them back gives the same bytes, and UTF-8's multi-byte characters, all of whose
 * bytes are above 127, can never match the pattern's ASCII): no character is ever decoded, and a character cut
 * between two chunks needs no care. A tag cut between two chunks is held back until its end arrives; after
 * `</head>` the chunks pass through untouched, as the same buffers (decision 037, 2026-11-27: decoding the whole
 * page to text and back was 2 % of a signed-in page's server time).
 */
export function withoutModulePreloads(): Transform {
  let held = "";
  let headDone = false;

  function edit(bytes: string, last: boolean): string {
    let s = held + bytes;
    held = "";
    const headEnd = s.indexOf(HEAD_END);
    if (headEnd !== -1) {
      headDone = true;
      return s.slice(0, headEnd).replace(MODULE_PRELOAD, "") + s.slice(headEnd);
    }
    // An unfinished tag waits for its end, or a link cut in two would be missed.
    const open = s.lastIndexOf("<");
    if (!last && open > s.lastIndexOf(">")) {
      held = s.slice(open);
      s = s.slice(0, open);
    }
    return s.replace(MODULE_PRELOAD, "");
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (headDone) return callback(null, chunk);
      // React hands on the whole shell as one chunk (app/entry.server.tsx), head and body: only the head is read
      // and written again; what follows `</head>` leaves as the same bytes (session 19: the shell decoded and
      // encoded whole was 90 KB of the 2.4 MB a request of `/donate1` allocated). A `</head>` cut between two
      // chunks is found by edit(), through what it held back.
      const headEnd = held === "" ? chunk.indexOf(HEAD_END) : -1;
      if (headEnd === -1) return callback(null, Buffer.from(edit(chunk.toString("latin1"), false), "latin1"));
      headDone = true;
      if (headEnd > 0) this.push(Buffer.from(chunk.toString("latin1", 0, headEnd).replace(MODULE_PRELOAD, ""), "latin1"));
      callback(null, chunk.subarray(headEnd));
    },
    flush(callback) {
      callback(null, headDone || held === "" ? null : Buffer.from(edit("", true), "latin1"));
    },
  });
}

/**
 * The same edit on a whole page in one buffer (app/entry.server.tsx sends a page React finished at once that way):
 * only the head is read, as Latin-1, and written again; the page itself is returned when it has no such link.
 */
export function withoutModulePreloadsIn(page: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const headEnd = page.indexOf(HEAD_END);
  const end = headEnd === -1 ? page.length : headEnd;
  const head = page.toString("latin1", 0, end);
  const kept = head.replace(MODULE_PRELOAD, "");
  if (kept.length === head.length) return page;
  return Buffer.concat([Buffer.from(kept, "latin1"), page.subarray(end)]);
}
