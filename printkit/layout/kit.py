"""A kit's body as print jobs by stock (card stock double-sided, card stock one-sided, plain paper), and
the ganged sheets those jobs print on.

Within a job, the pieces of every part that prints as a grid share sheets in bands of one piece size
each: a band is a grid across the sheet, bands stack from the top, each with its own cut marks (above and
below it, and at the sheet's sides). Pieces of one size that follow each other fill the same band, so the
last cards of a deck and the cards of the next deck share a sheet. A part that needs sheets of its own (a
tiled board, hex pieces with their diagrams, a text sheet) follows the ganged sheets. Packing is pure
geometry (sizes in, positions out), so the guide can list every part's pages before anything is drawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from ..content import GameContent, LoadedComponent
from ..draw import PieceSpec
from ..geometry import BAND, BAND_CLEAR, EDGE, MARGIN, MARK_GAP, MIN_MARK, Paper
from ..write import Writer
from .impose import Axis, best_grid, fits, solve_axis
from ..draw import TemplateProblem
from .parts import (Options, blank_page, draw_part, guide_catalogs, is_duplex, kind_of, paper_label, piece_specs, planned_pages,
                    template_problems)
from .sheets import SheetLabels, Sink, cut_marks, draw_face

MARKS = 2 * (MIN_MARK + MARK_GAP)  # the marks above and below a band
BANDS_APART = 2.0  # clear paper between two bands: one band's marks never run into the next one's


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
        return self.paper.height - MARGIN - BAND - BAND_CLEAR  # the furniture band sits below the pieces

    @property
    def used(self) -> float:
        """Height the bands take, with clear space between two bands so their marks never meet."""
        return sum(b.height for b in self.bands) + BANDS_APART * max(0, len(self.bands) - 1)

    @property
    def landscape(self) -> bool:
        return self.paper.width > self.paper.height


def _band(sheet: GangSheet, size: tuple[float, float], left: int) -> Band | None:
    """The largest band for `left` pieces of this size that fits below the sheet's bands, or None."""
    w, h = size
    x = solve_axis(EDGE, sheet.paper.width - EDGE, w, left)
    if x is None:
        return None
    room = sheet.bottom - EDGE - sheet.used - (BANDS_APART if sheet.bands else 0.0)
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
            band.top = EDGE + sheets[-1].used + (BANDS_APART if sheets[-1].bands else 0.0)
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


JOBS = ("card_duplex", "card_single", "paper")


def job_sheets(job: str, pages: int) -> int:
    """Sheets a job's pages print on: card backs share their front's sheet, and rules on plain paper are
    printed double-sided as any booklet is."""
    return pages if job == "card_single" else -(-pages // 2)


def job_of(comp: LoadedComponent, opts: Options, paper: Paper) -> str:
    """Which print job a part belongs to: text sheets on paper, pieces on card, duplex or not."""
    if kind_of(comp.model).text_sheet:
        return "paper"
    return "card_duplex" if is_duplex(comp, opts, paper) else "card_single"


def gangs(comp: LoadedComponent, opts: Options, paper: Paper) -> bool:
    """Whether a part's pieces may share sheets with other parts' (pieces printed on a plain grid)."""
    return opts.layout == "duplex" and kind_of(comp.model).gangs(comp.model, paper)


@dataclass
class Section:
    """Consecutive kit pages of one job: a ganged run of several parts, or one part on its own sheets."""

    job: str
    comps: list[LoadedComponent]
    pages: int
    ganged: bool
    comp_pages: dict[str, list[int]] = field(default_factory=dict)  # part stem -> page offsets in the section
    pieces: list[Ganged] = field(default_factory=list)
    alone: int = 0  # sheets the ganged parts take when each is printed on its own


@dataclass
class KitPlan:
    sections: list[Section]

    @property
    def pages(self) -> int:
        return sum(s.pages for s in self.sections)

    def sheets(self, job: str) -> int:
        return job_sheets(job, sum(s.pages for s in self.sections if s.job == job))

    @property
    def saved(self) -> int:
        """Sheets saved by ganging, against printing every ganged part on sheets of its own."""
        ganged = [s for s in self.sections if s.ganged]
        return sum(s.alone for s in ganged) - sum(s.pages // (2 if s.job == "card_duplex" else 1) for s in ganged)


def _size_order(comp: LoadedComponent, specs: list) -> tuple[float, float]:
    w, h = specs[0].size if specs else (0.0, 0.0)
    return (-w * h, -h)


def plan_kit(content: GameContent, paper: Paper, lang: str, opts: Options, sink: Sink) -> KitPlan:
    """The kit's sections, job by job; parts keep their order except that pieces of one size come together."""
    comps = list(content.components.values())
    sections: list[Section] = []
    for job in JOBS:
        mine = [c for c in comps if job_of(c, opts, paper) == job]
        ganged = [c for c in mine if gangs(c, opts, paper)]
        if ganged:
            sections.append(_ganged_section(content, job, ganged, paper, lang, opts, sink))
        for comp in mine:
            if comp not in ganged:
                pages = planned_pages(content, comp, paper, lang, opts)
                sections.append(Section(job, [comp], pages, False, {comp.stem: list(range(pages))}))
    return KitPlan(sections)


def with_blanks(plan: KitPlan, before: int) -> KitPlan:
    """Plain paper prints double-sided: a document of whole sheets starts on a sheet of its own, after a
    blank back where needed (it costs no sheet then; an odd one shares a sheet whichever way it starts).
    `before` is the plain-paper pages ahead of the body (the guide)."""
    out: list[Section] = []
    at = before
    for section in plan.sections:
        if section.job == "paper" and section.comps:
            if at % 2 and not section.pages % 2:
                out.append(Section("paper", [], 1, False))
                at += 1
            at += section.pages
        out.append(section)
    return KitPlan(out)


def _ganged_section(content: GameContent, job: str, comps: list[LoadedComponent], paper: Paper, lang: str,
                    opts: Options, sink: Sink) -> Section:
    specs = {}
    for comp in comps:
        try:
            specs[comp.stem] = piece_specs(content, comp, lang, opts)
        except TemplateProblem as exc:  # its part file reports it too: the build stops with one list
            if not any(p in sink.problems for p in template_problems(comp, exc)):
                sink.problems += template_problems(comp, exc)
    comps = [c for c in comps if c.stem in specs]
    comps = sorted(comps, key=lambda c: _size_order(c, specs[c.stem][0]))
    pieces, owner = [], []
    for comp in comps:
        found, text_lang, assets = specs[comp.stem]
        pieces += [Ganged(spec, text_lang, assets) for spec in found]
        owner += [comp.stem] * len(found)
    sheets = sheets_of([g.spec.size for g in pieces], paper)
    duplex = job == "card_duplex"
    per = 2 if duplex else 1
    comp_pages: dict[str, list[int]] = {c.stem: [] for c in comps}
    for n, on_sheet in enumerate(sheets):
        for stem in sorted({owner[i] for i in on_sheet}):
            comp_pages[stem] += [n * per + k for k in range(per)]
    alone = sum(planned_pages(content, c, paper, lang, opts) // per for c in comps)
    return Section(job, comps, len(sheets) * per, True, comp_pages, pieces, alone)


def draw_kit_body(w: Writer, content: GameContent, plan: KitPlan, paper: Paper, lang: str, opts: Options,
                  sink: Sink) -> list[tuple[LoadedComponent, int, int]]:
    """Draw every section; returns (first part, planned, drawn) pages of each section."""
    drawn_parts = []
    catalogs = guide_catalogs()
    for section in plan.sections:
        if not section.comps:
            label = SheetLabels(content.title_in(lang), catalogs.get(lang, "guide.title"),
                                paper_label(content, paper, lang), lang, catalogs)
            blank_page(w, paper, label)
        elif section.ganged:
            label = SheetLabels(content.title_in(lang), catalogs.get(lang, f"guide.job_{section.job}"),
                                paper_label(content, paper, lang), lang, catalogs)
            drawn = ganged_pages(w, section.pieces, paper, section.job == "card_duplex", label, sink)
            drawn_parts.append((section.comps[0], section.pages, drawn))
        else:
            comp = section.comps[0]
            drawn_parts.append((comp, section.pages, draw_part(w, content, comp, paper, lang, opts, sink)))
    return drawn_parts
