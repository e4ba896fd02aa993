"""<image> drawn on the canvas: SVG art through svglib, PNG, JPEG and WebP as image XObjects.

A mixin of the renderer: it needs its canvas and its forms. Each file becomes one form XObject per PDF
file, named by the file's content and placed by reference wherever a template draws it, so art used on
every card is embedded once.
"""
from __future__ import annotations

import math

import hashlib
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from reportlab.pdfbase import pdfdoc

from .. import text as T
from ..svgrefs import href_of, image_problem
from ..svgtext import Context, TextProblem
from ..svgvalues import Matrix, SvgValueError, length
from .raster import effective_dpi, image_source, is_raster, pixel_size, placement

MIN_DPI = 150  # below: refused (a template's own image at its line, a piece's image at its field)
GOOD_DPI = 300  # below: a note in the fit report
ITEM_HREF = "data-item-href"  # set on a compiled plan's <image> whose file an item names: that item's field


def end_form(canvas: Any, name: str) -> None:
    """End a form XObject begun with canvas.beginForm(name, ...), with every resource its stream uses:
    ReportLab records a form's graphics states (opacity) but writes its resources without them."""
    canvas.endForm()
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]  # noqa: SLF001 - the form just added
    if form.ExtGState:
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()
        resources.allProcs()
        if form.XObjects:
            resources.XObject = form.XObjects
        resources.ExtGState = form.ExtGState
        form.Resources = resources


def coarse(href: str, dpi: float, path: Path | None = None) -> str:
    """The note of an image printed under 300 dpi, with the pixels that would print it at 300."""
    return f"{href} prints at {dpi:.0f} dpi (under {GOOD_DPI} dpi{_pixels(path, dpi, GOOD_DPI, ': ')})"


def low_dpi(href: str, dpi: float, path: Path | None = None) -> str:
    """The problem of an image printed too coarse, with the pixels it needs."""
    return (f"expected an image of at least {MIN_DPI} dpi at its printed size{_pixels(path, dpi, MIN_DPI, ', ')}, "
            f"found {href!r} at {dpi:.0f} dpi")


def _pixels(path: Path | None, dpi: float, wanted: int, lead: str) -> str:
    """"W x H px" that print at `wanted` dpi where the file's pixels print at `dpi`."""
    size = pixel_size(path) if path is not None else None
    if not size or dpi <= 0:
        return ""
    w, h = (math.ceil(n * wanted / dpi) for n in size)
    return f"{lead}{w} x {h} px for {wanted} dpi"


@lru_cache(maxsize=1)
def _art_renderer() -> type:
    """svglib and renderPDF load only when a template uses SVG art (they are slow to import)."""
    from reportlab.graphics import renderPDF

    class EmbeddedFontRenderer(renderPDF._PDFRenderer):
        """svglib's drawings start from ReportLab's default Helvetica, which is never embedded."""

        def applyStateChanges(self, delta: dict, newState: dict) -> None:  # noqa: N802, N803 - ReportLab's names
            if delta.get("fontName") and not delta["fontName"].startswith(tuple(p for _, p in T.FAMILIES.values())):
                delta = {**delta, "fontName": T.font_name(T.DEFAULT_FAMILY)}
            super().applyStateChanges(delta, newState)

    return EmbeddedFontRenderer


class Images:
    """SVG art and raster images of <image>, each a form XObject made once per PDF file."""

    canvas: Any
    asset_path: Callable[[str], Path | None]
    _forms: dict[str, Any]
    _flush: Callable[[], None]

    def _image(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        href = href_of(node)
        path = self.asset_path(href)
        problem = image_problem(href, path)
        if problem is not None or path is None:  # the template's check refused it; never crash on it
            ctx.problems.append(TextProblem(node.get(ITEM_HREF, "image"), problem or href))
            return
        if is_raster(path):
            dpi = image_dpi(node, path, m)
            if dpi is not None and dpi < MIN_DPI:  # only a piece's own file gets here: the check refuses the rest
                raise _refusal(low_dpi(href, dpi, path))
            if dpi is not None and dpi < GOOD_DPI and node.get(ITEM_HREF):  # the check noted the template's own
                ctx.coarse.append(TextProblem(node.get(ITEM_HREF, "image"), coarse(href, dpi, path)))
        x, y = length(node.get("x")), length(node.get("y"))
        w, h = length(node.get("width"), 10), length(node.get("height"), 10)
        if not self._picture(path, x, y, w, h, node.get("preserveAspectRatio")):
            ctx.problems.append(TextProblem(node.get(ITEM_HREF, "image"), f"expected SVG art that can be read, found {href!r}"))

    def _picture(self, path: Path, x: float, y: float, w: float, h: float, aspect: str | None) -> bool:
        """A picture file drawn in the box (x, y, w, h) as `aspect` (preserveAspectRatio) says; False when
        it cannot be read."""
        self._flush()
        key = _asset_key(str(path))
        size = self._raster_form(key, path) if is_raster(path) else self._art_form(key, path)
        if size is None:
            return False
        fit = placement(x, y, w, h, size[0], size[1], aspect)
        c = self.canvas
        c.saveState()
        if fit.clip:
            p = c.beginPath()
            p.rect(x, y, w, h)
            c.clipPath(p, stroke=0, fill=0)
        c.transform(fit.sx, 0, 0, -fit.sy, fit.ox, fit.oy + size[1] * fit.sy)
        c.doForm(key)
        c.restoreState()
        return True

    def _art_form(self, key: str, path: Path) -> tuple[float, float] | None:
        """SVG art as a form in its own units (points), its size; None when svglib cannot read it."""
        if key not in self._forms:
            from reportlab.graphics import renderPDF

            drawing = svg_art(path)
            if drawing is None:
                return None
            self.canvas.beginForm(key, 0, 0, drawing.width, drawing.height)
            _art_renderer()().draw(renderPDF.renderScaledDrawing(drawing), self.canvas, 0, 0)
            end_form(self.canvas, key)
            self._forms[key] = (drawing.width, drawing.height)
        return self._forms[key]

    def _raster_form(self, key: str, path: Path) -> tuple[float, float] | None:
        """A raster image as a form one pixel a unit, drawn upside down so the caller's y-down flip rights it;
        made once per PDF file, whichever renderer of that file draws it first."""
        size = pixel_size(path)
        if size is None:
            return None
        if pdfdoc.xObjectName(key) not in self.canvas._doc.idToObject:  # noqa: SLF001 - forms of this file
            self.canvas.beginForm(key, 0, 0, size[0], size[1])
            self.canvas.drawImage(image_source(path), 0, 0, size[0], size[1], mask="auto")
            end_form(self.canvas, key)
        return float(size[0]), float(size[1])


def image_dpi(node: ET.Element, path: Path, m: Matrix) -> float | None:
    """The dpi a raster <image> prints at, drawn with the matrix m; None for SVG art or an unreadable file."""
    size = pixel_size(path) if is_raster(path) else None
    if size is None:
        return None
    box = (length(node.get("width"), 10), length(node.get("height"), 10))
    return effective_dpi(size, box, node.get("preserveAspectRatio"), _axis_scales(m))


def _axis_scales(m: Matrix) -> tuple[float, float]:
    return (m[0] ** 2 + m[1] ** 2) ** 0.5, (m[2] ** 2 + m[3] ** 2) ** 0.5


def _refusal(message: str) -> SvgValueError:
    """A problem of the piece, at the field that named the file (the renderer places SvgValueErrors)."""
    exc = SvgValueError("", "")
    exc.args = (message,)
    return exc


def svg_art(path: Path):  # -> reportlab Drawing | None
    """An SVG art file read by svglib; None when it is not SVG it can read."""
    from svglib.svglib import svg2rlg

    try:
        return svg2rlg(str(path))
    except Exception:  # noqa: BLE001 - svglib raises whatever its XML and CSS readers raise
        return None


def _asset_key(path: str) -> str:
    """Art is named by its content, not its path: the same art gives the same PDF wherever printkit lives.
    Cached by the file's size and modification time too, so an edited file is read afresh (watch mode)."""
    info = Path(path).stat()
    return _content_key(path, info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=256)
def _content_key(path: str, size: int, mtime_ns: int) -> str:
    return "a" + hashlib.sha1(Path(path).read_bytes()).hexdigest()[:16]
