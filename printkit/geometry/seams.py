"""Where to cut a large board into tiles: seams placed where they cross the least artwork.

Pure geometry along one axis: a board of `length` mm in windows of at most `tile` mm that overlap
by `overlap` mm; each seam (the cut line in the middle of an overlap) is placed, within what
keeps the tile count minimal, where it crosses the lightest obstacles (card spaces, labels).
"""
from __future__ import annotations

import math

Obstacle = tuple[float, float, float]  # low, high, weight along the axis


def uniform_count(length: float, tile: float, overlap: float) -> int:
    return max(1, math.ceil((length - overlap) / (tile - overlap) - 1e-9))


def crossing(cut: float, obstacles: list[Obstacle]) -> float:
    return sum(weight for low, high, weight in obstacles if low < cut < high)


def windows(length: float, tile: float, overlap: float, obstacles: list[Obstacle] = (),
            step: float = 1.0) -> list[tuple[float, float]]:
    """(start, width) of each tile along the axis; as few tiles as uniform tiling needs."""
    count = uniform_count(length, tile, overlap)
    starts = [0.0]
    for k in range(1, count):
        previous = starts[-1]
        latest = previous + tile - overlap  # the next tile must overlap this one by `overlap`
        left = count - k - 1  # tiles after the next one
        earliest = max(previous + overlap + step, length - tile - left * (tile - overlap))
        best, best_key = latest, None
        candidate = latest
        while candidate >= earliest - 1e-9:
            key = (crossing(candidate + overlap / 2, obstacles), -candidate)
            if best_key is None or key < best_key:
                best, best_key = candidate, key
            candidate -= step
        starts.append(round(best, 3))
    ends = [s + overlap for s in starts[1:]] + [length]
    return [(s, e - s) for s, e in zip(starts, ends)]
