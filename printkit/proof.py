"""`printkit proof GAME`: a contact sheet of a game's pieces, what a designer checks before printing.

Every distinct piece (an item's `qty` copies are one piece, marked ×N) drawn once at a reduced scale
by the same code as the sheets, its front and back side by side (a back every piece shares drawn once,
first), in a grid under a heading per component, each labelled with its id and the `file:line` it comes
from. Written to `<out>/<game>/proof/<game>-proof.<paper>.<lang>.pdf` through the build's staging (all
the proofs of a run or none), after the same validation as a build; the build's manifest is left alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .build import validate
from .content import GameContent, LoadedComponent, Roots, fill, pos_of, translated, typography
from .draw import Face, PieceSpec, TemplateProblem, text as T, use_game_fonts
from .errors import ContentError, Pos, UsageError
from .geometry import PAPERS, Paper
from .layout import Options, Sink, draw_face, guide_catalogs, piece_specs, runs, template_problems
from .staging import Staging, os_problem
from .write import Writer

SIDE = 12.0  # mm: the page's margins
TOP = 27.0  # where the first heading starts, below the page's header
GAP_X, GAP_Y = 5.0, 4.0  # between cells
FACE_GAP = 2.0  # between a piece's front and back
LABEL_PT = 6.5  # labels: small, legible (printkit's own furniture is 5.5-6.5 pt)
LINE = 2.9  # mm between label lines
HEADING = 11.0  # a component's heading: its title and what the section shows
MAX_LABEL = 70.0  # mm: a longer label is cut short with an ellipsis
FRAME = (0.6, 0.6, 0.6)


@dataclass(frozen=True)
class Cell:
    """One distinct piece (or a shared back) as the proof shows it: faces side by side, labels below."""

    spec: PieceSpec
    faces: tuple[Face, ...]
    labels: tuple[str, ...]  # id (with ×N), source file:line, and a note when there is one
    scale: float

    @property
    def art(self) -> tuple[float, float]:
        w, h = self.spec.size
        n = len(self.faces)
        return n * w * self.scale + (n - 1) * FACE_GAP, h * self.scale

    @property
    def size(self) -> tuple[float, float]:
        aw, ah = self.art
        widest = max(_label_width(t) for t in self.labels)
        return max(aw, widest), ah + 0.8 + LINE * len(self.labels)


@dataclass(frozen=True)
class Section:
    """One component: its heading and its cells, in the language its pieces print in."""

    stem: str
    title: str
    detail: str
    cells: tuple[Cell, ...]
    lang: str  # the pieces' text language
    assets: Callable


@dataclass(frozen=True)
class Placed:
    """Something at (x, y) on a page: a section's heading (cell None) or one of its cells."""

    section: Section
    cell: Cell | None
    x: float
    y: float


def _label_width(text: str) -> float:
    return min(MAX_LABEL, T.width(text, T.font_name("Barlow"), LABEL_PT * T.PT))


def _fitted(text: str, room: float) -> str:
    """A label cut short with an ellipsis when it is wider than its room; a source `file:line` loses the
    start of its path, never its file's name and line."""
    font, size = T.font_name("Barlow"), LABEL_PT * T.PT
    if T.width(text, font, size) <= room:
        return text
    source = re.search(r":\d+$", text) is not None
    while text and T.width(("…" + text) if source else (text + "…"), font, size) > room:
        text = text[1:] if source else text[:-1]
    return ("…" + text) if source else (text + "…")


def _t(lang: str, key: str, /, **values: object) -> str:
    """The proof's own words in the print guide's catalogs: in `lang` when they have it (a game's own guide
    for a language printkit does not ship), else in English."""
    catalogs = guide_catalogs()
    lang = lang if catalogs.texts.get(lang, {}).get(f"guide.{key}") is not None else "en"
    return typography(fill(catalogs.get(lang, f"guide.{key}"), lang, values), lang)


def _where(pos: Pos) -> str:
    return f"{pos.path}:{pos.line}"


def _title(content: GameContent, spec: PieceSpec, lang: str) -> str:
    """What the piece is called: its item's title, name or id in the language it prints in, else its own name."""
    item = spec.front.item
    if item is not None:
        values = translated(content, item, item.values, lang)
        found = next((values[k] for k in ("title", "name", "label", "id") if values.get(k) not in (None, "")), None)
        return "" if found is None else " ".join(str(found).split())
    return spec.name


def _scale(specs: list[PieceSpec], wanted: float, paper: Paper) -> float:
    """The section's scale: `wanted`, less when its largest piece (front and back) would not fit a page."""
    room_w = paper.width - 2 * SIDE
    room_h = (paper.height - TOP - SIDE - HEADING) * 0.6
    widest = max(s.size[0] * (2 if s.back is not None and not s.back.shared else 1) for s in specs)
    faces = max(2 if s.back is not None and not s.back.shared else 1 for s in specs)
    tallest = max(s.size[1] for s in specs)
    return min(wanted, (room_w - (faces - 1) * FACE_GAP) / widest, room_h / tallest)


def _cells(content: GameContent, comp: LoadedComponent, specs: list[PieceSpec], lang: str,
           scale: float, title: str, ui: str) -> list[Cell]:
    """The cells of a component's pieces: names in `lang`, the language they print in; labels in `ui`."""
    stem, model = comp.stem, comp.model
    hexes = {p.id: n for n, p in enumerate(getattr(model, "pieces", []) or [])}
    out: list[Cell] = []
    shared_done = False
    for n, (spec, copies) in enumerate(runs(specs)):
        back = spec.back
        if back is not None and back.shared and not shared_done:
            shared_done = True
            total = sum(c for s, c in runs(specs) if s.back is not None and s.back.shared)
            where = pos_of(comp.raw, "back") or comp.raw.pos
            out.append(Cell(spec, (back,), (f"{_t(ui, 'proof_back', stem=stem)}  ×{total}", _where(where),
                                            _t(ui, "proof_shared")), scale))
        item = spec.front.item
        if item is not None:
            number, pos = item.index + 1, item.pos
        elif spec.name in hexes:
            number = hexes[spec.name] + 1
            pos = pos_of(comp.raw.get("pieces"), hexes[spec.name]) or comp.raw.pos
        else:  # a board: the component is its one piece, named by its title
            number, pos = 0, pos_of(comp.raw, "template") or comp.raw.pos
        name = _title(content, spec, lang) if number else title
        faces = (spec.front,) if back is None or back.shared else (spec.front, back)
        note = (_t(ui, "proof_back_shared"),) if back is not None and back.shared else ()
        head, rest = f"{stem}{f' #{number}' if number else ''}", (_where(pos), *note)
        room = max(Cell(spec, faces, (head, *rest), scale).size[0], _label_width(f"{head} · ×{copies}"))
        out.append(Cell(spec, faces, (*_named(head, name, copies, room), *rest), scale))
    return out


def _named(head: str, name: str, copies: int, room: float) -> tuple[str, ...]:
    """The id line, `deck #3 · Trade  ×2`, or when the name does not fit beside the id, the name on up to
    two lines of its own below it (cut short with an ellipsis beyond)."""
    one = f"{head} · {name}  ×{copies}" if name else f"{head}  ×{copies}"
    if not name or _label_width(one) <= room:
        return (one,)
    lines, line = [], ""
    for word in name.split():
        if line and _label_width(f"{line} {word}") > room:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    if len(lines) > 2:
        lines = [lines[0], _fitted(" ".join(lines[1:]), room)]
    return (f"{head}  ×{copies}", *(_fitted(x, room) for x in lines))


def sections(content: GameContent, lang: str, scale: float, paper: Paper, opts: Options,
             sink: Sink) -> list[Section]:
    """Every component with pieces (text sheets have none), in the game's order, as the proof shows it."""
    T.register_fonts()  # the labels are measured in the font they are printed in
    out = []
    for comp in content.components.values():
        try:
            specs, text_lang, assets = piece_specs(content, comp, lang, opts)
        except TemplateProblem as exc:
            sink.problems += template_problems(comp, exc)
            continue
        if not specs:
            continue
        s = _scale(specs, scale, paper)
        title = content.localised(lang, f"kit.components.{comp.stem}", comp.model.title)  # as the kit names it
        cells = _cells(content, comp, specs, text_lang, s, title, lang)
        distinct = len(runs(specs))
        sized = len({sp.size for sp in specs}) == 1
        size = f" · {specs[0].size[0]:g} × {specs[0].size[1]:g} mm" if sized else ""
        detail = _t(lang, "proof_detail", source=comp.raw.pos.path, kind=comp.kind, distinct=distinct,
                    pieces=len(specs), size=size, scale=round(s * 100))
        out.append(Section(comp.stem, f"{title} ({comp.stem})", detail, tuple(cells), text_lang, assets))
    return out


def layout(secs: list[Section], paper: Paper) -> list[list[Placed]]:
    """Rows of cells, left to right and page after page; a heading always keeps its first row with it."""
    pages: list[list[Placed]] = [[]]
    bottom, right = paper.height - SIDE, paper.width - SIDE
    y = TOP
    for sec in secs:
        rows: list[list[Cell]] = [[]]
        width = 0.0
        for cell in sec.cells:
            cw = cell.size[0]
            if rows[-1] and SIDE + width + cw > right:
                rows.append([])
                width = 0.0
            rows[-1].append(cell)
            width += cw + GAP_X
        first = max(c.size[1] for c in rows[0])
        if pages[-1] and y + HEADING + first > bottom:
            pages.append([])
            y = TOP
        pages[-1].append(Placed(sec, None, SIDE, y))
        y += HEADING
        for row in rows:
            height = max(c.size[1] for c in row)
            if y + height > bottom and pages[-1][-1].cell is not None:
                pages.append([])
                y = TOP
            x = SIDE
            for cell in row:
                pages[-1].append(Placed(sec, cell, x, y))
                x += cell.size[0] + GAP_X
            y += height + GAP_Y
        y += 2.0
    return pages if pages[0] else []


def _header(w: Writer, paper: Paper, title: str, what: str, n: int, total: int, lang: str) -> None:
    w.text(SIDE, 15.0, title, 11, "bold", colour=(0.1, 0.1, 0.1))
    w.text(paper.width - SIDE, 15.0, _t(lang, "proof_page", n=n, total=total), 8, anchor="end")
    w.text(SIDE, 20.0, what, 7)
    w.lines([(SIDE, 22.5, paper.width - SIDE, 22.5)], width=0.2, colour=FRAME)


def _draw_cell(w: Writer, p: Placed, sink: Sink, forms: dict[str, str]) -> None:
    cell = p.cell
    assert cell is not None
    spec, s = cell.spec, cell.scale
    pw, ph = spec.size
    c = w.canvas
    x = p.x
    for face in cell.faces:
        c.saveState()
        c.translate(x, p.y)
        c.scale(s, s)
        draw_face(w, spec, face, 0.0, 0.0, (0.0, 0.0), p.section.lang, sink, p.section.assets, forms)
        c.restoreState()
        if spec.shape in ("rect", "square"):  # the trim, as the piece will be cut
            x0, y0, x1, y1 = x, p.y, x + pw * s, p.y + ph * s
            w.lines([(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)], width=0.1,
                    colour=FRAME)
        x += pw * s + FACE_GAP
    y = p.y + cell.art[1] + 0.8 + LABEL_PT * T.PT
    for i, label in enumerate(cell.labels):
        w.text(p.x, y, _fitted(label, MAX_LABEL), LABEL_PT, "bold" if i == 0 else "regular",
               colour=(0.1, 0.1, 0.1) if i == 0 else (0.3, 0.3, 0.3))
        y += LINE


def draw_proof(w: Writer, content: GameContent, paper: Paper, lang: str, secs: list[Section], sink: Sink) -> int:
    """The proof's pages: a header on each (game, language, paper, page N of M), headings and cells."""
    pages = layout(secs, paper) or [[]]  # a game of text sheets only still gets its page, saying so
    title = _t(lang, "proof_title", title=content.title_in(lang))
    what = _t(lang, "proof_what", game=content.id, lang=lang, paper=paper.name)
    shown = {s.stem for s in secs}
    texts = [c.stem for c in content.components.values() if c.stem not in shown]
    what += " · " + (_t(lang, "proof_not_shown", names=", ".join(texts)) if texts else _t(lang, "proof_check"))
    forms: dict[str, str] = {}
    for n, page in enumerate(pages, 1):
        w.begin(paper)
        _header(w, paper, title, what, n, len(pages), lang)
        if not page:
            w.text(SIDE, TOP + 4.0, _t(lang, "proof_none", game=content.id), 9.5)
        for p in page:
            if p.cell is None:
                w.text(p.x, p.y + 4.0, p.section.title, 9.5, "bold", colour=(0.1, 0.1, 0.1))
                w.text(p.x, p.y + 8.0, _fitted(p.section.detail, paper.width - 2 * SIDE), LABEL_PT)
            else:
                _draw_cell(w, p, sink, forms)
        w.end()
    return len(pages)


@dataclass(frozen=True)
class ProofFile:
    path: str  # relative to the output folder
    game: str
    paper: str
    lang: str
    pages: int
    pieces: int  # distinct pieces shown


def proof_path(game: str, paper: str, lang: str) -> str:
    return f"{game}/proof/{game}-proof.{paper}.{lang}.pdf"


def write_proofs(roots: Roots, games: list[str], out: Path, papers: tuple[str, ...] = ("a4",),
                 langs: tuple[str, ...] | None = None, scale: float = 0.5,
                 progress: Callable[[str], None] = lambda _: None,
                 planned: Callable[[int], None] = lambda _: None) -> list[ProofFile]:
    """Validate the games as a build does, then write their proofs, all of them or none (ContentError);
    `planned` hears how many files before the first, `progress` each one as it is begun."""
    contents = validate(roots, games)
    jobs = [(c, p, lang) for c in contents for lang in c.languages(langs) for p in papers]
    planned(len(jobs))
    staging = Staging(out)
    staging.open()
    done: list[ProofFile] = []
    problems: list = []  # every game's, as a build reports them
    try:
        for content in contents:
            use_game_fonts(content)
            opts = Options()  # one per game: its pieces are filled once for every paper
            sink = Sink({c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()})
            for c, paper_name, lang in jobs:
                if c is not content:
                    continue
                rel = proof_path(content.id, paper_name, lang)
                progress(rel)
                paper = PAPERS[paper_name]
                secs = sections(content, lang, scale, paper, opts, sink)
                w = Writer(_staged(staging, out, rel), f"{content.game.title}: proof sheet", "proof", duplex=False)
                pages = draw_proof(w, content, paper, lang, secs, sink)
                _finish(w, out, rel)
                done.append(ProofFile(rel, content.id, paper_name, lang, pages, sum(len(s.cells) for s in secs)))
            problems += sorted(set(sink.problems))  # a piece drawn in two papers has its problems once
        if problems:
            raise ContentError(problems)
        staging.commit()
    except BaseException:
        staging.discard()
        raise
    return done


def _staged(staging: Staging, out: Path, rel: str) -> Path:
    try:
        return staging.path(rel)
    except OSError as exc:
        raise ContentError([os_problem(out / rel, exc)]) from None


def _finish(w: Writer, out: Path, rel: str) -> None:
    try:
        w.finish()
    except OSError as exc:
        raise ContentError([os_problem(out / rel, exc)]) from None


