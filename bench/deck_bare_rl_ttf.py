"""The shared bare-ReportLab baseline, run unchanged but with the embedded TrueType font printkit uses.

The shared script draws with ReportLab's built-in Helvetica, which is never embedded and needs no
subsetting; printkit embeds Barlow Condensed (print shops reject unembedded fonts). Mapping the
script's three Helvetica names to Barlow Condensed measures the same drawing with the same font
work, which is the fair baseline the shared README suggests.

usage: python deck_bare_rl_ttf.py N [out.pdf]
"""
from __future__ import annotations

import runpy
import sys
from pathlib import Path

import fontpkg
from reportlab.lib import utils
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen import textobject

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_content import shared_dir  # noqa: E402

FONTS = {"Helvetica": ("BarlowCondensed", 400, "normal"), "Helvetica-Bold": ("BarlowCondensed-Bold", 700, "normal"),
         "Helvetica-Oblique": ("BarlowCondensed-Italic", 400, "italic")}
NAMES = {old: new for old, (new, _, _) in FONTS.items()}

for new, weight, style in FONTS.values():
    pdfmetrics.registerFont(TTFont(new, str(fontpkg.path("barlow-condensed", weight, style))))

_canvas_init, _canvas_font, _text_font = rl_canvas.Canvas.__init__, rl_canvas.Canvas.setFont, textobject.PDFTextObject.setFont
_split = utils.simpleSplit


def _init(self, *args, **kwargs):
    kwargs.setdefault("initialFontName", "BarlowCondensed")
    _canvas_init(self, *args, **kwargs)


rl_canvas.Canvas.__init__ = _init
rl_canvas.Canvas.setFont = lambda self, name, size, leading=None: _canvas_font(self, NAMES.get(name, name), size, leading)
textobject.PDFTextObject.setFont = lambda self, name, size, leading=None: _text_font(self, NAMES.get(name, name), size, leading)
utils.simpleSplit = lambda text, name, size, width: _split(text, NAMES.get(name, name), size, width)

script = shared_dir() / "deck_bare_rl.py"
sys.argv = [str(script), *sys.argv[1:]]
runpy.run_path(str(script), run_name="__main__")
