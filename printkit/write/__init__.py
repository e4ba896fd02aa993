"""Stage 4, write: the PDF file itself (pdf: pages, forms, fonts, boxes, viewer preferences).

Later output formats (piece images, Tabletop Simulator) go here. Imports `draw`, `content`,
`geometry` and `errors`; the layout stage above decides what goes on each page.
"""

# what the stages above use; everything else in this folder is private to it
from .pdf import Rect, Writer

__all__ = [
    "Rect", "Writer"]
