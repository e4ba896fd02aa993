"""SVG attribute values: lengths in mm, colours, transforms, path data. Pure functions, cached."""
from __future__ import annotations

import math
import re
from functools import lru_cache

from . import text as T

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "grey": "#808080", "gray": "#808080",
         "none": None, "transparent": None}

@lru_cache(maxsize=4096)
def colour(value: str | None) -> tuple[float, float, float] | None:
    if value is None:
        return None
    value = NAMED.get(value.strip().lower(), value.strip())
    if value is None:
        return None
    if value.startswith("#") and len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    if value.startswith("#") and len(value) == 7:
        return int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255
    return 0.0, 0.0, 0.0


def length(value: str | None, default: float = 0.0) -> float:
    """A length in mm; a `pt` suffix converts points."""
    if value is None or value == "":
        return default
    return _length(value)


@lru_cache(maxsize=8192)
def _length(value: str) -> float:
    value = value.strip()
    if value.endswith("pt"):
        return float(value[:-2]) * T.PT
    if value.endswith("mm"):
        return float(value[:-2])
    return float(value)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate)\s*\(([^)]*)\)")


@lru_cache(maxsize=4096)
def parse_transform(value: str) -> Matrix:
    m = IDENTITY
    for name, args in _TRANSFORM.findall(value):
        nums = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "translate":
            step = (1, 0, 0, 1, nums[0], nums[1] if len(nums) > 1 else 0.0)
        elif name == "scale":
            step = (nums[0], 0, 0, nums[1] if len(nums) > 1 else nums[0], 0, 0)
        elif name == "rotate":
            r = math.radians(nums[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(nums) == 3:
                step = multiply(multiply((1, 0, 0, 1, nums[1], nums[2]), step), (1, 0, 0, 1, -nums[1], -nums[2]))
        else:
            step = tuple(nums[:6])  # type: ignore[assignment]
        m = multiply(m, step)  # type: ignore[arg-type]
    return m


def style_attr(value: str) -> dict[str, str]:
    out = {}
    for decl in value.split(";"):
        if ":" in decl:
            k, v = decl.split(":", 1)
            out[k.strip()] = v.strip()
    return out


@lru_cache(maxsize=2048)
def path_ops(d: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """SVG path data → absolute (method, args) calls on a ReportLab path object."""
    from svglib.utils import bezier_arc_from_end_points, normalise_svg_path  # slow to import; rarely needed

    ops: list[tuple[str, tuple[float, ...]]] = []
    parts = normalise_svg_path(d)
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    prev = ""
    for op, nums in zip(parts[0::2], parts[1::2]):
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
                c1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl and prev in "CS" else (x, y)
                c2, end = (ox + nums[0], oy + nums[1]), (ox + nums[2], oy + nums[3])
            ops.append(("curveTo", (*c1, *c2, *end)))
            last_ctrl, (x, y) = c2, end
        elif o == "Q":
            q, end = (ox + nums[0], oy + nums[1]), (ox + nums[2], oy + nums[3])
            c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
            c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
            ops.append(("curveTo", (*c1, *c2, *end)))
            x, y = end
        elif o == "A":
            end = (ox + nums[5], oy + nums[6])
            if (x, y) != end and nums[0] and nums[1]:
                for curve in bezier_arc_from_end_points(x, y, nums[0], nums[1], nums[2], int(nums[3]), int(nums[4]), *end):
                    ops.append(("curveTo", tuple(curve[2:])))
            x, y = end
        elif o == "Z":
            ops.append(("close", ()))
            x, y = sx, sy
        prev = o
    return tuple(ops)
