import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

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
 * A stream transform, because `<Scripts />` has no way to leave its links out. It reads text: a tag cut between
 * two chunks is held back until its end arrives, and after `</head>` everything passes through untouched.
 */
export function withoutModulePreloads(): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  let headDone = false;

  function edit(text: string, last: boolean): string {
    if (headDone) return text;
    let s = held + text;
    held = "";
    const headEnd = s.indexOf("</head>");
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
      callback(null, edit(decoder.write(chunk), false));
    },
    flush(callback) {
      callback(null, edit(decoder.end(), true));
    },
  });
}
