"""Sheets of pieces: n-up grids with cut marks and mirrored backs, gutterfold sheets, assembly diagrams."""
from __future__ import annotations

import math
from itertools import groupby
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from ..errors import Pos, Problem
from ..content import Catalogs
from ..geometry import EDGE, MARGIN, MARK_GAP, Paper
from .impose import Grid, Gutterfold, best_grid, gutterfold
from ..write import Rect, Writer, drawn_ahead
from ..draw import Face, PieceSpec
from ..draw import Context, TextProblem
from ..draw import Shrink, template_values, templates_for
from ..content import GameContent, HexBoard, LoadedComponent, pos_of




@dataclass
class SheetLabels:
    """The labels on every sheet of a part: game, component, paper and language (running head, footer)."""

    game: str
    component: str
    paper_label: str
    lang: str
    guide: Catalogs
    text_lang: str = ""  # language pieces are typeset in; furniture uses `lang`

    def t(self, key: str, **values: object) -> str:
        from ..content import fill, typography

        return typography(fill(self.guide.get(self.lang, "guide." + key), self.lang, values), self.lang)

    def footer(self, n: int, total: int, side: str | None = None) -> str:
        from ..content import typography

        parts = [typography(self.game, self.lang), self.component]
        if total:
            parts.append(self.t("sheet", n=n, total=total))
        if side:
            parts.append(self.t("side_" + side))
        parts.append(self.paper_label)
        return "  ·  ".join(parts)


@dataclass
class Sink:
    """Where drawing problems go, turned into positioned Problems, and the fit report's shrunk texts."""

    shared_pos: dict[str, Pos]
    problems: list[Problem] = field(default_factory=list)
    # (lang, where, what, field) -> (nominal pt, smallest used pt)
    shrunk: dict[tuple[str, str, str, str], tuple[float, float]] = field(default_factory=dict)
    notes: set[Problem] = field(default_factory=set)  # pictures items name, printed under 300 dpi

    def _where(self, spec: PieceSpec, face: Face, field_name: str) -> tuple[Pos, str]:
        if face.item is not None:
            item = face.item
            name = item.get("title") or item.get("name") or f"item {item.index + 1}"
            return item.value_pos.get(field_name, item.pos), f"{spec.component} {name!r}"
        return self.shared_pos[spec.component], f"{spec.component} shared face"  # the build names every component

    def add(self, spec: PieceSpec, face: Face, found: list[TextProblem]) -> None:
        for tp in found:
            pos, label = self._where(spec, face, tp.field)
            self.problems.append(Problem(pos, f"{tp.message} ({label}, field {tp.field})"))

    def add_notes(self, spec: PieceSpec, face: Face, found: list[TextProblem]) -> None:
        for tp in found:
            pos, label = self._where(spec, face, tp.field)
            self.notes.add(Problem(pos, f"{tp.message} ({label}, field {tp.field})"))

    def add_shrunk(self, spec: PieceSpec, face: Face, found: list[Shrink], lang: str) -> None:
        for s in found:
            pos, label = self._where(spec, face, s.field)
            key = (lang, str(pos), label, s.field)
            nominal, used = self.shrunk.get(key, (s.nominal, s.used))
            self.shrunk[key] = (nominal, min(used, s.used))

    def fit_report(self, notes: list[Problem] = ()) -> str:
        """Texts shrunk below their nominal size, per language: where, which piece and field, from and to; and
        the images printed under 300 dpi (`notes`)."""
        lines = ["# Fit report: texts printed below their template's nominal size to fit, per language", ""]
        for lang in sorted({k[0] for k in self.shrunk}):
            rows = sorted((k, v) for k, v in self.shrunk.items() if k[0] == lang)
            lines += [f"## {lang}: {len(rows)} text(s)", ""]
            lines += [f"{where}: {label}, field {fld}: {nominal:g} pt -> {used:g} pt" for (_, where, label, fld), (nominal, used) in rows]
            lines.append("")
        if not self.shrunk:
            lines.append("No text was shrunk.")
        return "\n".join(lines).rstrip("\n") + "\n" + _image_report(notes)


def _image_report(notes: list[Problem]) -> str:
    """Where each image printed under 300 dpi is drawn, its file and dpi (nothing when every image prints at
    300 dpi or more, so reports of builds without images stay as they were)."""
    if not notes:
        return ""
    # a picture an item names is noted at each item's field; the template's check of the first item notes it
    # again at the template's line, the same message without the item: that line goes
    at_items = {n.message.rsplit(" (", 1)[0] for n in notes}
    shown = [n for n in notes if n.message not in at_items]
    return "\n".join(["", "# Images printed under 300 dpi", "", *(str(n) for n in shown)]) + "\n"


def chunks(items: Iterable[PieceSpec], size: int) -> Iterator[list[PieceSpec]]:
    batch: list[PieceSpec] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _union(rects: list[Rect]) -> Rect:
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return x0, y0, x1 - x0, y1 - y0


CUT_LINE_WIDTH = 0.15  # thin, but an inkjet still prints it on a coloured piece
CUT_LINE_COLOUR = (0.45, 0.45, 0.45)


def cut_marks(w: Writer, trims: list[Rect], bleed: tuple[float, float], marks: tuple[float, float]) -> None:
    """Marks in the margin, in line with every trim edge, a little clear of the bleed; an axis with no
    room for marks has its cuts printed as hairlines across the pieces instead.

    Every full sheet of a run has the same marks: they are drawn once and replayed as operators.
    """
    key = ("marks", tuple(trims), bleed, marks)
    w.replay(key, lambda: _draw_marks(w, trims, bleed, marks))


def _draw_marks(w: Writer, trims: list[Rect], bleed: tuple[float, float], marks: tuple[float, float]) -> None:
    bx, by = bleed
    mx, my = marks
    x0, y0, uw, uh = _union(trims)
    x1, y1 = x0 + uw, y0 + uh
    xs = sorted({round(v, 4) for r in trims for v in (r[0], r[0] + r[2])})
    ys = sorted({round(v, 4) for r in trims for v in (r[1], r[1] + r[3])})
    segs, lines = [], []
    # the marks above and below the pieces show where the vertical cuts go (the y axis's room)
    if my > 0:
        top, bottom = y0 - by - MARK_GAP, y1 + by + MARK_GAP
        segs += [seg for x in xs for seg in ((x, top - my, x, top), (x, bottom, x, bottom + my))]
    else:  # each line runs along the pieces that have that edge, not across an empty slot
        for x in xs:
            along = [r for r in trims if abs(r[0] - x) < 1e-3 or abs(r[0] + r[2] - x) < 1e-3]
            lines.append((x, min(r[1] for r in along) - by, x, max(r[1] + r[3] for r in along) + by))
    if mx > 0:
        left, right = x0 - bx - MARK_GAP, x1 + bx + MARK_GAP
        segs += [seg for y in ys for seg in ((left - mx, y, left, y), (right, y, right + mx, y))]
    else:
        for y in ys:
            along = [r for r in trims if abs(r[1] - y) < 1e-3 or abs(r[1] + r[3] - y) < 1e-3]
            lines.append((min(r[0] for r in along) - bx, y, max(r[0] + r[2] for r in along) + bx, y))
    if segs:
        w.lines(segs)
    if lines:
        w.lines(lines, width=CUT_LINE_WIDTH, colour=CUT_LINE_COLOUR)


def draw_face(w: Writer, spec: PieceSpec, face: Face, x: float, y: float, bleed: tuple[float, float], lang: str,
          sink: Sink, assets: Callable, forms: dict[str, str], turned: bool = False, outline: bool = True) -> Rect:
    """One face with its trim's top left at (x, y); a round or hexagonal piece gets its cutting line unless
    `outline` is off (a piece image: the print service cuts it, a printed line would show off its cut)."""
    pw, ph = spec.size
    ctx = _context(spec, lang)
    form = None
    if face.shared:
        form = forms.get(face.svg)
        if form is None:
            form = forms[face.svg] = w.shared_form(face.svg, pw, ph, ctx, assets)
    w.piece(face, x, y, pw, ph, bleed, ctx, assets, form, spec.shape, turned)
    if outline and spec.shape not in ("rect", "square"):
        w.cut_outline(spec.shape, x, y, pw, ph)
    if ctx.problems:
        sink.add(spec, face, ctx.problems)
    if ctx.shrunk:
        sink.add_shrunk(spec, face, ctx.shrunk, lang)
    if ctx.coarse:
        sink.add_notes(spec, face, ctx.coarse)
    return x, y, pw, ph


def _context(spec: PieceSpec, lang: str) -> Context:
    pw, ph = spec.size
    return Context(lang, (spec.safe, spec.safe, pw - spec.safe, ph - spec.safe))


def _ahead(w: Writer, specs: list[PieceSpec], lang: str, assets: Callable):
    """The part's faces drawn partly ahead on spare cores while its pages are drawn here (write/ahead)."""
    return drawn_ahead(w, [(face, _context(s, lang)) for s in specs for face in (s.front, s.back) if face], assets)


def _finish_sheet(w: Writer, trims: list[Rect], bleed: tuple[float, float], marks: tuple[float, float],
                  band: Rect | None, footer: str, label: SheetLabels, outlined: bool = False) -> None:
    if not outlined:  # round and hexagonal pieces are cut along their printed outline instead
        cut_marks(w, trims, bleed, marks)
    if band:
        w.furniture(band, footer, label.t("ruler"))
    x, y, uw, uh = _union(trims)
    w.boxes((x, y, uw, uh), (x - bleed[0], y - bleed[1], uw + 2 * bleed[0], uh + 2 * bleed[1]))
    w.end()


def _outlined(batch: list[PieceSpec]) -> bool:
    return all(spec.shape not in ("rect", "square") for spec in batch)


def layout_pages(count: int, size: tuple[float, float], paper: Paper, double: bool, fold: bool) -> int:
    """How many pages a run of pieces takes, without drawing it (for the print guide)."""
    if fold and double:
        g = gutterfold(paper, *size)
        return math.ceil(count / g.per_sheet) if g else 0
    g = best_grid(paper, *size, count)
    sheets = math.ceil(count / g.per_sheet) if g else 0
    return sheets * (2 if double else 1)


def grid_pages(w: Writer, specs: Iterable[PieceSpec], count: int, paper: Paper, label: SheetLabels, sink: Sink,
               assets: Callable, double: bool, where: Pos | None = None) -> int:
    """n-up sheets; with backs, each back page follows its front page, mirrored for long-edge flip."""
    specs = list(specs)
    if not specs:
        return 0
    first = specs[0]
    g = best_grid(paper, *first.size, count)
    if g is None:
        sink.problems.append(Problem(where or sink.shared_pos[first.component],
                                     f"expected {first.component} pieces to fit on {paper.name}, found {first.size}"))
        return 0
    with _ahead(w, specs, label.text_lang or label.lang, assets):
        return _grid_sheets(w, specs, g, math.ceil(count / g.per_sheet), label, sink, assets, double)


def _grid_sheets(w: Writer, specs: list[PieceSpec], g: Grid, total: int, label: SheetLabels, sink: Sink,
                 assets: Callable, double: bool) -> int:
    forms: dict[str, str] = {}
    bleed = (g.x.bleed, g.y.bleed)
    marks = (g.x.mark, g.y.mark)
    pages = 0
    for n, batch in enumerate(chunks(specs, g.per_sheet), 1):
        w.begin(g.paper)
        trims = [draw_face(w, s, s.front, *g.slot(i), bleed, label.text_lang or label.lang, sink, assets, forms) for i, s in enumerate(batch)]
        _finish_sheet(w, trims, bleed, marks, g.band_rect(), label.footer(n, total, "front" if double else None), label,
                      _outlined(batch))
        pages += 1
        if double:
            w.begin(g.paper, back=True)
            # a landscape sheet turns over top to bottom: its backs are turned half round, so every
            # piece's back reads upright when the piece is turned over left to right, as on portrait sheets
            trims = [draw_face(w, s, s.back, *g.mirrored(i), bleed, label.text_lang or label.lang, sink, assets, forms,
                           g.landscape)
                     for i, s in enumerate(batch) if s.back]
            _finish_sheet(w, trims, bleed, marks, g.band_rect(back=True), label.footer(n, total, "back"), label, _outlined(batch))
            pages += 1
    return pages


def gutterfold_pages(w: Writer, specs: Iterable[PieceSpec], count: int, paper: Paper, label: SheetLabels, sink: Sink,
                     assets: Callable, where: Pos | None = None) -> int:
    """Fronts on one half, backs opposite them across a fold line: fold, glue, cut."""
    specs = list(specs)
    if not specs:
        return 0
    g = gutterfold(paper, *specs[0].size)
    if g is None:  # the caller asks only for pieces that fold (parts.foldable)
        sink.problems.append(Problem(where or sink.shared_pos[specs[0].component],
                                     f"expected {specs[0].component} pieces to fold on {paper.name}, "
                                                f"found {specs[0].size}"))
        return 0
    with _ahead(w, specs, label.text_lang or label.lang, assets):
        return _fold_sheets(w, specs, g, math.ceil(count / g.per_sheet), label, sink, assets)


def _fold_sheets(w: Writer, specs: list[PieceSpec], g: Gutterfold, total: int, label: SheetLabels, sink: Sink,
                 assets: Callable) -> int:
    half = g.half
    forms: dict[str, str] = {}
    bleed = (half.x.bleed, half.y.bleed)
    lang = label.text_lang or label.lang
    for n, batch in enumerate(chunks(specs, g.per_sheet), 1):
        w.begin(g.paper)
        trims = [draw_face(w, s, s.front, *g.front(i), bleed, lang, sink, assets, forms) for i, s in enumerate(batch)]
        trims += [draw_face(w, s, s.back, *g.back(i), bleed, lang, sink, assets, forms, g.turned)
                  for i, s in enumerate(batch) if s.back]
        _fold_line(w, g, label.t("gutterfold"))
        band = (MARGIN, g.paper.height - MARGIN - 7, g.paper.width - 2 * MARGIN, 7)
        _finish_sheet(w, trims, bleed, (half.x.mark, half.y.mark), band, label.footer(n, total, None), label, _outlined(batch))
    return total


def _fold_line(w: Writer, g, instruction: str) -> None:
    """The dashed fold line, with the instruction running along it in the clear space beside it."""
    if g.axis == "x":
        top, bottom = EDGE, g.paper.height - MARGIN - 8
        w.lines([(g.fold, top, g.fold, bottom)], width=0.25, dash=[2, 1.5])
        w.text(g.fold - 0.9, (top + bottom) / 2, instruction, 5.5, rotate=True, anchor="middle")
    else:
        w.lines([(EDGE, g.fold, g.paper.width - EDGE, g.fold)], width=0.25, dash=[2, 1.5])
        w.text(g.paper.width / 2, g.fold - 0.7, instruction, 5.5, anchor="middle")


def diagram_page(w: Writer, svg: str, size: tuple[float, float], paper: Paper, label: SheetLabels, sink: Sink,
                 assets: Callable, where: Pos) -> int:
    """A reference drawing (an assembly diagram) centred on its own page, shrunk to the printable area
    when the paper is smaller than the drawing; nothing on it is cut."""
    dw, dh = size
    room_w, room_h = paper.width - 2 * MARGIN - 4, paper.height - 2 * MARGIN - 12
    scale = min(1.0, room_w / dw, room_h / dh)
    x0 = (paper.width - dw * scale) / 2
    y0 = MARGIN + 2 + (room_h - dh * scale) / 2
    ctx = Context(label.text_lang or label.lang, (0.0, 0.0, dw, dh))
    w.begin(paper)
    c = w.canvas
    c.saveState()
    c.translate(x0, y0)
    c.scale(scale, scale)
    w.renderer.asset_path = assets
    w.renderer.draw_svg(svg, ctx)
    c.restoreState()
    if ctx.problems:
        sink.problems += [Problem(where, f"{tp.message} (diagram, field {tp.field})")
                          for tp in ctx.problems]
    w.furniture((MARGIN, paper.height - MARGIN - 7, paper.width - 2 * MARGIN, 7), label.footer(0, 0), label.t("ruler"))
    w.end()
    return 1


def size_runs(sizes: list[tuple[tuple[float, float], int]]) -> list[tuple[tuple[float, float], int]]:
    """Consecutive pieces of one size, as (size, count): each run is imposed on its own grid."""
    return [(size, sum(n for _, n in run)) for size, run in groupby(sizes, key=lambda s: s[0])]


def hex_board_pages(w: Writer, content: GameContent, comp: LoadedComponent, specs: list, paper: Paper,
                    label: SheetLabels, theme: str, sink: Sink, assets: Callable, lang: str | None) -> int:
    """The pieces to cut out (a grid per piece size), then one assembly diagram per layout."""
    from ..rules import layout_geometry

    model = comp.model
    assert isinstance(model, HexBoard)
    pages, start = 0, 0
    for size, n in size_runs([(s.size, 1) for s in specs]):
        pages += grid_pages(w, specs[start:start + n], n, paper, label, sink, assets, False,
                            pos_of(comp.raw, "pieces") or comp.raw.pos)
        start += n
    tpl = templates_for(content, comp)
    base = template_values(content, comp, model.diagram_size, theme, lang)
    for layout in model.layouts:
        svg = tpl.render(model.diagram, **base, layout=layout_geometry(model, layout))
        pages += diagram_page(w, svg, model.diagram_size, paper, label, sink, assets,
                              pos_of(comp.raw, "diagram") or comp.raw.pos)
    return pages
