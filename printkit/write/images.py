"""Piece faces as images for print services: one-page-per-face PDFs rasterised by PDFium, saved as
sRGB PNGs with their resolution; and the game's zip of them.

The faces are drawn by the same code as the PDFs (Writer.piece), so an image shows what the kit prints.
Every output is deterministic: PNGs carry no timestamps, the zip has fixed dates and sorted entries.
"""
from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # PDFium and Pillow load only when a build makes images (--images): a PDF build never pays for them
    from PIL import Image, PngImagePlugin

BLEED = 25.4 / 8  # mm round the trim: the 1/8 in print services ask for
DPI = 300
MAX_SIDE_PX = 12000  # past this a board's image is too large to handle: its dpi is lowered to fit
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: no build time in the file


@dataclass(frozen=True)
class FacePage:
    """Where one face goes on its own page: the page (trim plus bleed, whole pixels at dpi) and the trim's
    top left on it, all in mm; `trim_px` is the trim's box in pixels (left, top, right, bottom)."""

    size: tuple[float, float]
    at: tuple[float, float]
    dpi: int
    trim_px: tuple[int, int, int, int]

    @property
    def px(self) -> tuple[int, int]:
        return pixels(self.size[0], self.dpi), pixels(self.size[1], self.dpi)


def pixels(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def image_dpi(trim: tuple[float, float], dpi: int = DPI) -> int:
    """The dpi a piece is rendered at: `dpi`, lowered for a board whose image would pass MAX_SIDE_PX a side."""
    longest = max(trim) + 2 * BLEED
    return min(dpi, math.floor(MAX_SIDE_PX * 25.4 / longest))


def face_page(trim: tuple[float, float], dpi: int) -> FacePage:
    """The page of one face: the trim plus BLEED each side, rounded to whole pixels, the trim's top left on a
    pixel's corner (so its edges are as sharp as the pixels allow) with the bleed shared as evenly as it can."""
    page_px = [pixels(t + 2 * BLEED, dpi) for t in trim]
    trim_px = [pixels(t, dpi) for t in trim]
    left, top = ((p - t) // 2 for p, t in zip(page_px, trim_px))
    mm = 25.4 / dpi
    return FacePage((page_px[0] * mm, page_px[1] * mm), (left * mm, top * mm), dpi,
                    (left, top, left + trim_px[0], top + trim_px[1]))


def rasterise(pdf: bytes, pages: list[FacePage]) -> Iterator[Image.Image]:
    """Each page of a PDF as an RGB image of exactly its FacePage's pixels, on white."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for i, face in enumerate(pages):
            page = doc[i]
            width_pt = page.get_width()
            px = face.px[0]
            # PDFium rounds the bitmap's size up: a scale a hair under the exact one gives exactly px
            bitmap = page.render(scale=(px - 0.01) / width_pt, fill_color=(255, 255, 255, 255))
            image = bitmap.to_pil().convert("RGB")
            page.close()
            if image.size != face.px:  # the other side rounded up one pixel too many: cut it off
                image = image.crop((0, 0, *face.px))
            yield image
    finally:
        doc.close()


def _srgb_info() -> PngImagePlugin.PngInfo:
    """PNG's own sRGB tag (rendering intent perceptual), with the gAMA and cHRM values the PNG spec gives
    for readers that do not know it; an embedded ICC profile would carry its creation date."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", b"\x00")
    info.add(b"gAMA", (45455).to_bytes(4, "big"))
    chrm = (31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)
    info.add(b"cHRM", b"".join(v.to_bytes(4, "big") for v in chrm))
    return info


def png_bytes(image: Image.Image, dpi: int | None) -> bytes:
    """An sRGB PNG with its resolution (pHYs, when it has one: a virtual table's sheet has none) and
    nothing that changes from one build to the next."""
    buffer = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buffer, "PNG", pnginfo=_srgb_info(), compress_level=6, **extra)
    return buffer.getvalue()


def trimmed(image: Image.Image, face: FacePage) -> Image.Image:
    """The face without its bleed (what a virtual table shows)."""
    return image.crop(face.trim_px)


def fit_within(image: Image.Image, most: int) -> Image.Image:
    """Scaled down, keeping its proportions, so that no side passes `most` pixels."""
    longest = max(image.size)
    if longest <= most:
        return image
    from PIL import Image

    size = tuple(max(1, round(s * most / longest)) for s in image.size)
    return image.resize(size, Image.Resampling.LANCZOS)


def write_zip(path: Path, members: list[tuple[str, Path]]) -> None:
    """A zip of files under their names, sorted, with fixed dates and modes: the same bytes every build.
    PNGs are already compressed: they are stored as they are."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, source in sorted(members):
            entry = zipfile.ZipInfo(name, ZIP_DATE)
            entry.create_system = 3  # unix, whatever the system building it
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, source.read_bytes())
