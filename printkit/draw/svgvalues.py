"""SVG attribute values: lengths in mm, colours, opacities, transforms, points, path data (and the
parsed documents they come from).

Pure functions, cached. Each reads a value exactly as SVG 1.1 writes it or raises `SvgValueError`
saying what it expected: a value printkit cannot read is refused, never drawn as something else.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from reportlab.lib import colors

from . import text as T
from ..geometry import rules_agree

Matrix = tuple[float, float, float, float, float, float]
RGB = tuple[float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(NUMBER)
FLAT = "data-flat"  # a text whose words are its own .text, whatever (moved) elements it holds: templates.inkscape
_LENGTH = re.compile(rf"\s*({NUMBER})(mm|pt|cm|in|px)?\s*")
# a length's unit in mm; a user unit (no unit, or px) is a millimetre: templates draw in mm
_UNITS = {None: 1.0, "px": 1.0, "mm": 1.0, "cm": 10.0, "in": 25.4, "pt": T.PT}


class SvgValueError(ValueError):
    """A value printkit cannot read: what it expected and what it found."""

    def __init__(self, expected: str, found: str):
        super().__init__(f"expected {expected}, found {found!r}")
        self.expected, self.found = expected, found


def _refuse(expected: str, found: str) -> SvgValueError:
    return SvgValueError(expected, found)


@lru_cache(maxsize=256)
def parse_svg(svg: str) -> ET.Element:
    """A rendered SVG parsed once, though checked and then drawn in several files of a build;
    nothing changes a parsed tree (but for Inkscape's texts, made plain as it is parsed: templates.inkscape)."""
    from .templates.inkscape import flatten  # noqa: PLC0415 - the templates package reads values from here

    return flatten(ET.fromstring(svg))


# ------------------------------------------------------------ numbers and lengths
def number(value: str) -> float:
    """A plain SVG number (no unit); float() alone would also take 'nan', 'inf' and '1_0'."""
    if not _NUMBER.fullmatch(value.strip()):
        raise _refuse("a number", value)
    return float(value)


def length(value: str | None, default: float = 0.0) -> float:
    """A length in mm: a plain number (user unit, mm), or with mm, cm, in, pt or px."""
    if value is None or value == "":
        return default
    return _length(value)


@lru_cache(maxsize=8192)
def _length(value: str) -> float:
    found = _LENGTH.fullmatch(value)
    if not found:
        raise _refuse("a length (a number, or with mm, cm, in, pt or px)", value)
    if found.group(2) in (None, "mm"):
        return float(found.group(1))
    return float(found.group(1)) * _UNITS[found.group(2)]


@lru_cache(maxsize=1024)
def opacity(value: str) -> float:
    """An opacity: a number, clamped to 0..1 as SVG says."""
    return min(1.0, max(0.0, number(value)))


@lru_cache(maxsize=1024)
def numbers(value: str, what: str = "a list of numbers") -> tuple[float, ...]:
    """Numbers separated by commas and/or spaces (points, a dash array, a viewBox)."""
    parts = [p for p in re.split(r"\s*,\s*|\s+", value.strip()) if p]
    if not all(_NUMBER.fullmatch(p) for p in parts) or re.search(r",\s*,|^\s*,|,\s*$", value):
        raise _refuse(what, value)
    return tuple(float(p) for p in parts)


@lru_cache(maxsize=4096)
def points(value: str) -> tuple[tuple[float, float], ...]:
    """A polygon's or polyline's points: pairs of coordinates."""
    nums = numbers(value, "points (pairs of numbers)")
    if len(nums) % 2:
        raise _refuse("points (pairs of numbers)", value)
    return tuple(zip(nums[0::2], nums[1::2]))


def keyword(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise _refuse(f"{what} ({', '.join(allowed)})", value)
    return value


# ------------------------------------------------------------ colours
# SVG 1.1's colour keywords are CSS's: ReportLab keeps that table. Its own additions are not SVG,
# and it lacks one spelling SVG has.
_NOT_SVG = frozenset({"cornflower", "fidblue", "fidlightblue", "fidred", "transparent"})
_ALIASES = {"lightgray": "lightgrey"}
_RGB = re.compile(rf"rgba?\(\s*({NUMBER}%?)\s*,\s*({NUMBER}%?)\s*,\s*({NUMBER}%?)\s*(?:,\s*({NUMBER})\s*)?\)")
COLOUR_FORMS = "a colour (an SVG colour name, #rgb, #rrggbb, #rrggbbaa, rgb(…), none or currentColor)"


@lru_cache(maxsize=1)
def _named() -> dict[str, colors.Color]:
    table = {name: c for name, c in colors.getAllNamedColors().items()
             if name.isalpha() and name.islower() and name not in _NOT_SVG}
    return {**table, **{alias: table[name] for alias, name in _ALIASES.items()}}


@lru_cache(maxsize=4096)
def paint(value: str) -> tuple[RGB | None, float]:
    """A fill or stroke: (rgb, alpha), rgb None for none; currentColor is the caller's to resolve."""
    v = value.strip()
    low = v.lower()
    if low in ("none", "transparent"):
        return None, 1.0
    if v.startswith("#"):
        digits = v[1:]
        if not re.fullmatch(r"[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8}", digits):
            raise _refuse(COLOUR_FORMS, value)
        if len(digits) <= 4:
            digits = "".join(c * 2 for c in digits)
        c = colors.HexColor("#" + digits, hasAlpha=len(digits) == 8)
    elif low.startswith("rgb"):
        found = _RGB.fullmatch(low)
        args = found.groups()[:3] if found else ()
        if not found or len({a.endswith("%") for a in args}) > 1 or (found.group(4) is None) != (low[3] == "("):
            raise _refuse(COLOUR_FORMS, value)
        if not args[0].endswith("%") and any("." in a or "e" in a for a in args):
            raise _refuse("rgb() of whole numbers 0..255 or of percentages", value)
        try:
            c = colors.cssParse(low)
        except ValueError:
            raise _refuse("rgb() of whole numbers 0..255 or of percentages 0..100 %", value) from None
    elif low in _named():
        c = _named()[low]
    else:
        raise _refuse(COLOUR_FORMS, value)
    return (c.red, c.green, c.blue), float(c.alpha)


def colour(value: str | None, current: str | None = None) -> RGB | None:
    """A colour's rgb, None for none (or no value); `current` is the value currentColor stands for."""
    if value is None:
        return None
    if value.strip() == "currentColor":
        return colour(current or "#000000")
    return paint(value)[0]


# ------------------------------------------------------------ transforms
def multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)\s*,?")
_ARGS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}
TRANSFORM_FORMS = "a transform (matrix(a b c d e f), translate, scale, rotate(a [cx cy]), skewX, skewY)"


@lru_cache(maxsize=4096)
def parse_transform(value: str) -> Matrix:
    m = IDENTITY
    at = 0
    while at < len(value.rstrip()):
        found = _TRANSFORM.match(value, at)
        if not found:
            raise _refuse(TRANSFORM_FORMS, value)
        name, args = found.groups()
        nums = numbers(args, TRANSFORM_FORMS) if args.strip() else ()
        if len(nums) not in _ARGS[name]:
            raise _refuse(f"{name}() with {' or '.join(map(str, _ARGS[name]))} numbers", value)
        m = multiply(m, _step(name, nums))
        at = found.end()
    return m


def _step(name: str, nums: tuple[float, ...]) -> Matrix:
    if name == "translate":
        return (1, 0, 0, 1, nums[0], nums[1] if len(nums) > 1 else 0.0)
    if name == "scale":
        return (nums[0], 0, 0, nums[1] if len(nums) > 1 else nums[0], 0, 0)
    if name == "rotate":
        r = math.radians(nums[0])
        step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
        if len(nums) == 3:
            step = multiply(multiply((1, 0, 0, 1, nums[1], nums[2]), step), (1, 0, 0, 1, -nums[1], -nums[2]))
        return step
    if name == "skewX":
        return (1, 0, math.tan(math.radians(nums[0])), 1, 0, 0)
    if name == "skewY":
        return (1, math.tan(math.radians(nums[0])), 0, 1, 0, 0)
    return nums  # type: ignore[return-value]  # matrix: six numbers, checked by the caller


@lru_cache(maxsize=1024)
def style_attr(value: str) -> dict[str, str]:
    """A style attribute's declarations; one without a colon is refused."""
    out = {}
    for decl in value.split(";"):
        if not decl.strip():
            continue
        if ":" not in decl:
            raise _refuse("style declarations (name: value; …)", value)
        k, v = decl.split(":", 1)
        out[k.strip()] = v.strip()
    return out


# ------------------------------------------------------------ path data
PathOps = tuple[tuple[str, tuple[float, ...]], ...]
_PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_PATH_TOKEN = re.compile(rf"[\s,]*(?:([MmLlHhVvCcSsQqTtAaZz])|({NUMBER}))")
_FLAG = re.compile(r"[\s,]*([01])")


def _path_commands(d: str) -> list[tuple[str, tuple[float, ...]]]:
    """Path data as (command, numbers) with implicit repetitions spelt out; malformed data is refused."""
    out: list[tuple[str, tuple[float, ...]]] = []
    at, end = 0, len(d.rstrip(" \t\r\n,"))
    op = ""
    while at < end:
        found = _PATH_TOKEN.match(d, at)
        command = found.group(1) if found else None
        if not found or not out and (command or "").upper() != "M":
            raise _refuse("path data starting with M (M, L, H, V, C, S, Q, T, A, Z and their numbers)", d)
        if command:
            op, at = command, found.end()
            if op in "Zz":
                out.append((op, ()))
                continue
        elif op in "Zz":
            raise _refuse("path data with a command after Z", d)
        args, at = _path_args(d, at, op)
        out.append((op, args))
        op = {"M": "L", "m": "l"}.get(op, op)  # numbers after a move are lines
    return out


def _path_args(d: str, at: int, op: str) -> tuple[tuple[float, ...], int]:
    """The numbers of one path command from `at`; an arc's two flags may be written without spaces."""
    args: list[float] = []
    for i in range(_PATH_ARGS[op.upper()]):
        flag = op in "Aa" and i in (3, 4)
        token = (_FLAG if flag else _PATH_TOKEN).match(d, at)
        if not token or not flag and not token.group(2):
            raise _refuse(f"path data with {_PATH_ARGS[op.upper()]} numbers after {op}", d)
        args.append(float(token.group(1 if flag else 2)))
        at = token.end()
    return tuple(args), at


@lru_cache(maxsize=2048)
def path_ops(d: str) -> PathOps:
    """SVG path data → absolute (method, args) calls on a ReportLab path object."""
    ops: list[tuple[str, tuple[float, ...]]] = []
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    prev = ""
    for op, nums in _path_commands(d):
        rel = op.islower()
        o = op.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if o == "M":
            x, y = ox + nums[0], oy + nums[1]
            sx, sy = x, y
            ops.append(("moveTo", (x, y)))
        elif o == "L":
            x, y = ox + nums[0], oy + nums[1]
            ops.append(("lineTo", (x, y)))
        elif o == "H":
            x = ox + nums[0]
            ops.append(("lineTo", (x, y)))
        elif o == "V":
            y = (y if rel else 0.0) + nums[0]
            ops.append(("lineTo", (x, y)))
        elif o in ("C", "S"):
            if o == "C":
                c1 = (ox + nums[0], oy + nums[1])
                c2, end = (ox + nums[2], oy + nums[3]), (ox + nums[4], oy + nums[5])
            else:
                c1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl and prev in ("C", "S") else (x, y)
                c2, end = (ox + nums[0], oy + nums[1]), (ox + nums[2], oy + nums[3])
            ops.append(("curveTo", (*c1, *c2, *end)))
            last_ctrl, (x, y) = c2, end
        elif o in ("Q", "T"):
            if o == "Q":
                q, end = (ox + nums[0], oy + nums[1]), (ox + nums[2], oy + nums[3])
            else:  # the control point mirrors the previous one, or is the current point
                q = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl and prev in ("Q", "T") else (x, y)
                end = (ox + nums[0], oy + nums[1])
            c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
            c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
            ops.append(("curveTo", (*c1, *c2, *end)))
            last_ctrl, (x, y) = q, end
        elif o == "A":
            end = (ox + nums[5], oy + nums[6])
            ops += _arc((x, y), nums, end)
            x, y = end
        elif o == "Z":
            ops.append(("close", ()))
            x, y = sx, sy
        prev = o
    return tuple(ops)


def _arc(start: tuple[float, float], nums: tuple[float, ...], end: tuple[float, float]) -> list:
    """An elliptical arc as curves; SVG says a zero radius makes it a line and equal ends omit it."""
    if start == end:
        return []
    if not nums[0] or not nums[1]:
        return [("lineTo", end)]
    from svglib.utils import bezier_arc_from_end_points  # slow to import; rarely needed

    curves = bezier_arc_from_end_points(*start, abs(nums[0]), abs(nums[1]), nums[2], int(nums[3]), int(nums[4]), *end)
    return [("curveTo", tuple(curve[2:])) for curve in curves]


# ------------------------------------------------------------ fill rules
@lru_cache(maxsize=2048)
def rules_agree_on_path(d: str) -> bool:
    """Whether non-zero and even-odd fill this path alike (curves flattened in 8 steps)."""
    loops: list[list[tuple[float, float]]] = []
    for op, args in path_ops(d):
        if op == "moveTo" or not loops:
            loops.append([args[-2:]] if args else [])
        elif op == "lineTo":
            loops[-1].append(args)
        elif op == "curveTo":
            x0, y0 = loops[-1][-1]
            x1, y1, x2, y2, x3, y3 = args
            for k in range(1, 9):
                t = k / 8
                u = 1 - t
                loops[-1].append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                  u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
        elif op == "close" and loops[-1]:
            loops.append([loops[-1][0]])  # drawing goes on from the closed loop's start
    return rules_agree(loops)


@lru_cache(maxsize=2048)
def rules_agree_on_points(value: str) -> bool:
    return rules_agree([list(points(value))])
