"""Stage 3, draw: pieces as vector drawings.

Owns the sandboxed Jinja templates (templates) and their compiled plans (compile), the expansion of
items into piece faces (pieces), SVG drawn onto a PDF canvas (svgdraw, svgvalues), text fitted in
boxes (svgtext), fonts and line breaking (text) and PDF text operators (pdftext). Imports `rules`,
`content`, `geometry` and `errors`.
"""

# what the stages above use; everything else in this folder is private to it
from .compile import Plan
from .glyphs import check_catalog_glyphs
from .pdftext import TextBlock, TextOps
from .media.icons import ICON, icon_width, unknown as unknown_icon
from .pieces import (
    Face, PieceSpec, board_piece, board_svg, deck_pieces, hex_pieces, preload, standee_pieces, standee_size,
    template_values, templates_for, token_pieces)
from .svgdraw import Context, Renderer, TextProblem, end_form
from .svgtext import Shrink
from .templates import TemplateProblem, take_notes
from . import text
from .text import use_game_fonts

__all__ = [
    "Plan", "TextBlock", "TextOps",
    "ICON", "icon_width", "unknown_icon",
    "Context", "Face", "PieceSpec", "Renderer", "Shrink", "TemplateProblem", "TextProblem",
    "board_piece", "board_svg", "preload", "check_catalog_glyphs", "deck_pieces", "end_form", "hex_pieces",
    "standee_pieces", "standee_size", "take_notes", "template_values", "templates_for", "text", "token_pieces",
    "use_game_fonts"]
