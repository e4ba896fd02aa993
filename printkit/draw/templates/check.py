"""What printkit reads of a template's SVG, checked once when the template renders.

Every element printkit draws and every attribute it reads is listed here with the reader of its value
(the same functions the renderer uses). An element or attribute of another namespace (Inkscape's,
Sodipodi's, RDF metadata) is ignored, as are <title>, <desc>, <metadata> and `data-*` attributes the
engine does not read. Anything else in SVG that printkit does not draw, and any value it cannot
read, is a finding: refused with its place, never silently dropped or drawn as something else.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import text as T
from ..svgpaint import CAPS, FILL_RULES, JOINS
from ..svgtext import text_colour
from ..svgrefs import CLIP_SHAPES, XLINK_HREF, clip_id, href_of, ids, image_problem
from ..media import ASPECTS, is_raster
from ..media.images import GOOD_DPI, MIN_DPI, coarse, image_dpi, low_dpi
from .inkscape import REFUSED, WAS
from ..svgvalues import (IDENTITY, Matrix, SvgValueError, keyword, multiply, length, number, numbers, opacity, paint, parse_transform,
                         path_ops, points, style_attr)

SVG = "http://www.w3.org/2000/svg"
Reader = Callable[[str], object]


@dataclass(frozen=True)
class Finding:
    """Something in a rendered SVG printkit cannot draw: the element (its index in document order),
    the attribute when it is one, and `expected …, found …`."""

    index: int
    attr: str | None
    message: str
    tag: str | None = None
    note: bool = False  # not a refusal: worth knowing (an image under 300 dpi), listed in the fit report


# what Inkscape writes in its styles that changes nothing printkit draws, at the values that change nothing
INKSCAPE_NEUTRAL = (
    *((k, ("normal",)) for k in ("font-variant", "font-variant-ligatures", "font-variant-caps", "font-variant-numeric",
                                 "font-variant-east-asian", "font-feature-settings", "font-variation-settings",
                                 "font-stretch", "mix-blend-mode")),
    *((k, ("0", "0px", "normal")) for k in ("letter-spacing", "word-spacing", "stroke-dashoffset")),
    ("writing-mode", ("lr-tb", "lr", "horizontal-tb")), ("direction", ("ltr",)), ("white-space", ("normal", "pre", "pre-wrap", "pre-line")),
    ("text-decoration", ("none",)), ("text-decoration-line", ("none",)), ("text-transform", ("none",)),
    ("baseline-shift", ("baseline", "0")), ("-inkscape-stroke", ("none", "hairline")), ("visibility", ("visible",)),
    ("isolation", ("auto",)), ("vector-effect", ("none",)), ("overflow", ("visible",)),
    *((k, ("none",)) for k in ("marker", "marker-start", "marker-mid", "marker-end", "filter")),
    ("enable-background", ("accumulate",)), ("text-orientation", ("mixed",)), ("dominant-baseline", ("auto",)),
)


def _keywords(*allowed: str) -> Reader:
    return lambda value: keyword(value.strip(), allowed, "one of")


def _colour(value: str) -> object:
    return None if value.strip() == "currentColor" else paint(value)


def _dashes(value: str) -> object:
    return None if value.strip() == "none" else numbers(value, "a dash array (lengths, or none)")


def _family(value: str) -> object:
    if T.resolve_family(value) is None:
        raise SvgValueError(f"a font family printkit has ({', '.join(T.families())}) or one game.yaml's font_map "
                            "maps", value.split(",")[0].strip().strip("'\""))
    return None


def _paint_order(value: str) -> object:
    """Fill before stroke (as printkit paints): Inkscape writes `stroke fill markers` to paint the stroke under."""
    words = value.split()
    if not set(words) <= {"normal", "fill", "stroke", "markers"} or "stroke" in words and (
            "fill" not in words or words.index("stroke") < words.index("fill")):
        raise SvgValueError("paint-order with fill before stroke (normal)", value)
    return None


def _at_least_one(value: str) -> object:
    if number(value) < 1:
        raise SvgValueError("a number of at least 1", value)
    return None


def _any(value: str) -> object:
    return None


PRESENTATION: dict[str, Reader] = {
    "fill": _colour, "stroke": _colour, "color": _colour, "fill-opacity": opacity, "stroke-opacity": opacity,
    "opacity": opacity, "fill-rule": _keywords(*FILL_RULES), "stroke-width": length, "stroke-dasharray": _dashes,
    "stroke-linecap": _keywords(*CAPS), "stroke-linejoin": _keywords(*JOINS), "stroke-miterlimit": _at_least_one,
    "font-family": _family, "font-size": length, "text-anchor": _keywords("start", "middle", "end"),
    "font-weight": _keywords("normal", "bold", "bolder", "lighter", *(str(w) for w in range(100, 1000, 100))),
    "font-style": _keywords("normal", "italic", "oblique"),
}
# read in a style attribute only, where Inkscape writes them (templates.inkscape reads the text ones)
STYLE_ONLY: dict[str, Reader] = {
    **{name: _keywords(*allowed) for name, allowed in (("text-align", ("start", "left", "center", "middle", "end", "right")),
                                                      *INKSCAPE_NEUTRAL)},
    "line-height": _any, "-inkscape-font-specification": _any, "shape-inside": _any, "shape-padding": length,
    "paint-order": lambda v: _paint_order(v),
}
COMMON: dict[str, Reader] = {"id": _any, "class": _any, "transform": parse_transform, "clip-path": clip_id,
                             "display": _keywords("inline", "block", "none"), "clip-rule": _keywords(*FILL_RULES),
                             **PRESENTATION}
_XY = {"x": length, "y": length}
_BOX = {**_XY, "width": length, "height": length}
ELEMENTS: dict[str, dict[str, Reader]] = {
    "svg": {**_BOX, "viewBox": lambda v: _box(v), "version": _any, "baseProfile": _any,
            "preserveAspectRatio": _keywords("xMidYMid meet"), "overflow": _keywords("hidden", "visible", "auto", "scroll")},
    "g": {"data-form": _any}, "a": {"href": _any, "target": _any}, "defs": {},
    "clipPath": {"clipPathUnits": _keywords("userSpaceOnUse")},
    "rect": {**_BOX, "rx": length, "ry": length}, "circle": {"cx": length, "cy": length, "r": length},
    "ellipse": {"cx": length, "cy": length, "rx": length, "ry": length},
    "line": {"x1": length, "y1": length, "x2": length, "y2": length},
    "polyline": {"points": points}, "polygon": {"points": points}, "path": {"d": path_ops},
    "text": {**_XY, "fill": lambda v: text_colour(v, None) if v.strip() != "currentColor" else None, "data-w": length, "data-h": length, "data-min": number, "data-field": _any, "data-raw": _any,
             "data-align": _keywords("left", "center", "right"), "data-valign": _keywords("top", "middle", "bottom")},
    "image": {**_BOX, "href": _any, "preserveAspectRatio": _keywords(*ASPECTS)},
    "use": {**_BOX, "href": _any},
}
IGNORED = frozenset({"title", "desc", "metadata"})  # words about the drawing, not drawn


def _box(value: str) -> object:
    box = numbers(value, "a viewBox (x y width height)")
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise SvgValueError("a viewBox (x y width height, a positive size)", value)
    return box


def check(root: ET.Element, asset: Callable[[str], Path | None]) -> list[Finding]:
    """Every finding in a parsed SVG, in document order."""
    if _name(root) != "svg":
        return [Finding(0, None, f"expected an <svg> root element, found <{_name(root) or root.tag}>")]
    index = {id(el): i for i, el in enumerate(root.iter())}
    found: list[Finding] = []
    _walk(root, index, _Ids(root), asset, found)
    return found


class _Ids:
    """The document's elements by id, gathered on first use (most templates name none)."""

    def __init__(self, root: ET.Element):
        self.root, self.table = root, None

    def get(self, ref: str) -> ET.Element | None:
        if self.table is None:
            self.table = ids(self.root)
        return self.table.get(ref)


def _name(el: ET.Element) -> str | None:
    """An element's SVG name; None when it belongs to another namespace."""
    ns, _, local = el.tag.rpartition("}")
    return local if ns in ("", "{" + SVG) else None


def _walk(el: ET.Element, index: dict[int, int], by_id: _Ids, asset: Callable[[str], Path | None],
          found: list[Finding], m: Matrix = IDENTITY) -> None:
    tag = _name(el)
    if tag is None or tag in IGNORED:
        return
    at = index[id(el)]
    if tag not in ELEMENTS:
        found.append(Finding(at, None, f"expected an SVG element printkit draws ({', '.join(sorted(ELEMENTS))}), "
                                       f"found <{tag}>", tag))
        return
    was = el.get(WAS)  # an Inkscape text made plain: its problems name the element as written
    found += [Finding(f.index, f.attr, f.message.replace(f"<{tag}>", f"<{was}>"), was, f.note) if was else f
              for f in _attributes(el, tag, at)]
    if el.get(REFUSED):  # an Inkscape text printkit cannot make plain
        found.append(Finding(at, None, el.get(REFUSED), was or tag))
    m = _drawn_by(el, tag, m, at)
    if tag in ("use", "image") or "clip-path" in el.attrib:
        found += _references(el, tag, at, by_id, asset, m)
    for child in el:
        child_tag = _name(child)
        if tag == "text" and child_tag is not None:
            found.append(Finding(index[id(child)], None, f"expected text without elements in it, found <{child_tag}> "
                                                         "in <text>", child_tag))
        elif tag == "clipPath" and child_tag is not None and child_tag not in CLIP_SHAPES | IGNORED:
            found.append(Finding(index[id(child)], None, f"expected shapes in <clipPath> "
                                                         f"({', '.join(sorted(CLIP_SHAPES))}), found <{child_tag}>", child_tag))
        elif tag == "clipPath" and child.get("transform"):
            found.append(Finding(index[id(child)], "transform", "expected a clip path shape without transform, "
                                                                f"found {child.get('transform')!r}", child_tag))
        else:
            _walk(child, index, by_id, asset, found, m)


def _attributes(el: ET.Element, tag: str, at: int) -> list[Finding]:
    own = ELEMENTS[tag]
    out = []
    for name, value in el.attrib.items():
        if name.startswith("{"):
            reader = own.get("href") if name == XLINK_HREF else _any  # other namespaces: not printkit's
        elif name == "style":
            out += _style(value, tag, at)
            continue
        else:
            reader = own.get(name) or COMMON.get(name) or (_any if name.startswith("data-") else None)
        if reader is None:
            out.append(Finding(at, name, f"expected an attribute printkit draws on <{tag}>, found {name!r}", tag))
            continue
        if "\ue000" in value or (name in PRESENTATION and value.strip() == "inherit"):
            continue  # a compiled plan's placeholder is read per piece, when it is filled
        try:
            reader(value)
        except SvgValueError as exc:
            out.append(Finding(at, name, f"expected {exc.expected} in {name} of <{tag}>, found {exc.found!r}", tag))
    return out


def _style(value: str, tag: str, at: int) -> list[Finding]:
    try:
        declarations = style_attr(value)
    except SvgValueError as exc:
        return [Finding(at, "style", f"expected {exc.expected} in style of <{tag}>, found {exc.found!r}", tag)]
    out = []
    for name, v in declarations.items():
        reader = PRESENTATION.get(name) or STYLE_ONLY.get(name) or (COMMON.get(name) if name == "display" else None)
        if reader is None:
            out.append(Finding(at, "style", f"expected a style property printkit draws on <{tag}>, found {name!r}", tag))
            continue
        try:
            if v != "inherit":
                reader(v)
        except SvgValueError as exc:
            out.append(Finding(at, "style", f"expected {exc.expected} in style {name} of <{tag}>, found {exc.found!r}", tag))
    return out


def _drawn_by(el: ET.Element, tag: str, m: Matrix, at: int) -> Matrix:
    """The matrix an element's content is drawn with: its transform, and a nested <svg>'s scale (the root's
    viewBox is the piece itself). A value that cannot be read is reported with its attribute."""
    try:
        transform = el.get("transform")
        if transform and "\ue000" not in transform:
            m = multiply(m, parse_transform(transform))
        box = el.get("viewBox")
        if tag == "svg" and at > 0 and box and el.get("width") and el.get("height") and "\ue000" not in box:
            vb = numbers(box, "a viewBox")
            m = multiply(m, (length(el.get("width")) / vb[2], 0.0, 0.0, length(el.get("height")) / vb[3], 0.0, 0.0))
    except (SvgValueError, IndexError, ZeroDivisionError):
        pass
    return m


def _resolution(el: ET.Element, href: str, path: Path | None, m: Matrix, at: int, attr: str) -> list[Finding]:
    """A raster image printed under 150 dpi is refused; under 300 dpi it is a note for the fit report."""
    if path is None or not is_raster(path) or any("\ue000" in (el.get(k) or "") for k in ("width", "height")):
        return []
    try:
        dpi = image_dpi(el, path, m)
    except SvgValueError:
        return []  # reported with its attribute
    if dpi is None or dpi >= GOOD_DPI:
        return []
    if dpi < MIN_DPI:
        return [Finding(at, attr, low_dpi(href, dpi, path), "image")]
    return [Finding(at, attr, coarse(href, dpi, path), "image", note=True)]


def _references(el: ET.Element, tag: str, at: int, by_id: _Ids,
                asset: Callable[[str], Path | None], m: Matrix = IDENTITY) -> list[Finding]:
    """What an element names must exist: a clip path, a <use>'s element (not one holding the <use>), a file."""
    out = []
    clip = el.get("clip-path")
    if clip and "\ue000" not in clip:
        try:
            ref = clip_id(clip)
        except SvgValueError:
            ref = None  # reported with the attribute
        target = by_id.get(ref) if ref is not None else None
        if ref is not None and (target is None or _name(target) != "clipPath"):
            out.append(Finding(at, "clip-path", f"expected the id of a <clipPath> in this SVG, found {clip!r}", tag))
    href = href_of(el)
    attr = "href" if el.get("href") is not None else XLINK_HREF
    if tag == "use":
        target = by_id.get(href[1:]) if href.startswith("#") else None
        if target is None:
            out.append(Finding(at, attr, f"expected '#id' of an element in this SVG, found {href!r}", tag))
        elif target is el or el in {d for d in target.iter()}:
            out.append(Finding(at, attr, f"expected an element outside the <use>, found {href!r} holding it", tag))
    elif tag == "image" and "\ue000" not in href:
        path = asset(href)
        problem = image_problem(href, path)
        if problem:
            out.append(Finding(at, attr, problem, tag))
        else:
            out += _resolution(el, href, path, m, at, attr)
    return out
