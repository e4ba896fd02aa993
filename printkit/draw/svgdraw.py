"""Draw a filled SVG template straight onto a ReportLab canvas, in vector form.

Templates are SVG in millimetres (viewBox = the piece's trim box, y down). This renderer
handles what templates use (g, a, svg, rect, circle, ellipse, line, polyline, polygon, path,
text, image, use, defs, clipPath; `templates/check` says what is accepted) without building an
intermediate drawing, which is what makes per-card drawing cheap. SVG art files referenced by
<image> go through svglib once each and are reused as form XObjects, as are groups marked
`data-form`. A template's SVG is checked when it renders; what a compiled plan fills in per piece
is read here, and a value that cannot be read becomes a problem of that piece, not a crash.

Engine attributes on <text>: data-w (box width; one line shrinks to fit), data-h (box height:
wrapped, with **bold**/*italic* markup), data-min (smallest size, pt), data-align,
data-valign, data-field (the content field, for error messages), data-raw (no typography).
"""
from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

from . import text as T
from .compile import TOKEN_RE, substitute
from .pdftext import TextOps
from .media.images import ITEM_HREF, Images, end_form
from .svgrefs import XLINK_HREF, References
from .svgtext import Context, TextDrawing, TextProblem  # noqa: F401 - re-exported: pages and pdf draw with them
from .svgpaint import CAPS, INHERITED_OR_STYLE, JOINS, STATE_KEYS, Paint, fill_mode, own_style, paint_of
from .svgvalues import (FLAT, IDENTITY, Matrix, SvgValueError, length, multiply, numbers, parse_svg, parse_transform, path_ops,
                        points, rules_agree_on_path, rules_agree_on_points, style_attr)

SVG_NS = "{http://www.w3.org/2000/svg}"
# read-only: a drawing's root style, and (by identity) the cache key of nodes drawn in it
DEFAULT_STYLE = MappingProxyType({"fill": "#000000", "stroke": "none", "stroke-width": "0.25", "font-size": "10pt",
                                  "font-family": T.DEFAULT_FAMILY, "text-anchor": "start"})


class Renderer(TextDrawing, References, Images):
    """Draws parsed SVG elements on a canvas whose current unit is mm with y pointing down."""

    def __init__(self, canvas: Canvas, asset_path: Callable[[str], Path | None]):
        self.canvas = canvas
        self.asset_path = asset_path
        # forms are the document's: every renderer drawing on one canvas defines each once (figures, icons in text)
        self._forms: dict[str, str] = canvas.__dict__.setdefault("_printkit_forms", {})
        # static shapes compile once to PDF operators, replayed for every piece that repeats them
        self._compiled: dict[tuple, list[str]] = {}
        # placeholders by element of compiled plans (plans live as long as the build, so ids are stable)
        self._dynamic: dict[int, int] = {}
        # text of one piece goes into one text block, written out before anything else is drawn
        self._text_ops = TextOps(canvas)
        self._root: ET.Element | None = None  # the document being drawn, for <use> and clip paths

    def _flush(self) -> None:
        self._text_ops.flush()

    # ------------------------------------------------------------ entry points
    def draw_svg(self, svg: str, ctx: Context) -> None:
        self.draw_tree(parse_svg(svg), ctx)

    def draw_tree(self, root: ET.Element, ctx: Context) -> None:
        """Draw a parsed SVG; with ctx.values, its placeholders are filled as it is walked."""
        outer, self._root = self._root, root
        view = IDENTITY
        try:  # a drawing in other user units than mm (an Inkscape page in px): its width and height in mm say the scale
            view = _view(root)
        except (SvgValueError, IndexError, ZeroDivisionError):
            pass  # the template's check reports it
        scaled = max(abs(a - b) for a, b in zip(view, IDENTITY)) > 1e-9
        if scaled:
            self.canvas.saveState()
            self.canvas.transform(*view)
        try:
            self._children(root, own_style(root.attrib, DEFAULT_STYLE), view if scaled else IDENTITY, ctx)
        except SvgValueError as exc:  # the root's own style: the template's check reports it
            ctx.problems.append(TextProblem("svg", str(exc)))
        finally:
            self._root = outer
        self._flush()
        if scaled:
            self.canvas.restoreState()

    def form_for(self, svg: str, bbox: tuple[float, float, float, float], ctx: Context) -> str:
        """A form XObject of a whole SVG (a shared card back), made once per distinct SVG."""
        key = "svg" + hashlib.sha1(svg.encode()).hexdigest()[:16]
        if key not in self._forms:
            self.canvas.beginForm(key, *bbox)
            self.draw_svg(svg, ctx)
            end_form(self.canvas, key)
            self._forms[key] = key
        return key

    # ------------------------------------------------------------ tree walk
    def _children(self, node: ET.Element | list[ET.Element], style: dict[str, str], m: Matrix, ctx: Context) -> None:
        for child in node:
            tag = _short(child.tag)
            handler = _HANDLERS.get(tag)
            if handler is None:
                continue  # not drawn: metadata, other namespaces, defs; the template's check refused the rest
            try:
                self._child(child, tag, handler, style, m, ctx)
            except SvgValueError as exc:  # a value a plan filled in for this piece
                ctx.problems.append(TextProblem(_field_of(child), str(exc)))

    def _child(self, child: ET.Element, tag: str, handler: Callable[..., None], style: dict[str, str], m: Matrix,
               ctx: Context) -> None:
        text_override = None
        if ctx.values is not None:
            dynamic = self._dynamic_kind(child)
            if dynamic == _TEXT_ONLY:
                text_override = substitute(child.text, ctx.values)
            elif dynamic:
                child = _fill_element(child, ctx.values)
        attrib = child.attrib
        own = style if INHERITED_OR_STYLE.isdisjoint(attrib) else own_style(attrib, style)
        if own.get("display") == "none" or attrib.get("display") == "none":
            return
        transform = attrib.get("transform")
        clip = attrib.get("clip-path")
        if transform or clip:
            t = parse_transform(transform) if transform else IDENTITY
            self._flush()
            self.canvas.saveState()
            try:
                if transform:
                    self.canvas.transform(*t)
                if clip:
                    self._clip(clip)
                if text_override is not None:
                    self._text(child, own, multiply(m, t), ctx, text_override)
                else:
                    handler(self, child, own, multiply(m, t), ctx)
                self._flush()
            finally:
                self.canvas.restoreState()
        elif tag in _STATIC:
            self._static(tag, child, own, m, ctx, handler)
        elif text_override is not None:
            self._text(child, own, m, ctx, text_override)
        else:
            handler(self, child, own, m, ctx)

    def _dynamic_kind(self, node: ET.Element) -> int:
        """Where an element of a compiled plan carries placeholders (remembered per element)."""
        found = self._dynamic.get(id(node))
        if found is None:
            in_attrib = any("\ue000" in v for v in node.attrib.values())
            in_text = "\ue000" in (node.text or "") and (len(node) == 0 or node.get(FLAT) is not None)
            found = _FILLED if in_attrib else _TEXT_ONLY if in_text and node.tag.endswith("text") else 0
            token = TOKEN_RE.search(node.text or "") if found == _TEXT_ONLY and "data-field" not in node.attrib else None
            if token:  # the field a problem of this text names (the plan's element, the same for every piece)
                node.set("data-field", token.group(1))
            self._dynamic[id(node)] = found
        return found

    def _static(self, tag: str, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context,
                handler: Callable[..., None]) -> None:
        """Draw a shape from its compiled PDF operators, compiling it the first time it is seen."""
        self._flush()
        key = (tag, tuple(node.attrib.items()), 0 if style is DEFAULT_STYLE else tuple(style.items()))
        ops = self._compiled.get(key)
        code = self.canvas._code  # noqa: SLF001 - the canvas's operator list; replaying it is the point
        if ops is not None:
            code.extend(ops)
            return
        start = len(code)
        handler(self, node, style, m, ctx)
        # a shape that set a graphics state (transparency) registered a page resource: not replayed
        if not any(op.endswith(" gs") for op in code[start:]):
            if len(self._compiled) > 50000:
                self._compiled.clear()
            self._compiled[key] = code[start:]

    def _group(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        form = node.get("data-form")
        if form is None:
            self._children(node, style, m, ctx)
            return
        self._flush()
        body = ET.tostring(node)
        key = "g" + hashlib.sha1(body + repr(sorted(style.items())).encode()).hexdigest()[:16]
        if key not in self._forms:
            self.canvas.beginForm(key, -2000, -2000, 2000, 2000)
            self._children(node, style, IDENTITY, Context(ctx.lang, None, ctx.problems))
            self._flush()  # the group's text belongs in the form, not on the page of the piece that defined it
            end_form(self.canvas, key)
            self._forms[key] = key
        self.canvas.doForm(key)

    def _nested(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        """A nested <svg x y width height viewBox> places another drawing (a face on a standee), clipped to its
        viewport as SVG clips it (unless overflow="visible"): a face's bleed stays off its neighbour."""
        x, y = length(node.get("x")), length(node.get("y"))
        t = multiply((1.0, 0.0, 0.0, 1.0, x, y), _view(node))
        overflow = node.get("overflow") or style_attr(node.get("style") or "").get("overflow", "hidden")
        box = (x, y, length(node.get("width")), length(node.get("height"))) if node.get("width") and node.get("height") else None
        self._flush()
        self.canvas.saveState()
        try:
            if overflow.strip() not in ("visible", "auto") and box:
                path = self.canvas.beginPath()
                path.rect(*box)
                self.canvas.clipPath(path, stroke=0, fill=0)
            self.canvas.transform(*t)
            self._children(node, style, multiply(m, t), ctx)
            self._flush()
        finally:
            self.canvas.restoreState()

    # ------------------------------------------------------------ paint
    def _paint(self, paint_: Paint) -> None:
        c = self.canvas
        fill, stroke, style = paint_.fill, paint_.stroke, paint_.style
        if fill:
            c.setFillColorRGB(*fill)
            if paint_.fill_alpha < 1:
                c.setFillAlpha(paint_.fill_alpha)
        if stroke:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(length(style.get("stroke-width"), 0.25))
            if paint_.stroke_alpha < 1:
                c.setStrokeAlpha(paint_.stroke_alpha)
            if paint_.dash:
                c.setDash(list(paint_.dash))
            cap = style.get("stroke-linecap")
            if cap:
                c.setLineCap(CAPS.index(cap))
            join = style.get("stroke-linejoin")
            if join:
                c.setLineJoin(JOINS.index(join))
            if "stroke-miterlimit" in style:
                c.setMiterLimit(paint_.miter)

    def _shape(self, style: dict[str, str], draw: Callable[[int, int], None]) -> None:
        paint_ = paint_of(style)  # read every value before the state changes: a refused one changes nothing
        needs_state = paint_.stateful or any(k in style for k in STATE_KEYS)
        if needs_state:
            self.canvas.saveState()
        self._paint(paint_)
        if paint_.fill or paint_.stroke:
            draw(int(bool(paint_.stroke)), int(bool(paint_.fill)))
        if needs_state:
            self.canvas.restoreState()

    def _rect(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        x, y = length(node.get("x")), length(node.get("y"))
        w, h = length(node.get("width")), length(node.get("height"))
        rx = length(node.get("rx") or node.get("ry"))
        if rx:
            self._shape(style, lambda s, f: self.canvas.roundRect(x, y, w, h, rx, stroke=s, fill=f))
        else:
            self._shape(style, lambda s, f: self.canvas.rect(x, y, w, h, stroke=s, fill=f))

    def _circle(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        cx, cy, r = length(node.get("cx")), length(node.get("cy")), length(node.get("r"))
        self._shape(style, lambda s, f: self.canvas.circle(cx, cy, r, stroke=s, fill=f))

    def _ellipse(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        cx, cy = length(node.get("cx")), length(node.get("cy"))
        rx, ry = length(node.get("rx")), length(node.get("ry"))
        self._shape(style, lambda s, f: self.canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=s, fill=f))

    def _line(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        x1, y1, x2, y2 = (length(node.get(k)) for k in ("x1", "y1", "x2", "y2"))
        style = {**style, "fill": "none"}
        self._shape(style, lambda s, f: self.canvas.line(x1, y1, x2, y2) if s else None)

    def _poly(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        value = node.get("points") or ""
        pts = points(value)
        if not pts:
            return
        closed = node.tag.endswith("polygon")
        mode = fill_mode(style, rules_agree_on_points, value)

        def draw(s: int, f: int) -> None:
            p = self.canvas.beginPath()
            p.moveTo(*pts[0])
            for pt in pts[1:]:
                p.lineTo(*pt)
            if closed:
                p.close()
            self.canvas.drawPath(p, stroke=s, fill=f if closed else 0, fillMode=mode)

        if not closed:
            style = {**style, "fill": "none"}
        self._shape(style, draw)

    def _path(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context) -> None:
        d = node.get("d") or ""
        ops = path_ops(d)
        if not ops:
            return
        mode = fill_mode(style, rules_agree_on_path, d)

        def draw(s: int, f: int) -> None:
            p = self.canvas.beginPath()
            for op, args in ops:
                getattr(p, op)(*args)
            self.canvas.drawPath(p, stroke=s, fill=f, fillMode=mode)

        self._shape(style, draw)


def _view(node: ET.Element) -> Matrix:
    """An <svg>'s viewBox onto its width and height (in mm)."""
    box = numbers(node.get("viewBox") or "", "a viewBox (x y width height)")
    if len(box) == 4 and node.get("width") and node.get("height"):
        sx, sy = length(node.get("width")) / box[2], length(node.get("height")) / box[3]
        return (sx, 0.0, 0.0, sy, -box[0] * sx, -box[1] * sy)
    return IDENTITY


def _fill_element(node: ET.Element, values: dict[str, str]) -> ET.Element:
    """A copy of an element with its placeholders replaced; its children are shared, not copied."""
    attrib = {k: substitute(v, values) if "\ue000" in v else v for k, v in node.attrib.items()}
    href = node.get("href") or node.get(XLINK_HREF) or ""
    if "\ue000" in href:  # a picture an item names: its resolution is checked as it is drawn
        attrib[ITEM_HREF] = TOKEN_RE.search(href).group(1) if TOKEN_RE.search(href) else "image"
    copy = ET.Element(node.tag, attrib)
    text = node.text
    copy.text = substitute(text, values) if text and "\ue000" in text else text
    copy.extend(list(node))
    return copy


_TEXT_ONLY, _FILLED = 1, 2


def _field_of(node: ET.Element) -> str:
    """The content field a piece's problem names: a placeholder's field, or the text's data-field."""
    for value in node.attrib.values():
        found = TOKEN_RE.search(value)
        if found:
            return found.group(1)
    return node.get("data-field", "svg")


@lru_cache(maxsize=256)
def _short(tag: str) -> str:
    """A tag without its namespace."""
    return tag.rsplit("}", 1)[-1]


_STATIC = frozenset({"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"})

_HANDLERS: dict[str, Callable[..., None]] = {
    "g": Renderer._group, "a": Renderer._group, "svg": Renderer._nested, "rect": Renderer._rect, "circle": Renderer._circle,
    "ellipse": Renderer._ellipse, "line": Renderer._line, "polyline": Renderer._poly,
    "polygon": Renderer._poly, "path": Renderer._path, "text": Renderer._text, "image": Renderer._image,
    "use": Renderer._use,
}
