"""Where pieces go on sheets: grids with gutters and bleed, duplex mirroring, gutterfold, tiling.

Pure functions on millimetres, origin at the sheet's top left, y down.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import BAND, BAND_CLEAR, EDGE, FOLD_GAP, MARGIN, MARK_GAP, MAX_GUTTER, MAX_MARK, MIN_GUTTER, MIN_MARK, Paper
from ..geometry import crossing, windows


@dataclass(frozen=True)
class Axis:
    """Pieces along one axis: count, first trim edge, pitch, gutter and the cut marks' length (0: the
    axis has no room for marks, and its cuts are printed as lines instead)."""

    count: int
    start: float
    size: float
    gutter: float
    mark: float

    @property
    def bleed(self) -> float:
        return self.gutter / 2

    def edge(self, i: int) -> float:
        return self.start + i * (self.size + self.gutter)

    @property
    def end(self) -> float:
        return self.edge(self.count - 1) + self.size

    @property
    def marked(self) -> bool:
        return self.mark > 0


def fits(low: float, high: float, size: float) -> int:
    return int((high - low + 1e-9) // size)


MARKS = 2 * (MIN_MARK + MARK_GAP)  # room the cut marks take on an axis, both ends


def solve_axis(low: float, high: float, size: float, most: int | None = None) -> Axis | None:
    """Fit as many pieces as possible (at most `most`) between low and high, every piece with at least
    1 mm of bleed, and cut marks at both ends when they fit beside as many pieces.

    When marks would cost a piece, the axis has none and its cuts are printed as lines: more pieces a
    sheet is worth more than marks in the margin. Leftover room widens the gutters, then the marks.
    """
    avail = high - low
    count = max(fits(0, avail - MARKS, size + MIN_GUTTER), fits(0, avail, size + MIN_GUTTER))
    if most is not None:
        count = min(count, most)
    if count < 1:
        return None
    marked = count * (size + MIN_GUTTER) + MARKS <= avail + 1e-9
    left = avail - count * size - (MARKS if marked else 0.0)
    gutter = min(MAX_GUTTER, left / count)
    mark = min(MAX_MARK, MIN_MARK + (left - count * gutter) / 2) if marked else 0.0
    used = count * (size + gutter) + (2 * (mark + MARK_GAP) if marked else 0.0)
    start = low + (avail - used) / 2 + (mark + MARK_GAP if marked else 0.0) + gutter / 2
    return Axis(count, start, size, gutter, mark)


@dataclass(frozen=True)
class Grid:
    """A grid of equal pieces on a sheet, and where the furniture band went."""

    paper: Paper
    x: Axis
    y: Axis
    band: str  # "bottom", "right" or "none"

    @property
    def per_sheet(self) -> int:
        return self.x.count * self.y.count

    def slot(self, i: int) -> tuple[float, float]:
        row, col = divmod(i, self.x.count)
        return self.x.edge(col), self.y.edge(row)

    @property
    def landscape(self) -> bool:
        return self.paper.width > self.paper.height

    def mirrored(self, i: int) -> tuple[float, float]:
        """Where the back of slot i goes when the sheet is turned over on its long edge.

        A portrait sheet turns left to right; a landscape sheet's long edge is horizontal, so it
        turns top to bottom.
        """
        x, y = self.slot(i)
        if self.landscape:
            return x, self.paper.height - y - self.y.size
        return self.paper.width - x - self.x.size, y

    def band_rect(self, back: bool = False) -> tuple[float, float, float, float] | None:
        p = self.paper
        if self.band == "bottom":
            y = MARGIN if back and self.landscape else p.height - MARGIN - BAND
            return MARGIN, y, p.width - 2 * MARGIN, BAND
        if self.band == "right":
            x = MARGIN if back and not self.landscape else p.width - MARGIN - BAND
            return x, MARGIN, BAND, p.height - 2 * MARGIN
        return None


def _roomiest(count: int, cols: int, rows: int, x_axis: tuple, y_axis: tuple) -> tuple[int, int]:
    """For a run that fits on one sheet: the columns and rows that leave the widest gutters."""
    best, best_gutter = (min(cols, count), min(rows, math.ceil(count / min(cols, count)))), -1.0
    for c in range(min(cols, count), 0, -1):
        r = math.ceil(count / c)
        if r > rows:
            break
        ax, ay = solve_axis(*x_axis, c), solve_axis(*y_axis, r)
        gutter = min(ax.gutter if c > 1 else MAX_GUTTER, ay.gutter if r > 1 else MAX_GUTTER)
        if gutter > best_gutter + 1e-9:
            best, best_gutter = (c, r), gutter
        if gutter >= MAX_GUTTER:
            break
    return best


def grid(paper: Paper, w: float, h: float, count: int | None = None) -> Grid | None:
    """The grid that fits the most pieces, preferring a bottom furniture band, then a side band.

    With a count smaller than a sheet holds, only the columns and rows needed are used, so the
    pieces get full gutters.
    """
    options = []
    for band in ("bottom", "right", "none"):
        x_hi = paper.width - (MARGIN + BAND + BAND_CLEAR if band == "right" else EDGE)
        y_hi = paper.height - (MARGIN + BAND + BAND_CLEAR if band == "bottom" else EDGE)
        full_x, full_y = solve_axis(EDGE, x_hi, w), solve_axis(EDGE, y_hi, h)
        if not full_x or not full_y:
            continue
        cols, rows = full_x.count, full_y.count
        if count is not None and count < cols * rows:
            cols, rows = _roomiest(count, cols, rows, (EDGE, x_hi, w), (EDGE, y_hi, h))
        ax = solve_axis(EDGE, x_hi, w, cols)
        ay = solve_axis(EDGE, y_hi, h, rows)
        if ax and ay:
            options.append(Grid(paper, ax, ay, band))
    if not options:
        return None
    best = max(g.per_sheet for g in options)
    return next(g for g in options if g.per_sheet == best)


def best_grid(paper: Paper, w: float, h: float, count: int | None = None) -> Grid | None:
    """Portrait first; a landscape sheet only when it takes fewer sheets (pieces never rotate)."""
    portrait, landscape = grid(paper, w, h, count), grid(paper.landscape(), w, h, count)
    if portrait is None:
        return landscape
    if landscape is None:
        return portrait
    n = count or 10 ** 6
    if math.ceil(n / landscape.per_sheet) < math.ceil(n / portrait.per_sheet):
        return landscape
    return portrait


@dataclass(frozen=True)
class Gutterfold:
    """Fronts on one half of a sheet, each back opposite its front across the fold line.

    A vertical fold (axis "x") has the backs right of it, upright; a horizontal fold (axis "y") has
    them below it, half a turn round. Either way the glued piece reads upright on both sides when it
    is turned over left to right, as a duplex piece does.
    """

    paper: Paper
    half: Grid  # grid of the fronts' half (its paper is the half sheet)
    axis: str = "x"

    @property
    def per_sheet(self) -> int:
        return self.half.per_sheet

    @property
    def fold(self) -> float:
        """Where the fold line is: x of a vertical fold, y of a horizontal one."""
        return self.paper.width / 2 if self.axis == "x" else (self.paper.height - BAND) / 2

    @property
    def turned(self) -> bool:
        """Backs are printed half a turn round (a horizontal fold)."""
        return self.axis == "y"

    def front(self, i: int) -> tuple[float, float]:
        return self.half.slot(i)

    def back(self, i: int) -> tuple[float, float]:
        x, y = self.half.slot(i)
        if self.axis == "x":
            return 2 * self.fold - x - self.half.x.size, y
        return x, 2 * self.fold - y - self.half.y.size


def gutterfold(paper: Paper, w: float, h: float) -> Gutterfold | None:
    """The fold layout that holds the most pieces a sheet, or None when a front and its back cannot
    share one sheet."""
    best = None
    for sheet in (paper, paper.landscape()):
        options = []
        ax = solve_axis(EDGE, sheet.width / 2 - FOLD_GAP, w)
        ay = solve_axis(EDGE, sheet.height - MARGIN - BAND, h)
        if ax and ay:
            options.append(Gutterfold(sheet, Grid(Paper(sheet.name, sheet.width / 2, sheet.height), ax, ay, "bottom")))
        fold_y = (sheet.height - BAND) / 2
        ax = solve_axis(EDGE, sheet.width - EDGE, w)
        ay = solve_axis(EDGE, fold_y - FOLD_GAP, h)
        if ax and ay:
            options.append(Gutterfold(sheet, Grid(Paper(sheet.name, sheet.width, fold_y), ax, ay, "bottom"), "y"))
        for g in options:
            if best is None or g.per_sheet > best.per_sheet:
                best = g
    return best


@dataclass(frozen=True)
class Tiling:
    """A large board cut into sheet-sized tiles that overlap by `overlap` mm."""

    paper: Paper
    board_w: float
    board_h: float
    overlap: float
    column_spans: tuple[tuple[float, float], ...]  # (x, width) of each column of tiles on the board
    row_spans: tuple[tuple[float, float], ...]  # (y, height) of each row of tiles
    origin: tuple[float, float]  # where the tile's board window starts on the sheet

    @property
    def cols(self) -> int:
        return len(self.column_spans)

    @property
    def rows(self) -> int:
        return len(self.row_spans)

    def window(self, row: int, col: int) -> tuple[float, float, float, float]:
        """The board region (x, y, w, h) printed on tile (row, col)."""
        (x, w), (y, h) = self.column_spans[col], self.row_spans[row]
        return x, y, w, h

    @staticmethod
    def label(row: int, col: int) -> str:
        return f"{chr(ord('A') + row)}{col + 1}"


LABEL_BAND = 9.0
TILE_EDGE = 2.0  # room for the crop marks at a tile's outer board edges
Obstacle = tuple[float, float, float, float, float]  # x0, y0, x1, y1, weight


def tiling(paper: Paper, board_w: float, board_h: float, overlap: float = 12.0,
           obstacles: tuple[Obstacle, ...] = ()) -> Tiling:
    """Tiles with the fewest sheets, portrait or landscape, seams placed off the obstacles."""
    xs = [(x0, x1, w) for x0, _, x1, _, w in obstacles]
    ys = [(y0, y1, w) for _, y0, _, y1, w in obstacles]
    best, best_key = None, None
    for sheet in (paper, paper.landscape()):
        tw = sheet.width - 2 * MARGIN - 2 * TILE_EDGE
        th = sheet.height - 2 * MARGIN - LABEL_BAND - BAND
        cols, rows = windows(board_w, tw, overlap, xs), windows(board_h, th, overlap, ys)
        cost = sum(crossing(x + overlap / 2, xs) for x, _ in cols[1:]) + sum(crossing(y + overlap / 2, ys) for y, _ in rows[1:])
        key = (len(cols) * len(rows), cost)
        if best_key is None or key < best_key:
            best = Tiling(sheet, board_w, board_h, overlap, tuple(cols), tuple(rows), (MARGIN + TILE_EDGE, MARGIN + LABEL_BAND))
            best_key = key
    assert best is not None
    return best
