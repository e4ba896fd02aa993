"""Raster images in templates: what printkit reads (PNG, JPEG, WebP), their pixel size, where they land in
their box (`preserveAspectRatio`) and the resolution they print at.

The drawing itself is the renderer's (`svgdraw`): each file becomes one form XObject per PDF, placed by
reference, so a picture used on every card is embedded once.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RASTER = (".png", ".jpg", ".jpeg", ".webp")
RASTER_REFUSED = (".gif", ".bmp", ".tif", ".tiff")  # raster formats printkit does not read: refused by name
# preserveAspectRatio values read (the SVG default is xMidYMid meet)
ASPECTS = ("xMidYMid meet", "xMidYMid", "xMidYMid slice", "none")


def is_raster(path: Path | str) -> bool:
    return str(path).lower().endswith(RASTER)


@dataclass(frozen=True)
class Fit:
    """Where a picture of size (dw, dh) lands in its box: its scale on each axis, its top left corner, and
    whether it overflows the box (slice) and must be clipped to it."""

    sx: float
    sy: float
    ox: float
    oy: float
    clip: bool


def placement(x: float, y: float, w: float, h: float, dw: float, dh: float, aspect: str | None) -> Fit:
    """A picture placed in the box (x, y, w, h) as SVG's preserveAspectRatio says: centred, whole (meet),
    covering the box (slice) or stretched to it (none)."""
    mode = (aspect or "xMidYMid meet").strip()
    if mode == "none":
        return Fit(w / dw, h / dh, x, y, False)
    scale = max(w / dw, h / dh) if mode.endswith("slice") else min(w / dw, h / dh)
    return Fit(scale, scale, x + (w - dw * scale) / 2, y + (h - dh * scale) / 2, mode.endswith("slice"))


def effective_dpi(px: tuple[int, int], box: tuple[float, float], aspect: str | None, scale: tuple[float, float]) -> float:
    """Dots per inch the image prints at: its pixels over the millimetres each takes, on its coarser axis;
    `scale` is how much the drawing around the box enlarges each axis."""
    fit = placement(0.0, 0.0, box[0], box[1], px[0], px[1], aspect)
    mm_per_px = max(fit.sx * scale[0], fit.sy * scale[1])
    return 25.4 / mm_per_px if mm_per_px > 0 else float("inf")


def pixel_size(path: Path) -> tuple[int, int] | None:
    """An image file's width and height in pixels; None when Pillow cannot read it. Only the header is read;
    cached by the file's size and modification time, so an edited file is read afresh (watch mode)."""
    info = path.stat()
    return _pixel_size(str(path), info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=256)
def _pixel_size(path: str, size: int, mtime_ns: int) -> tuple[int, int] | None:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            image.verify()  # a truncated or corrupt file is refused here, not half drawn
        with Image.open(path) as image:
            return image.size if image.size[0] > 0 and image.size[1] > 0 else None
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None  # Pillow's own limit refuses a picture so large it would exhaust memory


def image_source(path: Path) -> object:
    """What ReportLab's drawImage is given: a PNG or JPEG file by name (JPEG data is embedded as it is),
    a WebP file as PNG data (PDF cannot hold WebP), its transparency kept."""
    from reportlab.lib.utils import ImageReader

    if path.suffix.lower() != ".webp":
        return str(path)
    from PIL import Image

    with Image.open(path) as image:
        image = image.convert("RGBA" if _has_alpha(image) else "RGB")
        data = io.BytesIO()
        image.save(data, format="PNG")
    data.seek(0)
    return ImageReader(data)


def _has_alpha(image: object) -> bool:
    mode = getattr(image, "mode", "")
    return mode in ("RGBA", "LA", "PA") or "transparency" in getattr(image, "info", {})
