"""Text as a drawing program saves it (Inkscape 1.x), made into the text printkit draws, before a
template is checked and drawn.

Inkscape writes each line of a text as a `<tspan sodipodi:role="line" x y>`, a change of style inside
a line as a nested `<tspan style>`, and text flowed into a shape (SVG 2) as
`<text style="shape-inside:url(#id)">` whose tspans are the lines as Inkscape wrapped them. Here:

- a <text> whose lines are tspans becomes a <g> (its transform and style kept) holding one <text> per line;
- a flowed <text> becomes one text box (x, y, data-w, data-h) on the bounding box of its shape (after the
  shape's own transform, less shape-padding): its lines are joined and wrapped and fitted anew;
- in flowed text, a run whose weight or slant differs from the text's becomes **bold** or *italic*
  markup; any other change of style inside a text (family, size, colour) is refused, never dropped.

Nothing is removed: a tspan whose words moved into its <text> stays in the tree, renamed into another
namespace (not drawn, not checked), so every element keeps its place for error messages.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..svgvalues import NUMBER, FLAT, IDENTITY, SvgValueError, apply, length, numbers, parse_transform, path_ops, points, style_attr

MOVED = "{https://printkit.invalid/moved}"  # a tspan whose words its <text> now holds
WAS = "data-was"  # an element renamed here: the tag the template writes
REFUSED = "data-refused"  # what the template's check reports at the text: `expected …, found …`
SODIPODI_ROLE = "{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}role"
# what a run may not change inside a text; weight and slant become markup in flowed text
DRAWN = ("font-family", "font-size", "fill", "color", "text-anchor", "text-align", "opacity", "fill-opacity")
MARKUP = ("font-weight", "font-style")
ALIGN = {"start": "left", "left": "left", "center": "center", "middle": "center", "end": "right", "right": "right"}


def _local(el: ET.Element) -> str:
    ns, _, local = el.tag.rpartition("}")
    return local if ns in ("", "{http://www.w3.org/2000/svg") else ""


def _ns(el: ET.Element) -> str:
    return el.tag[:-len(_local(el))]


INKSCAPE_VERSION = "{http://www.inkscape.org/namespaces/inkscape}version"
# CSS's absolute units in user units (px), as SVG reads them; printkit's own templates read them on paper
_CSS = {"in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16.0}
_UNIT = re.compile(rf"\s*({NUMBER})(in|cm|mm|pt|pc|%)\s*")
_ACROSS = frozenset({"x", "width", "cx", "rx", "x1", "x2", "dx"})
_DOWN = frozenset({"y", "height", "cy", "ry", "y1", "y2", "dy"})
_LENGTHS = _ACROSS | _DOWN | {"r", "stroke-width", "font-size", "shape-padding"}


def flatten(root: ET.Element) -> ET.Element:
    """The parsed SVG with its Inkscape texts made plain (in place); a plain SVG is left as it is. A file
    Inkscape saved (its root has inkscape:version) has its lengths read as SVG reads them: 1 pt is 4/3 of
    a user unit (px), 1 mm 96/25.4, and % a share of the root's viewBox."""
    if root.get(INKSCAPE_VERSION) is not None:
        _svg_units(root)
    texts = [el for el in root.iter() if _local(el) == "text" and _inkscape(el)]
    if texts:
        by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
        for text in texts:
            try:
                _flatten(text, by_id)
            except SvgValueError as exc:  # refused at the text, its tspans no problem of their own
                text.set(REFUSED, str(exc))
                for child in text.iter():
                    if child is not text and _local(child) == "tspan":
                        child.tag = MOVED + "tspan"
    return root


def _svg_units(root: ET.Element) -> None:
    """Lengths with a unit in user units, as SVG reads them (the root's width and height are the page's own)."""
    try:
        box = numbers(root.get("viewBox") or "")
    except SvgValueError:
        box = ()
    w, h = (box[2], box[3]) if len(box) == 4 else (0.0, 0.0)
    shares = {"x": w, "y": h, "": ((w * w + h * h) / 2) ** 0.5}

    def user(name: str, value: str) -> str:
        found = _UNIT.fullmatch(value)
        if not found or name not in _LENGTHS or found.group(2) == "%" and (name == "font-size" or not w):
            return value
        n, unit = float(found.group(1)), found.group(2)
        share = shares["x" if name in _ACROSS else "y" if name in _DOWN else ""]
        return f"{n * share / 100 if unit == '%' else n * _CSS[unit]:.6g}"

    for el in root.iter():
        for name, value in list(el.attrib.items()):
            if el is root and name in ("width", "height"):
                continue
            if name == "style" and _UNIT.search(value):
                try:
                    decls = style_attr(value)
                except SvgValueError:
                    continue  # the template's check reports it
                el.set("style", ";".join(f"{k}:{user(k, v)}" for k, v in decls.items()))
            elif name in _LENGTHS:
                el.set(name, user(name, value))


def _inkscape(text: ET.Element) -> bool:
    return any(_local(c) == "tspan" for c in text) or "shape-inside" in (text.get("style") or "")


def _style(el: ET.Element) -> dict[str, str]:
    own = {k: v for k, v in el.attrib.items() if k in DRAWN + MARKUP}
    own.update(style_attr(el.get("style") or ""))
    return own


def _runs(el: ET.Element, style: dict[str, str], out: list[tuple[str, dict[str, str]]], gap: str = "") -> None:
    """The words of an element and of its tspans, each with its style (the element's over `style`);
    `gap` ends each of its own tspans (a flowed text's lines as Inkscape wrapped them)."""
    style = {**style, **_style(el)}
    out.append((el.text or "", style))
    for child in el:
        if _local(child) != "tspan":
            raise SvgValueError("only <tspan> in <text>", f"<{_local(child) or child.tag}>")
        _runs(child, style, out)
        out.append((gap, style))
        out.append((child.tail or "", style))


def _joined(runs: list[tuple[str, dict[str, str]]], markup: bool) -> tuple[str, dict[str, str]]:
    """A text's words, and its style: the element's own, with what all its words' tspans agree on over it;
    a run that differs becomes markup or is refused."""
    shown = [style for words, style in runs if words.strip()]
    if not shown:
        return "".join(words for words, _ in runs).strip(), runs[0][1] if runs else {}
    base = {**runs[0][1], **{k: v for k, v in shown[0].items() if all(s.get(k) == v for s in shown)}}
    parts = []
    for words, style in runs:
        for key in DRAWN + (() if markup else MARKUP):
            if words.strip() and style.get(key) != base.get(key):
                raise SvgValueError(f"one {key} in a text (bold and italic words in flowed text only)",
                                    f"{words.strip()!r} in {style.get(key) or 'another'}")
        mark = ""
        if markup and words.strip():
            mark = ("**" if _bold(style) != _bold(base) else "") + ("*" if _italic(style) != _italic(base) else "")
        lead, core, trail = words[:len(words) - len(words.lstrip())], words.strip(), words[len(words.rstrip()):]
        # whitespace between tspans is the file's layout, not the text's: one space at most
        parts.append(f"{lead}{mark}{core}{mark[::-1]}{trail}" if core else " " if words else "")
    return "".join(parts).strip(), base


def _bold(style: dict[str, str]) -> bool:
    return style.get("font-weight") in ("bold", "bolder", "600", "700", "800", "900")


def _italic(style: dict[str, str]) -> bool:
    return style.get("font-style") in ("italic", "oblique")


def _restyle(el: ET.Element, base: dict[str, str]) -> None:
    """The element's own style, with what its first words' tspans set over it."""
    own = {**style_attr(el.get("style") or ""), **{k: v for k, v in base.items() if k in DRAWN + MARKUP}}
    for k in DRAWN + MARKUP:
        el.attrib.pop(k, None)
    el.set("style", ";".join(f"{k}:{v}" for k, v in own.items()))


def _move(el: ET.Element) -> None:
    """An element's tspans, renamed out of SVG: its words are its own now."""
    for child in el.iter():
        if child is not el:
            child.tag = MOVED + _local(child)
    el.set(FLAT, "1")


def _flatten(text: ET.Element, by_id: dict[str, ET.Element]) -> None:
    style = _style(text)
    shape = style.get("shape-inside", "none").strip()
    if shape != "none":
        _flowed(text, shape, style, by_id)
        return
    tspans = [c for c in text if _local(c) == "tspan"]
    if not tspans:
        return
    lines = [c for c in tspans if c.get(SODIPODI_ROLE) == "line" or c.get("x") or c.get("y")]
    if len(lines) < len(tspans) or (text.text or "").strip() or len(lines) < len(text):
        runs: list[tuple[str, dict[str, str]]] = []  # one line, its words in tspans
        _runs(text, {}, runs)
        text.text, base = _joined(runs, markup=False)
        _restyle(text, base)
        _move(text)
        return
    _lines(text, lines)


def _lines(text: ET.Element, lines: list[ET.Element]) -> None:
    """A text of tspan lines: a group (the text's transform and style) of one text per line."""
    x, y, outer = text.get("x"), text.get("y"), _style(text)
    moved = {k: text.attrib.pop(k) for k in list(text.attrib) if k in ("x", "y", "dx", "dy") or k.startswith("data-")}
    text.tag = _ns(text) + "g"
    text.set(WAS, "text")
    y_at = length(y)
    for line in lines:
        y_at = length(line.get("y")) if line.get("y") else y_at + length(line.get("dy"))
        x_at = (length(line.get("x")) if line.get("x") else length(x)) + length(line.get("dx"))
        runs: list[tuple[str, dict[str, str]]] = []
        _runs(line, outer, runs)
        words, base = _joined(runs, markup=False)
        for k in ("x", "y", "dx", "dy"):
            line.attrib.pop(k, None)
        line.attrib.update({k: v for k, v in moved.items() if k.startswith("data-")})  # each line its box, its field
        line.set("x", f"{x_at:g}")
        line.set("y", f"{y_at:g}")
        _restyle(line, base)
        _move(line)
        line.text = words
        line.tag = _ns(text) + "text"
        line.set(WAS, "tspan")


def _flowed(text: ET.Element, shape: str, style: dict[str, str], by_id: dict[str, ET.Element]) -> None:
    """Text flowed into a shape: a box on the shape's bounding box, its words wrapped and fitted there."""
    ref = shape[4:-1].strip().strip("'\"") if shape.startswith("url(") and shape.endswith(")") else ""
    frame = by_id.get(ref[1:]) if ref.startswith("#") else None
    if frame is None:
        raise SvgValueError("shape-inside: url(#id) of a shape in this SVG", shape)
    x0, y0, x1, y1 = _bbox(frame)
    pad = length(style.get("shape-padding"))
    runs: list[tuple[str, dict[str, str]]] = []
    _runs(text, {}, runs, gap=" ")  # Inkscape's lines as it wrapped them: words again, to wrap anew
    words, base = _joined(runs, markup=True)
    align = base.get("text-align") or style.get("text-align")  # another (justify) is refused by the check
    for k in ("x", "y", "dx", "dy"):
        text.attrib.pop(k, None)
    text.attrib.update({"x": f"{x0 + pad:g}", "y": f"{y0 + pad:g}", "data-w": f"{x1 - x0 - 2 * pad:g}",
                        "data-h": f"{y1 - y0 - 2 * pad:g}"})
    if align in ALIGN and "data-align" not in text.attrib:
        text.set("data-align", ALIGN[align])
    _restyle(text, base)
    _move(text)
    text.text = words


def _bbox(shape: ET.Element) -> tuple[float, float, float, float]:
    """A shape's bounding box after its own transform (a path's: of its points and control points)."""
    tag = _local(shape)
    if tag == "rect":
        x, y = length(shape.get("x")), length(shape.get("y"))
        pts = [(x, y), (x + length(shape.get("width")), y + length(shape.get("height")))]
    elif tag in ("circle", "ellipse"):
        cx, cy = length(shape.get("cx")), length(shape.get("cy"))
        rx = length(shape.get("r") or shape.get("rx"))
        ry = length(shape.get("r") or shape.get("ry"))
        pts = [(cx - rx, cy - ry), (cx + rx, cy + ry)]
    elif tag in ("polygon", "polyline"):
        pts = list(points(shape.get("points") or ""))
    elif tag == "path":
        pts = [tuple(args[i:i + 2]) for _, args in path_ops(shape.get("d") or "") for i in range(0, len(args), 2)]
    else:
        raise SvgValueError("shape-inside naming a rect, circle, ellipse, polygon or path", f"<{tag or shape.tag}>")
    m = parse_transform(shape.get("transform")) if shape.get("transform") else IDENTITY
    if len(pts) == 2 and tag != "path":
        (ax, ay), (bx, by) = pts
        pts = [(ax, ay), (bx, ay), (ax, by), (bx, by)]
    moved = [apply(m, px, py) for px, py in pts]
    if not moved:
        raise SvgValueError("shape-inside naming a shape with points", f"<{tag}>")
    xs, ys = [p[0] for p in moved], [p[1] for p in moved]
    return min(xs), min(ys), max(xs), max(ys)
