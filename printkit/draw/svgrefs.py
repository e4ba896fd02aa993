"""References in an SVG: <use> of an element by id and clip paths (`clip-path="url(#id)"`) inside one
document, and the files <image> names.

A mixin of the renderer: it needs the renderer's canvas, its tree walk (`_children`) and the
document being drawn (`_root`). Elements under <defs> and <clipPath> are drawn only through a reference.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

from .media import RASTER_REFUSED, is_raster, pixel_size
from .svgvalues import Matrix, SvgValueError, length, multiply, path_ops, points

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
CLIP_URL = re.compile(r"\s*url\(\s*#([^)\s]+)\s*\)\s*")
CLIP_SHAPES = frozenset({"rect", "circle", "ellipse", "polygon", "polyline", "path"})


def href_of(node: ET.Element) -> str:
    return node.get("href") or node.get(XLINK_HREF) or ""


def image_problem(href: str, path: Path | None) -> str | None:
    """Why an <image> cannot be drawn: its file is not SVG art, a PNG, a JPEG or a WebP image in the template
    folders, or Pillow cannot read it; None when it can be drawn."""
    if href.lower().endswith(RASTER_REFUSED):
        return f"expected an SVG, PNG, JPEG or WebP file, found {href!r}"
    if path is None:
        return f"expected an image file (SVG, PNG, JPEG or WebP) in the template folders, found {href!r}"
    if is_raster(path) and pixel_size(path) is None:
        return f"expected a PNG, JPEG or WebP image that can be read, found {href!r}"
    return None


def clip_id(value: str) -> str | None:
    """The id a clip-path names; None for none; anything else is refused."""
    if value.strip() == "none":
        return None
    found = CLIP_URL.fullmatch(value)
    if not found:
        raise SvgValueError("a clip path (url(#id) or none)", value)
    return found.group(1)


def ids(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in root.iter() if el.get("id")}


class References:
    """<use> and clip paths, looked up in the document being drawn."""

    canvas: Any
    _root: ET.Element | None
    _ids: tuple[int, dict[str, ET.Element]] | None = None
    _using: frozenset[str] = frozenset()

    def _element(self, ref: str) -> ET.Element | None:
        if self._root is None:
            return None
        if self._ids is None or self._ids[0] != id(self._root):
            self._ids = (id(self._root), ids(self._root))
        return self._ids[1].get(ref)

    def _use(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Any) -> None:
        """The referenced element, drawn here with this element's style, moved by x and y."""
        href = href_of(node)
        target = self._element(href[1:]) if href.startswith("#") else None
        if target is None or href in self._using:  # the check reports both; never draw in circles
            return
        x, y = length(node.get("x")), length(node.get("y"))
        moved = bool(x or y)
        if moved:
            self._flush()
            self.canvas.saveState()
            self.canvas.translate(x, y)
            m = multiply(m, (1.0, 0.0, 0.0, 1.0, x, y))
        outer, self._using = self._using, self._using | {href}
        try:
            self._children([target], style, m, ctx)
        finally:
            self._using = outer
            if moved:
                self._flush()
                self.canvas.restoreState()

    def _clip(self, value: str) -> None:
        """Clip what follows (inside the caller's saved state) to the named clip path's shapes."""
        ref = clip_id(value)
        target = self._element(ref) if ref else None
        if target is None:
            return
        p = self.canvas.beginPath()
        evenodd = False
        for shape in target:
            tag = shape.tag.rsplit("}", 1)[-1]
            if tag in CLIP_SHAPES:
                _outline(p, tag, shape)
                evenodd = evenodd or (shape.get("clip-rule") or "") == "evenodd"
        self.canvas.clipPath(p, stroke=0, fill=0, fillMode=FILL_EVEN_ODD if evenodd else FILL_NON_ZERO)


def _outline(p: Any, tag: str, node: ET.Element) -> None:
    """A shape's outline added to a ReportLab path (for clipping)."""
    get = node.get
    if tag == "rect":
        rx = length(get("rx") or get("ry"))
        x, y, w, h = length(get("x")), length(get("y")), length(get("width")), length(get("height"))
        if rx:
            p.roundRect(x, y, w, h, rx)
        else:
            p.rect(x, y, w, h)
    elif tag == "circle":
        p.circle(length(get("cx")), length(get("cy")), length(get("r")))
    elif tag == "ellipse":
        cx, cy, rx, ry = length(get("cx")), length(get("cy")), length(get("rx")), length(get("ry"))
        p.ellipse(cx - rx, cy - ry, 2 * rx, 2 * ry)
    elif tag in ("polygon", "polyline"):
        pts = points(get("points") or "")
        if pts:
            p.moveTo(*pts[0])
            for pt in pts[1:]:
                p.lineTo(*pt)
            p.close()
    else:
        for op, args in path_ops(get("d") or ""):
            getattr(p, op)(*args)
