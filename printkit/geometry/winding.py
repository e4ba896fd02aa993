"""Whether a filled outline looks the same under the non-zero and the even-odd fill rules.

The rules differ only where a point is wound twice or more: where an outline crosses itself, or
where one closed loop lies inside another. Loops that enclose nothing (a cross drawn as two strokes)
wind no point. Curves are given flattened; a loop is closed by its last point joining its first.
"""
from __future__ import annotations

Point = tuple[float, float]
EPS = 1e-9


def rules_agree(loops: list[list[Point]]) -> bool:
    """True when no edge crosses another and no loop holds another: both rules fill the same area."""
    loops = [clean for loop in loops if _encloses(clean := _without_repeats(loop))]
    edges = [(k, i, a, b) for k, loop in enumerate(loops) for i, (a, b) in enumerate(_edges(loop))]
    for n, (k, i, a, b) in enumerate(edges):
        for k2, i2, c, d in edges[n + 1:]:
            if k == k2 and _neighbours(i, i2, len(loops[k])):
                if _overlaps(a, b, c, d):
                    return False
                continue
            if _cross(a, b, c, d):
                return False
    return not any(_inside(loops[k][0], loops[j]) for k in range(len(loops)) for j in range(len(loops)) if j != k)


def _without_repeats(loop: list[Point]) -> list[Point]:
    """A loop without a point equal to the one before it (a path closed on its start repeats it)."""
    out = [p for i, p in enumerate(loop) if i == 0 or p != loop[i - 1]]
    while len(out) > 1 and out[-1] == out[0]:
        out.pop()
    return out


def _edges(loop: list[Point]) -> list[tuple[Point, Point]]:
    return [(loop[i], loop[(i + 1) % len(loop)]) for i in range(len(loop))]


def _encloses(loop: list[Point]) -> bool:
    """A loop with three points not on one line."""
    if len(loop) < 3:
        return False
    a = loop[0]
    b = next((p for p in loop if abs(p[0] - a[0]) > EPS or abs(p[1] - a[1]) > EPS), None)
    return b is not None and any(abs(_orient(a, b, p)) > EPS for p in loop)


def _neighbours(i: int, j: int, n: int) -> bool:
    return abs(i - j) == 1 or abs(i - j) == n - 1


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments ab and cd meet (touching counts: the test errs towards 'the rule matters')."""
    if max(a[0], b[0]) < min(c[0], d[0]) - EPS or max(c[0], d[0]) < min(a[0], b[0]) - EPS:
        return False
    if max(a[1], b[1]) < min(c[1], d[1]) - EPS or max(c[1], d[1]) < min(a[1], b[1]) - EPS:
        return False
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if (o1 > EPS and o2 > EPS) or (o1 < -EPS and o2 < -EPS) or (o3 > EPS and o4 > EPS) or (o3 < -EPS and o4 < -EPS):
        return False
    return True


def _overlaps(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Neighbouring edges meet at their shared point; they overlap only when they fold back on one line."""
    shared = b if b in (c, d) else a
    far1 = a if shared == b else b
    far2 = d if shared == c else c
    if abs(_orient(shared, far1, far2)) > EPS:
        return False
    dot = (far1[0] - shared[0]) * (far2[0] - shared[0]) + (far1[1] - shared[1]) * (far2[1] - shared[1])
    return dot > EPS


def _inside(p: Point, loop: list[Point]) -> bool:
    """Ray casting: p strictly inside the loop."""
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in _edges(loop):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
