"""Piece outlines: rectangles, circles and hexagons, grown by a bleed. Pure geometry in mm."""
from __future__ import annotations

Outline = tuple  # ("rect", x, y, w, h) | ("circle", cx, cy, r) | ("polygon", ((x, y), ...))


def outline(shape: str, w: float, h: float, grow: float = 0.0) -> Outline:
    """The outline of a w x h piece with its top left at the origin, pushed out by `grow` mm."""
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


def trace(path, shape: Outline) -> None:
    """Add an outline to a ReportLab path object."""
    if shape[0] == "circle":
        path.circle(shape[1], shape[2], shape[3])
    elif shape[0] == "polygon":
        points = shape[1]
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
    else:
        path.rect(*shape[1:])
