"""Stage 4, write: the files themselves: the PDF (pdf: pages, forms, fonts, boxes, viewer preferences),
piece images for print services (images: rasterised faces, sRGB PNGs, the zip) and Tabletop Simulator
(tts: card sheets, saved objects).

Imports `draw`, `content`, `geometry` and `errors`; the layout stage above decides what goes on each page.
"""

# what the stages above use; everything else in this folder is private to it
from .ahead import drawn_ahead, spare_cores
from .images import BLEED, FacePage, face_page, fit_within, image_dpi, png_bytes, rasterise, trimmed, write_zip
from .pdf import Rect, Writer
from . import tts

__all__ = [
    "BLEED", "FacePage", "drawn_ahead", "spare_cores", "Rect", "Writer", "face_page", "fit_within", "image_dpi", "png_bytes", "rasterise",
    "trimmed", "tts", "write_zip"]
