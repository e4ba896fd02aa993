"""One component onto pages of a writer, whatever its kind; and how many pages it will take."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from .boards import fits_sheet, poster_page, poster_paper, tile_count, tile_pages
from ..content import GameContent, LoadedComponent
from ..content import Catalogs, engine_catalogs, typography
from ..geometry import Paper
from .impose import gutterfold
from ..errors import Problem
from ..content import pos_of
from ..draw import TemplateProblem, icon_width
from ..content import Board, Deck, HexBoard, Sheet, Standee, Tokens
from .sheets import SheetLabels, Sink, grid_pages, gutterfold_pages, hex_board_pages, layout_pages, size_runs
from ..write import Writer
from ..draw import (board_piece, board_svg, deck_pieces, hex_pieces, standee_pieces, standee_size, template_values,
                           templates_for, token_pieces)


@dataclass(frozen=True)
class Options:
    layout: str = "duplex"  # or "gutterfold"
    theme: str = "standard"  # or "ink-saver", passed to every template
    # filled pieces of each component, shared by every file of one build (parts and kits)
    cache: dict = field(default_factory=dict, compare=False, hash=False)


def is_localised(comp: LoadedComponent) -> bool:
    """Printed once per language: text sheets, and pieces whose templates read the catalogs."""
    return kind_of(comp.model).text_sheet or comp.model.per_language


def sheet_text(content: GameContent, lang: str, key: str) -> str:
    return typography(content.catalogs.format(lang, key, content.game.params), lang)


def sheet_flow(content: GameContent, comp: LoadedComponent, lang: str, theme: str = "standard"):
    """A sheet's blocks as platypus flowables (-> sheets.Flow, imported lazily); figures drawn by its template."""
    from reportlab.platypus import Paragraph

    from .flow import ICON_EM, Figure, Flow, Together, markup, styles

    model = comp.model
    assert isinstance(model, Sheet)
    st = styles(lang)
    assets = templates_for(content, comp).asset

    def text(key: str, style: str) -> str:
        return markup(sheet_text(content, lang, f"{model.catalog}.{key}"),
                      lambda name: icon_width(assets, name, ICON_EM), st[style].fontSize)

    title = next((sheet_text(content, lang, f"{model.catalog}.{b.key}") for b in model.blocks if b.style == "title"),
                 model.title)
    problems: list = []

    svgs: dict[str, str] = {}  # each figure is rendered once, however often the flow is poured

    def figure(block) -> list:
        size = model.figure_sizes.get(block.figure, (80.0, 50.0))
        if block.figure not in svgs:
            svgs[block.figure] = _figure_svg(content, comp, block.figure, size, lang, theme)
        svg = svgs[block.figure]
        out = [Figure(svg, size, lang, templates_for(content, comp).asset, problems, block.figure)]
        if block.key:  # a caption never lands in another column than its figure
            caption = Paragraph(text(block.key, "caption"), st["caption"])
            out = [Together(out + [caption])]
        return out

    def make() -> list:
        out = []
        for block in model.blocks:
            if block.style == "figure":
                out += figure(block)
            elif block.keys is not None:
                for i, key in enumerate(block.keys):
                    bullet = "\u2022" if block.style == "bullets" else f"{i + 1}."
                    out.append(Paragraph(text(key, block.style), st[block.style], bulletText=bullet))
            else:
                out.append(Paragraph(text(block.key, block.style), st[block.style]))
        return out

    return Flow(make, model.columns, (content.title_in(lang), title), problems, assets, lang)


def _figure_svg(content: GameContent, comp: LoadedComponent, name: str, size: tuple[float, float], lang: str,
                theme: str) -> str:
    """A figure drawn from the game's own data: every component's data and items, hex boards' layouts."""
    from ..rules import layout_geometry

    model = comp.model
    assert isinstance(model, Sheet)
    if model.figures is None:
        raise TemplateProblem(f"expected a 'figures' template on the sheet to draw figure {name!r}, found none")
    components = {c.stem: {"data": c.model.data, "items": [dict(i.values, qty=i.qty) for i in c.items]}
                  for c in content.components.values()}
    layouts = {c.stem: {lay.id: layout_geometry(c.model, lay) for lay in c.model.layouts}
               for c in content.components.values() if isinstance(c.model, HexBoard)}
    values = template_values(content, comp, size, theme, lang)
    return templates_for(content, comp).render(model.figures, **values, figure=name, components=components,
                                                layouts=layouts)


def items_of(comp: LoadedComponent, paper: Paper) -> int:
    """Physical pieces: a card is one, a board that fits a sheet is one, a tiled one is its tiles."""
    return kind_of(comp.model).count(comp, paper)


def _count_items(comp: LoadedComponent, paper: Paper) -> int:
    return comp.count()


def _count_hex_pieces(comp: LoadedComponent, paper: Paper) -> int:
    return sum(p.qty for p in comp.model.pieces)


def _count_board(comp: LoadedComponent, paper: Paper) -> int:
    return 1 if fits_sheet(paper, comp.model) else tile_count(paper, comp.model)


def planned_pages(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    """The pages a part will take, before it is drawn (the kit's guide lists page ranges from it)."""
    return kind_of(comp.model).planned(content, comp, paper, lang, opts)


def _plan_pieces(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    model = comp.model
    double = two_sided(model)
    return layout_pages(comp.count(), model.size, paper, double, folds(comp, opts, paper))


def _plan_standees(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    return layout_pages(comp.count(), standee_size(comp.model), paper, False, False)


def _plan_hex_board(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    from ..rules import piece_cluster

    model = comp.model
    sizes = [(piece_cluster(model, p)[0], p.qty) for p in model.pieces]
    return sum(layout_pages(n, size, paper, False, False) for size, n in size_runs(sizes)) + len(model.layouts)


def _plan_board(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    model = comp.model
    if fits_sheet(paper, model):
        return layout_pages(1, model.size, paper, two_sided(model), folds(comp, opts, paper))
    return tile_count(paper, model) + 1


def _plan_sheet(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    try:
        return _sheet_pages(content, comp, paper, lang, opts)
    except TemplateProblem:
        return 0  # drawing the part reports it, with its position


def _sheet_flow(content: GameContent, comp: LoadedComponent, lang: str, opts: Options):
    """A sheet's flow, made once per build unit (its figures rendered once) for its part files and kits."""
    return _once(opts, ("flow", content.id, comp.stem, lang), lambda: sheet_flow(content, comp, lang, opts.theme))


def _sheet_pages(content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options) -> int:
    from .flow import count_pages

    return _once(opts, ("pages", content.id, comp.stem, paper.name, lang),
                 lambda: count_pages(paper, _sheet_flow(content, comp, lang, opts)))


def draw_part(w: Writer, content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options,
              sink: Sink) -> int:
    """Draw the component's pages; returns the number of pages (0 when a template failed)."""
    try:
        return _draw_part(w, content, comp, paper, lang, opts, sink)
    except TemplateProblem as exc:
        sink.problems += template_problems(comp, exc)
        return 0


def template_problems(comp: LoadedComponent, exc: TemplateProblem) -> list[Problem]:
    """A template's failure as problems: at the template's own line, else at the component's template key."""
    named = [k for k in ("front", "back", "template", "diagram", "figures") if k in comp.raw]
    key = next((k for k in named if str(comp.raw[k]) in str(exc)), named[0] if named else "kind")
    return exc.at(comp.raw.value_pos.get(key, comp.raw.pos))


@dataclass
class Drawing:
    """One part being drawn: where, what, in which language, and where problems go."""

    w: Writer
    content: GameContent
    comp: LoadedComponent
    paper: Paper
    lang: str  # the kit's language (furniture)
    opts: Options
    sink: Sink
    label: SheetLabels
    assets: Callable
    piece_lang: str | None  # the pieces' language when they print per language


def _draw_part(w: Writer, content: GameContent, comp: LoadedComponent, paper: Paper, lang: str, opts: Options,
               sink: Sink) -> int:
    title = content.localised(lang, f"kit.components.{comp.stem}", comp.model.title)
    label = SheetLabels(content.title_in(lang), title, paper_label(content, paper, lang), lang, guide_catalogs())
    # pieces are printed in the content's language whatever the kit's language; only furniture follows the kit
    text_lang = lang if is_localised(comp) else content.game.content_lang
    label.text_lang = text_lang
    piece_lang = text_lang if comp.model.per_language else None
    d = Drawing(w, content, comp, paper, lang, opts, sink, label, templates_for(content, comp).asset, piece_lang)
    return kind_of(comp.model).draw(d)


def piece_specs(content: GameContent, comp: LoadedComponent, lang: str, opts: Options) -> tuple[list, str, Callable]:
    """A part's pieces for a kit in `lang`: the specs, the language their text is set in, and their assets."""
    text_lang = lang if is_localised(comp) else content.game.content_lang
    piece_lang = text_lang if comp.model.per_language else None
    return cached_pieces(content, comp, opts, piece_lang), text_lang, templates_for(content, comp).asset


def _specs(d: Drawing) -> list:
    return cached_pieces(d.content, d.comp, d.opts, d.piece_lang)


def cached_pieces(content: GameContent, comp: LoadedComponent, opts: Options, piece_lang: str | None) -> list:
    """A component's pieces, drawn once per build and language and shared by its part files, kits and images."""
    return _once(opts, (content.id, comp.stem, piece_lang),
                 lambda: kind_of(comp.model).pieces(content, comp, opts.theme, piece_lang))


def _once(opts: Options, key: tuple, make: Callable[[], Any]) -> Any:
    """Made once per build unit: opts.cache lives as long as the unit."""
    if key not in opts.cache:
        opts.cache[key] = make()
    return opts.cache[key]


def _draw_pieces(d: Drawing) -> int:
    specs = _specs(d)
    where = pos_of(d.comp.raw, "size") or d.comp.raw.pos
    if folds(d.comp, d.opts, d.paper):
        return gutterfold_pages(d.w, specs, len(specs), d.paper, d.label, d.sink, d.assets, where)
    return grid_pages(d.w, specs, len(specs), d.paper, d.label, d.sink, d.assets, two_sided(d.comp.model), where)


def _draw_board(d: Drawing) -> int:
    model = d.comp.model
    if fits_sheet(d.paper, model):
        return _draw_pieces(d)
    return tile_pages(d.w, board_svg(d.content, d.comp, theme=d.opts.theme, lang=d.piece_lang), model, d.paper,
                      d.label.component, d.label, d.sink, pos_of(d.comp.raw, "template") or d.comp.raw.pos, d.assets,
                      model.safe)


def _draw_sheet(d: Drawing) -> int:
    from .flow import flow_pages

    flow = _sheet_flow(d.content, d.comp, d.lang, d.opts)
    seen = len(flow.problems)  # the flow is shared: only this drawing's problems are this file's
    pages = flow_pages(d.w, d.paper, flow, d.label, _sheet_pages(d.content, d.comp, d.paper, d.lang, d.opts))
    at = d.comp.raw.value_pos.get("figures", d.comp.raw.pos)
    d.sink.problems += [Problem(at, f"{tp.message} (figure {name!r}, field {tp.field})")
                        for name, tp in flow.problems[seen:]]
    return pages


def _draw_hex_board(d: Drawing) -> int:
    return hex_board_pages(d.w, d.content, d.comp, _specs(d), d.paper, d.label, d.opts.theme, d.sink, d.assets,
                           d.piece_lang)


def draw_poster(w: Writer, content: GameContent, comp: LoadedComponent, sink: Sink, theme: str = "standard",
                lang: str | None = None) -> int:
    """A board on one large page for a print shop; a localised board gets one poster per language."""
    try:
        return _draw_poster(w, content, comp, sink, theme, lang)
    except TemplateProblem as exc:
        sink.problems += exc.at(comp.raw.value_pos.get("template", comp.raw.pos))
        return 0


def _draw_poster(w: Writer, content: GameContent, comp: LoadedComponent, sink: Sink, theme: str,
                 lang: str | None) -> int:
    model = comp.model
    assert isinstance(model, Board)
    shown = lang or content.game.content_lang
    title = content.localised(shown, f"kit.components.{comp.stem}", model.title)
    label = SheetLabels(content.title_in(shown), title, paper_label(content, poster_paper(*model.size), shown),
                 shown, guide_catalogs())
    return poster_page(w, board_svg(content, comp, theme=theme, lang=lang), model.size, label, sink,
                       pos_of(comp.raw, "template") or comp.raw.pos, templates_for(content, comp).asset, model.safe)


def paper_label(content: GameContent, paper: Paper, lang: str) -> str:
    return guide_catalogs().get(lang, f"guide.paper_{paper.name}")


@lru_cache(maxsize=1)
def guide_catalogs() -> Catalogs:
    """The engine's own texts, loaded once (they are read-only)."""
    return engine_catalogs()


def foldable(comp: LoadedComponent, paper: Paper) -> bool:
    """Two-sided pieces whose front and back fit on one sheet, to fold and glue (gutterfold)."""
    model = comp.model
    if not two_sided(model) or (isinstance(model, Board) and not fits_sheet(paper, model)):
        return False
    return gutterfold(paper, *model.size) is not None


def folds(comp: LoadedComponent, opts: Options, paper: Paper) -> bool:
    """Printed as gutterfold sheets: the gutterfold layout, for pieces that fold on this paper."""
    return opts.layout == "gutterfold" and foldable(comp, paper)


def is_duplex(comp: LoadedComponent, opts: Options, paper: Paper) -> bool:
    """Pieces printed front and back on the two sides of one sheet: two-sided pieces in the duplex
    layout, and in the gutterfold layout those too large to fold on this paper."""
    return two_sided(comp.model) and not folds(comp, opts, paper)


def two_sided(model: object) -> bool:
    """Pieces with a printed back: decks, and tokens and boards that name a back template."""
    return kind_of(model).two_sided(model)


def piece_size(comp: LoadedComponent, lang: str) -> str:
    """A piece's trimmed size as the guide prints it; empty for parts whose pieces differ (hexes) or have none."""
    return size_text(*comp.model.size, lang) if kind_of(comp.model).sized else ""


def blank_page(w: Writer, paper: Paper, label: SheetLabels) -> None:
    """An intentionally blank page that keeps fronts and backs on one sheet when a kit prints duplex."""
    from .flow import paragraph_lines

    w.begin(paper)
    y = paper.height / 2
    for line in paragraph_lines(label.t("blank"), paper.width - 60, 9):
        w.text(paper.width / 2, y, line, 9, anchor="middle", colour=(0.45, 0.45, 0.45))
        y += 4.5
    w.furniture((5.0, paper.height - 12.0, paper.width - 10.0, 7.0), label.footer(0, 0), label.t("ruler"))
    w.end()


def size_text(w: float, h: float, lang: str) -> str:
    from ..content import format_number

    return f"{format_number(round(w, 1), lang)} \u00d7 {format_number(round(h, 1), lang)} mm"


@dataclass(frozen=True)
class Kind:
    """What the engine does differently for one kind of component, in one place: how its items become
    pieces, how many pages its part takes, how it is drawn, and its entry in the print guide. A new kind
    is its declaration in content/model.py and one entry of KINDS."""

    pieces: Callable[[GameContent, LoadedComponent, str, str | None], list]
    planned: Callable[[GameContent, LoadedComponent, Paper, str, Options], int]
    draw: Callable[[Drawing], int]
    guide_entry: Callable[[object, bool], str]  # (model, tiled) -> its key under guide.kind
    count: Callable[[LoadedComponent, Paper], int] = _count_items  # physical pieces on a paper
    two_sided: Callable[[object], bool] = lambda model: False  # pieces with a printed back
    sized: bool = True  # all its pieces have the component's one `size`
    text_sheet: bool = False  # flowing text in the kit's language: always one file per language
    gangs: Callable[[object, Paper], bool] = lambda model, paper: False  # pieces may share a kit's sheets
    tabletop: str = ""  # its pieces on a virtual table: "cards" (a deck), "tiles", "board"; "" images only


def _board_pieces(content: GameContent, comp: LoadedComponent, theme: str, lang: str | None) -> list:
    return [board_piece(content, comp, theme, lang)]


def _has_back(model: object) -> bool:
    return getattr(model, "back", None) is not None


KINDS: dict[type, Kind] = {
    Deck: Kind(lambda *a: list(deck_pieces(*a)), _plan_pieces, _draw_pieces, lambda model, tiled: model.kind,
               two_sided=lambda model: True, gangs=lambda model, paper: True, tabletop="cards"),
    Tokens: Kind(lambda *a: list(token_pieces(*a)), _plan_pieces, _draw_pieces,
                 lambda model, tiled: "tokens-outlined" if model.shape in ("circle", "hexagon") else "tokens",
                 two_sided=_has_back, gangs=lambda model, paper: True, tabletop="tiles"),
    Standee: Kind(lambda *a: list(standee_pieces(*a)), _plan_standees, _draw_pieces, lambda model, tiled: "standee",
                  gangs=lambda model, paper: True),
    Board: Kind(_board_pieces, _plan_board, _draw_board, lambda model, tiled: "board-tiled" if tiled else "board",
                count=_count_board, two_sided=_has_back, gangs=lambda model, paper: fits_sheet(paper, model),
                tabletop="board"),
    HexBoard: Kind(lambda *a: list(hex_pieces(*a)), _plan_hex_board, _draw_hex_board, lambda model, tiled: "hex-board",
                   count=_count_hex_pieces, sized=False),
    Sheet: Kind(lambda *a: [], _plan_sheet, _draw_sheet, lambda model, tiled: "sheet", sized=False, text_sheet=True),
}


def kind_of(model: object) -> Kind:
    """The kind of a component's model (a graph board is a board)."""
    return next(KINDS[cls] for cls in type(model).__mro__ if cls in KINDS)
