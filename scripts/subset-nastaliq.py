"""Subsets Noto Nastaliq Urdu for the web with fontTools (decision 030, 2026-11-27); run by scripts/build-fonts.ts.

    /usr/bin/python3 scripts/subset-nastaliq.py SOURCE OUT CODEPOINTS

CODEPOINTS is a comma-separated list of hexadecimal code points. Every layout feature is kept, as with
HarfBuzz's subsetter; the output is WOFF2. Two differences from `subset-font`'s output of the same characters:

- fontTools writes the GSUB table in a form that Brotli compresses to 46 KB where HarfBuzz's takes 60 KB (the
  same 837 glyphs and lookups; its table is larger before compression, which a phone decodes once);
- the language systems other than the default one (Arabic, Farsi, Kashmiri, Sindhi) are dropped with the
  lookups and glyphs only they reach: a browser shapes text marked `lang="ur"` with the default one, since the
  font has no Urdu language system, so those never draw anything on our pages.

Debian's `python3-fonttools` and `python3-brotli` (apt-get install python3-fonttools python3-brotli).
"""

import sys

from fontTools import subset
from fontTools.ttLib import TTFont


def main(source: str, out: str, codepoints: str) -> None:
    # The source's own head.modified, not the time of the run: the same inputs give the same bytes.
    font = TTFont(source, recalcTimestamp=False)
    for tag in ("GSUB", "GPOS"):
        if tag in font:
            for record in font[tag].table.ScriptList.ScriptRecord:
                record.Script.LangSysRecord = []
                record.Script.LangSysCount = 0
    options = subset.Options(layout_features=["*"], notdef_outline=True, flavor="woff2")
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[int(cp, 16) for cp in codepoints.split(",")])
    subsetter.subset(font)
    font.save(out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
