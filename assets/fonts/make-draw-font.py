#!/usr/bin/python3
"""Builds cueref-draw.ttf: a font with no visible glyphs, for ffmpeg's `ass` filter.

The report's clips draw the ball paths as ASS vector drawings rendered by libass inside ffmpeg
(src/video/assDraw.ts). libass renders no event, drawings included, unless a font can be loaded;
a fresh machine may have no fonts at all. So the clips bring their own: this one, made from
nothing (no third-party font, no licence to carry), loaded through the filter's `fontsdir` with
fontconfig pointed at an empty configuration, so the result does not depend on the machine.

Recipe (Debian: apt-get install python3-fonttools):  /usr/bin/python3 assets/fonts/make-draw-font.py
"""
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

FAMILY = "cueref draw"
fb = FontBuilder(unitsPerEm=1000, isTTF=True)
glyphs = [".notdef", "space"]
fb.setupGlyphOrder(glyphs)
fb.setupCharacterMap({0x20: "space"})
empty = TTGlyphPen(None).glyph()
fb.setupGlyf({g: empty for g in glyphs})
fb.setupHorizontalMetrics({g: (500, 0) for g in glyphs})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": FAMILY, "styleName": "Regular"})
fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
fb.setupPost()
fb.save(str(Path(__file__).with_name("cueref-draw.ttf")))
