"""Text in SVG templates: one line shrunk to its width, or a box wrapped and fitted, inside the safe zone.

A mixin of the renderer: it needs the renderer's text operators (`_text_ops`) and nothing else.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from . import text as T
from ..content import typography
from .media.icons import Icons, mark, resolve, unknown, unmark
from .svgvalues import FLAT, IDENTITY, Matrix, SvgValueError, apply, length, paint


MIN_TEXT = 6 * T.PT  # the smallest text a piece or board prints, shrunk or not (mm)
ICON_HEIGHT = 0.7  # an inline icon's height in ems: the cap height of Barlow and Barlow Condensed


@dataclass(frozen=True)
class TextProblem:
    """Text that does not fit, leaves the safe zone, or uses a glyph the font lacks."""

    field: str
    message: str

    def __post_init__(self) -> None:  # a compiled plan's placeholder is shown as the template writes its field
        if "\ue000" in self.message:
            object.__setattr__(self, "message", re.sub("\ue000(\\w+)\ue001", r"{{ \1 }}", self.message))


@dataclass(frozen=True)
class Shrink:
    """Text printed smaller than its template's nominal size to fit its box (for the fit report)."""

    field: str
    nominal: float  # pt
    used: float  # pt


@dataclass
class Context:
    """Per-piece drawing state: language, safe zone, and where problems and shrunk texts go."""

    lang: str
    safe: tuple[float, float, float, float] | None  # x0, y0, x1, y1 in piece mm
    problems: list[TextProblem] = field(default_factory=list)
    values: dict[str, str] | None = None  # a compiled plan's printed values
    shrunk: list[Shrink] = field(default_factory=list)
    coarse: list[TextProblem] = field(default_factory=list)  # notes: pictures an item names, under 300 dpi


class TextDrawing:
    """Text elements of the renderer; an icon in text is drawn by the renderer's pictures (`_picture`)."""

    asset_path: Callable[[str], Path | None]
    _picture: Callable[..., bool]
    _text_ops: Any

    def _text(self, node: ET.Element, style: dict[str, str], m: Matrix, ctx: Context, raw: str | None = None) -> None:
        if raw is None:
            raw = node.text or "" if len(node) == 0 or node.get(FLAT) else "".join(node.itertext())
        field_name = node.get("data-field", "text")
        # icons first: typography must not touch the colons around an icon's name
        marked, names = mark(raw) if ":" in raw else (raw, ())
        content = marked if node.get("data-raw") else typography(marked, ctx.lang)
        icons: Icons | None = None
        if names:
            icons, missing_icons = resolve(content, names, self.asset_path, ICON_HEIGHT)
            if icons is None:
                ctx.problems += [TextProblem(field_name, unknown(n)) for n in missing_icons]
                return
            content_shown = unmark(content, names)  # messages quote the text as written
        else:
            content_shown = content
        family = T.resolve_family(style.get("font-family"))
        if family is None:  # the template's check names it at its place
            ctx.problems.append(TextProblem(field_name, f"expected a font family printkit has, found {style.get('font-family')!r}"))
            return
        family, base, size, fill = _text_style(family, style.get("font-weight"),
                                               style.get("font-style"), style.get("font-size"), style.get("fill"),
                                               style.get("color"))
        k = _printed(node, m)
        min_size = max(length(node.get("data-min") + "pt") / k if node.get("data-min") else size * 0.75, MIN_TEXT / k)
        if size * k < MIN_TEXT - 1e-6:
            ctx.problems.append(TextProblem(field_name, f"expected text of at least {MIN_TEXT / T.PT:g} pt, found "
                                                        f"{content_shown[:30]!r} at {size * k / T.PT:.1f} pt"))
        x, y = length(node.get("x")), length(node.get("y"))
        box_w = length(node.get("data-w")) if node.get("data-w") else None
        box_h = length(node.get("data-h")) if node.get("data-h") else None
        lacking = T.missing_style(family, base, content)
        if lacking:  # never drawn in another style of the family
            ctx.problems.append(TextProblem(field_name, f"expected a style the font {family} has, found {lacking}"))
            return
        letters = "".join(c for c in content if not T.is_icon(c)) if icons else content
        missing = T.missing_glyphs(letters.replace("*", ""), T.font_name(family, base))
        if missing:
            ctx.problems.append(TextProblem(field_name, f"expected glyphs the font {family} has, found {missing!r}"))
        if box_h is not None and box_w is not None:
            self._text_box(content, family, base, size, min_size, x, y, box_w, box_h, node, style, fill, m, ctx, field_name,
                           icons, content_shown)
            return
        font = T.font_name(family, base)
        widths = icons.widths if icons else ()
        w = T.runs_with_icons(content, font, size, widths)[-1][0] if icons else T.width(content, font, size)
        if box_w is not None and w > box_w + 1e-6:
            ctx.shrunk.append(Shrink(field_name, round(size * k / T.PT, 1), round(size * k * box_w / w / T.PT, 1)))
            size = size * box_w / w
            if size < min_size - 1e-6:
                ctx.problems.append(TextProblem(field_name, f"expected {content_shown!r} to fit {round(box_w * k, 2):g} mm at ≥ "
                                                            f"{min_size * k / T.PT:.1f} pt, found it needs {size * k / T.PT:.1f} pt"))
            w = T.runs_with_icons(content, font, size, widths)[-1][0] if icons else T.width(content, font, size)
        anchor = style.get("text-anchor", "start")
        x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
        self._check_safe(m, x0, y - size * 0.75, x0 + w, y + size * 0.22, ctx, field_name, content_shown)
        if icons is None:
            self._text_ops.show(font, size, fill, x0, y, content)
            return
        for dx, part, f in T.runs_with_icons(content, font, size, widths)[:-1]:
            self._show_or_icon(f, size, fill, x0 + dx, y, part, icons)

    def _show_or_icon(self, font: str, size: float, fill: tuple[float, float, float], x: float, baseline: float,
                      part: str, icons: Icons | None) -> None:
        """A run of text, or an icon standing on the baseline, cap high."""
        if icons is None or font != T.ICON_FONT:
            self._text_ops.show(font, size, fill, x, baseline, part)
            return
        k = ord(part) - T.ICON_BASE
        h = ICON_HEIGHT * size
        self._picture(icons.files[k], x, baseline - h, icons.widths[k] * size, h, None)

    def _text_box(self, content: str, family: str, base: str, size: float, min_size: float, x: float, y: float,
                  box_w: float, box_h: float, node: ET.Element, style: dict[str, str],
                  fill: tuple[float, float, float], m: Matrix, ctx: Context, field_name: str,
                  icons: Icons | None = None, shown: str = "") -> None:
        layout = T.fit(content, family, base, round(size, 4), round(min_size, 4), round(box_w, 4), round(box_h, 4),
                       **({"icons": icons.widths} if icons else {}))
        k = _printed(node, m)
        if layout is None:
            ctx.problems.append(TextProblem(field_name, f"expected the text to fit {round(box_w * k, 2):g} x "
                                                        f"{round(box_h * k, 2):g} mm at ≥ {min_size * k / T.PT:.1f} pt, found it overflows"
                                                        + _needs(content, family, base, min_size, box_w, box_h, icons, k)))
            return
        if layout.size < size - 1e-6:
            ctx.shrunk.append(Shrink(field_name, round(size * k / T.PT, 1), round(layout.size * k / T.PT, 1)))
        align = node.get("data-align") or {"middle": "center", "end": "right"}.get(style.get("text-anchor", ""), "left")
        valign = node.get("data-valign", "top")
        top = y + {"top": 0.0, "middle": (box_h - layout.height) / 2, "bottom": box_h - layout.height}.get(valign, 0.0)
        self._check_safe(m, x, top, x + box_w, top + layout.height, ctx, field_name, (shown or content)[:30])
        show = self._text_ops.show if icons is None else (
            lambda f, sz, fl, px, py, t: self._show_or_icon(f, sz, fl, px, py, t, icons))
        baseline = top + layout.size * 0.78
        for pieces, line_w in layout.lines:
            if line_w < 0:
                baseline += layout.leading * 0.5
                continue
            shift = {"center": (box_w - line_w) / 2, "right": box_w - line_w}.get(align, 0.0)
            for piece in pieces:
                show(piece.font, layout.size, fill, x + shift + piece.x, baseline, piece.text)
            baseline += layout.leading

    def _check_safe(self, m: Matrix, x0: float, y0: float, x1: float, y1: float, ctx: Context,
                    field_name: str, content: str) -> None:
        if ctx.safe is None:
            return
        sx0, sy0, sx1, sy1 = ctx.safe
        tol = 0.05
        if m is IDENTITY:
            if sx0 - tol <= x0 and x1 <= sx1 + tol and sy0 - tol <= y0 and y1 <= sy1 + tol:
                return
            corners = [(x0, y0), (x1, y1)]
        else:
            corners = [apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        if any(px < sx0 - tol or px > sx1 + tol or py < sy0 - tol or py > sy1 + tol for px, py in corners):
            ctx.problems.append(TextProblem(field_name, f"expected text inside the safe zone, found {content!r} outside it"))


def _needs(content: str, family: str, base: str, min_size: float, box_w: float, box_h: float,
           icons: Icons | None, k: float = 1.0) -> str:
    """What a text that overflows its box would need: the size it fits at (printed, `k` times the template's),
    as a designer reads it."""
    extra = {"icons": icons.widths} if icons else {}
    for pt in (x / 2 for x in range(int(min_size / T.PT * 2) - 1, 1, -1)):  # half points down to 1 pt
        if T.fit(content, family, base, round(pt * T.PT, 4), round(pt * T.PT, 4), round(box_w, 4), round(box_h, 4),
                 **extra) is not None:
            return f": it needs {round(pt * k, 1):g} pt, or about {round(100 * (1 - (pt * T.PT / min_size) ** 2))} % less text"
    return ""


def _printed(node: ET.Element, m: Matrix) -> float:
    """Printed size / size of an Inkscape text (drawn scaled: its flowed text is in px under scale(0.26458333)).
    Other texts keep their nominal sizes, as their templates are written (a figure scaled into a sheet)."""
    return abs(m[0] * m[3] - m[1] * m[2]) ** 0.5 or 1.0 if node.get(FLAT) else 1.0


@lru_cache(maxsize=1024)
def _text_style(family: str | None, weight: str | None, slant: str | None, size: str | None,
                fill: str | None, current: str | None) -> tuple[str, str, float, tuple[float, float, float]]:
    """Font family, style, size (mm) and fill of a text element, from its inherited style."""
    return family or T.DEFAULT_FAMILY, T.style_of(weight, slant), length(size, 10 * T.PT), text_colour(fill, current)


def text_colour(fill: str | None, current: str | None) -> tuple[float, float, float]:
    """Text prints in one opaque colour (black when none is given); other fills are refused, not dropped."""
    if fill is None:
        return 0.0, 0.0, 0.0
    rgb, alpha = paint(current or "#000000") if fill.strip() == "currentColor" else paint(fill)
    if rgb is None or alpha < 1:
        raise SvgValueError("an opaque text colour (text prints without transparency)", fill)
    return rgb
