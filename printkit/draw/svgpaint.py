"""How a shape is painted, read from its inherited style: fill and stroke colours with their alphas,
dashes, caps, joins, and the fill rule written to the PDF.

Every value is read before anything is drawn, so a value that cannot be read changes nothing on the page.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

from .svgvalues import RGB, keyword, number, numbers, opacity, paint, style_attr

INHERITED = ("fill", "stroke", "stroke-width", "font-family", "font-size", "font-weight", "font-style",
             "text-anchor", "fill-opacity", "stroke-opacity", "stroke-dasharray", "stroke-linecap",
             "stroke-linejoin", "opacity", "fill-rule", "color", "stroke-miterlimit")
INHERITED_OR_STYLE = frozenset(INHERITED) | {"style"}


def own_style(attrib: dict[str, str], style: dict[str, str]) -> dict[str, str]:
    """An element's style: its parent's, with its own presentation attributes and style attribute over it.
    The parent's very dict when the element sets none (compiled shapes are keyed by it)."""
    if INHERITED_OR_STYLE.isdisjoint(attrib):
        return style
    own = dict(style)
    for k in INHERITED:
        if k in attrib and attrib[k] != "inherit":
            own[k] = attrib[k]
    if "style" in attrib:
        own.update((k, v) for k, v in style_attr(attrib["style"]).items() if v != "inherit")
    return own


CAPS, JOINS = ("butt", "round", "square"), ("miter", "round", "bevel")
STATE_KEYS = ("opacity", "fill-opacity", "stroke-opacity", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
               "stroke-miterlimit")


class Paint(NamedTuple):
    """A shape's fill and stroke as drawn: colours, alphas (opacity x fill-/stroke-opacity x colour alpha)."""

    fill: RGB | None
    stroke: RGB | None
    fill_alpha: float
    stroke_alpha: float
    dash: tuple[float, ...]
    miter: float
    style: dict[str, str]

    @property
    def stateful(self) -> bool:
        """Drawing it sets graphics states (transparency) besides colours and lines."""
        return self.fill_alpha < 1 or self.stroke_alpha < 1


def paint_of(style: dict[str, str]) -> Paint:
    current = style.get("color")
    fill, fill_alpha = _colour_alpha(style.get("fill"), current)
    stroke, stroke_alpha = _colour_alpha(style.get("stroke"), current)
    whole = opacity(style["opacity"]) if "opacity" in style else 1.0
    fill_alpha *= whole * (opacity(style["fill-opacity"]) if "fill-opacity" in style else 1.0)
    stroke_alpha *= whole * (opacity(style["stroke-opacity"]) if "stroke-opacity" in style else 1.0)
    dash_value = style.get("stroke-dasharray")
    dash = numbers(dash_value, "a dash array (lengths, or none)") if dash_value and dash_value != "none" else ()
    for k, allowed in (("stroke-linecap", CAPS), ("stroke-linejoin", JOINS), ("fill-rule", FILL_RULES)):
        if k in style:
            keyword(style[k], allowed, k)
    miter = number(style["stroke-miterlimit"]) if "stroke-miterlimit" in style else 4.0
    return Paint(fill, stroke, fill_alpha, stroke_alpha, dash, miter, style)


def _colour_alpha(value: str | None, current: str | None) -> tuple[RGB | None, float]:
    if value is None:
        return None, 1.0
    if value.strip() == "currentColor":
        return _colour_alpha(current or "#000000", None)
    return paint(value)


FILL_RULES = ("nonzero", "evenodd")


def fill_mode(style: dict[str, str], agree: Callable[[str], bool], geometry: str) -> int:
    """The PDF fill rule. Where both rules fill the same area (no crossing, no loop inside another)
    ReportLab's default (even-odd) is kept, so such shapes are written as they always were."""
    if style.get("fill-rule", "nonzero") == "evenodd" or agree(geometry):
        return FILL_EVEN_ODD
    return FILL_NON_ZERO


