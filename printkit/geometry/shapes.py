"""Piece outlines: rectangles, circles and hexagons, grown by a bleed. Pure geometry in mm."""
from __future__ import annotations

from dataclasses import dataclass

Outline = tuple  # ("rect", x, y, w, h) | ("circle", cx, cy, r) | ("polygon", ((x, y), ...)) | ("polygons", (…))


def outline(shape: "str | Cluster", w: float, h: float, grow: float = 0.0) -> Outline:
    """The outline of a w x h piece with its top left at the origin, pushed out by `grow` mm."""
    if isinstance(shape, Cluster):
        return ("polygons", shape.grown(grow)) if grow else ("polygon", shape.boundary)
    if shape == "circle":
        return ("circle", w / 2, h / 2, w / 2 + grow)
    if shape == "hexagon":
        return ("polygon", tuple(_grown(hexagon(w, h), w, h, grow)))
    return ("rect", -grow, -grow, w + 2 * grow, h + 2 * grow)


def hexagon(w: float, h: float) -> list[tuple[float, float]]:
    """The hexagon filling a w x h box: flat top and bottom when w > h, pointed otherwise."""
    if w >= h:
        return [(0.0, h / 2), (w / 4, 0.0), (3 * w / 4, 0.0), (w, h / 2), (3 * w / 4, h), (w / 4, h)]
    return [(w / 2, 0.0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0.0, 3 * h / 4), (0.0, h / 4)]


def _grown(points: list[tuple[float, float]], w: float, h: float, grow: float) -> list[tuple[float, float]]:
    if not grow:
        return points
    sx, sy = (w + 2 * grow) / w, (h + 2 * grow) / h
    return [(w / 2 + (x - w / 2) * sx, h / 2 + (y - h / 2) * sy) for x, y in points]


def _polygon(path, points) -> None:
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()


def trace(path, shape: Outline) -> None:
    """Add an outline to a ReportLab path object."""
    if shape[0] == "circle":
        path.circle(shape[1], shape[2], shape[3])
    elif shape[0] == "polygon":
        _polygon(path, shape[1])
    elif shape[0] == "polygons":
        for points in shape[1]:
            _polygon(path, points)
    else:
        path.rect(*shape[1:])


@dataclass(frozen=True)
class Cluster:
    """A piece made of hexes: each hex's corners (for the bleed) and the outline to cut, in piece mm."""

    cells: tuple[tuple[tuple[float, float], ...], ...]
    boundary: tuple[tuple[float, float], ...]
    size: float  # centre to corner of one hex

    def grown(self, grow: float) -> tuple[tuple[tuple[float, float], ...], ...]:
        """Every hex pushed out by `grow` mm about its centre: together they cover the outline plus a bleed."""
        out = []
        scale = (self.size + grow / 0.8660254) / self.size  # grow across the flats, not at the corners
        for cell in self.cells:
            cx = sum(p[0] for p in cell) / len(cell)
            cy = sum(p[1] for p in cell) / len(cell)
            out.append(tuple((cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in cell))
        return tuple(out)
