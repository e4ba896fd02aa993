"""Hex grids in axial coordinates (q, r): neighbours, rotation by 60 degrees, distance, rings,
and the layout of hexes in millimetres. Pure functions, numbers in, numbers out.

Pointy-top hexes by default (columns zig-zag); `flat=True` for flat-top hexes. Direction 0 is
east for pointy-top (north-east for flat-top) and the directions go clockwise on the page (y down).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Hex = tuple[int, int]
# axial directions in clockwise page order (y down), starting east
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return a[0] + b[0], a[1] + b[1]


def neighbours(h: Hex) -> list[Hex]:
    return [add(h, d) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, steps: int = 1, about: Hex = (0, 0)) -> Hex:
    """Turn a hex about a centre by `steps` x 60 degrees clockwise on the page."""
    q, r = h[0] - about[0], h[1] - about[1]
    x, z = q, r
    y = -x - z
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y  # cube coordinates: one step clockwise (y down)
    return x + about[0], z + about[1]


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly `radius` from the centre (the centre itself for radius 0)."""
    if radius == 0:
        return [centre]
    out = []
    h = add(centre, (DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius))
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = add(h, DIRECTIONS[side])
    return out


def disc(centre: Hex, radius: int) -> list[Hex]:
    return [h for k in range(radius + 1) for h in ring(centre, k)]


def connected(hexes: set[Hex]) -> bool:
    if not hexes:
        return True
    start = next(iter(sorted(hexes)))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == hexes


@dataclass(frozen=True)
class HexGrid:
    """Where hexes of a given size (centre to corner, mm) sit on the page."""

    size: float
    origin: tuple[float, float] = (0.0, 0.0)
    flat: bool = False

    def centre(self, h: Hex) -> tuple[float, float]:
        q, r = h
        if self.flat:
            x = self.size * 1.5 * q
            y = self.size * SQRT3 * (r + q / 2)
        else:
            x = self.size * SQRT3 * (q + r / 2)
            y = self.size * 1.5 * r
        return self.origin[0] + x, self.origin[1] + y

    def corners(self, h: Hex, inset: float = 0.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        start = 0.0 if self.flat else 30.0
        size = self.size - inset
        return [(cx + size * math.cos(math.radians(start + 60 * i)), cy + size * math.sin(math.radians(start + 60 * i)))
                for i in range(6)]

    @property
    def width(self) -> float:
        """Width of one hex: corner to corner (flat-top) or flat side to flat side (pointy-top)."""
        return 2 * self.size if self.flat else SQRT3 * self.size
