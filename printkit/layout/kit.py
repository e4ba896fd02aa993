"""A kit's body as print jobs by stock: card stock double-sided, card stock one-sided, plain paper.

Within a job, the pieces of every part that prints as a grid share sheets (gang.py); a part that needs
sheets of its own (a tiled board, hex pieces with their diagrams, a text sheet) follows them. The plan is
made from the pieces' sizes before anything is drawn, so the guide can list every part's pages.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..content import GameContent, LoadedComponent
from ..geometry import Paper
from ..write import Writer
from .gang import Ganged, ganged_pages, sheets_of
from .parts import Options, draw_part, guide_catalogs, is_duplex, kind_of, paper_label, piece_specs, planned_pages
from .sheets import SheetLabels, Sink

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


def plan_kit(content: GameContent, paper: Paper, lang: str, opts: Options) -> KitPlan:
    """The kit's sections, job by job; parts keep their order except that pieces of one size come together."""
    comps = list(content.components.values())
    sections: list[Section] = []
    for job in JOBS:
        mine = [c for c in comps if job_of(c, opts, paper) == job]
        ganged = [c for c in mine if gangs(c, opts, paper)]
        if ganged:
            sections.append(_ganged_section(content, job, ganged, paper, lang, opts))
        for comp in mine:
            if comp not in ganged:
                pages = planned_pages(content, comp, paper, lang, opts)
                sections.append(Section(job, [comp], pages, False, {comp.stem: list(range(pages))}))
    return KitPlan(sections)


def _ganged_section(content: GameContent, job: str, comps: list[LoadedComponent], paper: Paper, lang: str,
                    opts: Options) -> Section:
    specs = {c.stem: piece_specs(content, c, lang, opts) for c in comps}
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
        if section.ganged:
            label = SheetLabels(content.title_in(lang), catalogs.get(lang, f"guide.job_{section.job}"),
                                paper_label(content, paper, lang), lang, catalogs)
            drawn = ganged_pages(w, section.pieces, paper, section.job == "card_duplex", label, sink)
            drawn_parts.append((section.comps[0], section.pages, drawn))
        else:
            comp = section.comps[0]
            drawn_parts.append((comp, section.pages, draw_part(w, content, comp, paper, lang, opts, sink)))
    return drawn_parts
