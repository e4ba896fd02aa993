"""Ganged sheets: pieces of several components on shared sheets, in bands of one piece size each.

A band is a grid of one size across the sheet; bands stack from the top, each with its own cut marks
(above and below it, and at the sheet's sides). Pieces of one size that follow each other fill the same
band, so the last cards of a deck and the cards of the next deck share a sheet. Geometry is pure (sizes
in, positions out) so the kit's guide can count pages before anything is drawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from ..draw import PieceSpec
from ..geometry import BAND, EDGE, MARGIN, MARK_GAP, MIN_MARK, Paper
from ..write import Writer
from .impose import Axis, best_grid, fits, solve_axis
from .sheets import SheetLabels, Sink, cut_marks, draw_face

MARKS = 2 * (MIN_MARK + MARK_GAP)  # the marks above and below a band


@dataclass
class Band:
    """Rows of one piece size: columns from an axis solve, rows top down from `top`."""

    size: tuple[float, float]
    x: Axis
    rows: int
    marked: bool  # marks above and below; without, the vertical cuts are printed as lines
    top: float = 0.0  # where the band starts (its upper marks, if any)
    pieces: list[int] = field(default_factory=list)  # indices into the ganged piece list

    @property
    def gutter(self) -> float:
        return self.x.gutter

    @property
    def height(self) -> float:
        return self.rows * (self.size[1] + self.gutter) + (MARKS if self.marked else 0.0)

    def slot(self, i: int) -> tuple[float, float]:
        row, col = divmod(i, self.x.count)
        first = self.top + (MIN_MARK + MARK_GAP if self.marked else 0.0) + self.gutter / 2
        return self.x.edge(col), first + row * (self.size[1] + self.gutter)


@dataclass
class GangSheet:
    paper: Paper
    bands: list[Band] = field(default_factory=list)

    @property
    def bottom(self) -> float:
        return self.paper.height - MARGIN - BAND  # the furniture band sits below the pieces

    @property
    def used(self) -> float:
        return sum(b.height for b in self.bands)

    @property
    def landscape(self) -> bool:
        return self.paper.width > self.paper.height


def _band(sheet: GangSheet, size: tuple[float, float], left: int) -> Band | None:
    """The largest band for `left` pieces of this size that fits below the sheet's bands, or None."""
    w, h = size
    x = solve_axis(EDGE, sheet.paper.width - EDGE, w, left)
    if x is None:
        return None
    room = sheet.bottom - EDGE - sheet.used
    need = math.ceil(left / x.count)
    with_marks = min(need, fits(0, room - MARKS, h + x.gutter))
    bare = min(need, fits(0, room, h + x.gutter))
    if bare < 1:
        return None
    marked = with_marks >= bare  # marks whenever they cost no row
    return Band(size, x, with_marks if marked else bare, marked)


def gang(sizes: list[tuple[float, float]], paper: Paper) -> list[GangSheet]:
    """Place pieces of these sizes, in order, on as few sheets as bands allow."""
    sheets: list[GangSheet] = []
    i = 0
    while i < len(sizes):
        size = sizes[i]
        run = 1
        while i + run < len(sizes) and sizes[i + run] == size:
            run += 1
        left = run
        while left:
            band = _band(sheets[-1], size, left) if sheets else None
            if band is None:
                grid = best_grid(paper, *size, left)
                if grid is None:
                    raise ValueError(f"a piece of {size[0]:g} x {size[1]:g} mm does not fit on {paper.name}")
                sheets.append(GangSheet(grid.paper))
                band = _band(sheets[-1], size, left)
                if band is None:
                    raise ValueError(f"a piece of {size[0]:g} x {size[1]:g} mm does not fit on {paper.name}")
            placed = min(left, band.rows * band.x.count)
            band.top = EDGE + sheets[-1].used
            band.pieces = list(range(i + run - left, i + run - left + placed))
            sheets[-1].bands.append(band)
            left -= placed
        i += run
    for sheet in sheets:  # centre each sheet's stack of bands in the room above the furniture band
        shift = (sheet.bottom - EDGE - sheet.used) / 2
        for band in sheet.bands:
            band.top += shift
    return sheets


@dataclass(frozen=True)
class Ganged:
    """One piece to gang, with what its own component draws it with."""

    spec: PieceSpec
    lang: str
    assets: Callable


def _furniture_band(sheet: GangSheet, back: bool) -> tuple[float, float, float, float]:
    p = sheet.paper
    y = MARGIN if back and sheet.landscape else p.height - MARGIN - BAND
    return MARGIN, y, p.width - 2 * MARGIN, BAND


def _place(sheet: GangSheet, band: Band, i: int, back: bool) -> tuple[float, float]:
    x, y = band.slot(i)
    if not back:
        return x, y
    w, h = band.size
    if sheet.landscape:  # a landscape sheet turns over top to bottom
        return x, sheet.paper.height - y - h
    return sheet.paper.width - x - w, y


def ganged_pages(w: Writer, pieces: list[Ganged], paper: Paper, duplex: bool, label: SheetLabels,
                 sink: Sink) -> int:
    """Draw ganged sheets (fronts, and with duplex each back page after its front); returns the pages."""
    sheets = gang([g.spec.size for g in pieces], paper)
    forms: dict[str, str] = {}
    pages = 0
    for n, sheet in enumerate(sheets, 1):
        for back in ((False, True) if duplex else (False,)):
            w.begin(sheet.paper, back=back)
            union: list[tuple[float, float, float, float]] = []
            for band in sheet.bands:
                trims = []
                for slot, index in enumerate(band.pieces):
                    g = pieces[index]
                    face = g.spec.back if back else g.spec.front
                    x, y = _place(sheet, band, slot, back)
                    if face is not None:
                        draw_face(w, g.spec, face, x, y, (band.x.bleed, band.x.bleed), g.lang, sink, g.assets, forms,
                                  back and sheet.landscape)
                    trims.append((x, y, *band.size))
                if any(pieces[i].spec.shape in ("rect", "square") for i in band.pieces):
                    cut_marks(w, trims, (band.x.bleed, band.x.bleed), (band.x.mark, MIN_MARK if band.marked else 0.0))
                union += trims
            side = ("back" if back else "front") if duplex else None
            w.furniture(_furniture_band(sheet, back), label.footer(n, len(sheets), side), label.t("ruler"))
            x0, y0 = min(r[0] for r in union), min(r[1] for r in union)
            x1, y1 = max(r[0] + r[2] for r in union), max(r[1] + r[3] for r in union)
            b = min(band.x.bleed for band in sheet.bands)
            w.boxes((x0, y0, x1 - x0, y1 - y0), (x0 - b, y0 - b, x1 - x0 + 2 * b, y1 - y0 + 2 * b))
            w.end()
            pages += 1
    return pages


def ganged_sheet_count(sizes: list[tuple[float, float]], paper: Paper) -> int:
    return len(gang(sizes, paper)) if sizes else 0


def sheets_of(sizes: list[tuple[float, float]], paper: Paper) -> list[set[int]]:
    """For each ganged sheet, the indices of the pieces on it (the guide lists each component's sheets)."""
    return [{i for band in sheet.bands for i in band.pieces} for sheet in gang(sizes, paper)] if sizes else []
