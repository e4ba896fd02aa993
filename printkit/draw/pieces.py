"""Expand components into physical pieces with filled SVG faces (the `draw` stage's input).

A piece is one physical object to cut out. Identical copies share their rendered SVG, so a
template is filled once per distinct item, not once per copy.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator

from ..content import GameContent, LoadedComponent
from ..content import fill, typography
from ..content import localised_data, translated, translated_board
from ..content import Item, plain
from ..content import Board, Deck, GraphBoard, HexBoard, Standee, Tokens
from ..content import Roots

from .compile import Plan, analyse, group_key, plan_for
from .templates import TemplateProblem, TemplateSet

BLEED_DRAWN = 25.4 / 8  # templates paint backgrounds this far past the trim (1/8 in, the bleed print services ask
# for); sheets clip to their own smaller bleed, piece images keep all of it


@dataclass(frozen=True)
class Face:
    """One face: its filled SVG, or a compiled plan and the values to print in it."""

    svg: str | None
    item: Item | None
    shared: bool = False
    plan: Plan | None = None
    values: dict[str, str] | None = None
    # the face as drawn, by language and safe zone, replayed in every other file of the build unit (write/replay)
    recordings: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class PieceSpec:
    """A physical piece: size, safe inset, front, optional back."""

    component: str
    size: tuple[float, float]
    safe: float
    front: Face
    back: Face | None
    shape: Any = "rect"  # rect, square, circle, hexagon or a hex Cluster: how the piece is clipped and outlined
    name: str = ""  # what the piece is called when it has no item to name it (a hex board's piece id)


def item_values(content: GameContent, item: Item, lang: str | None = None) -> dict[str, Any]:
    """An item's values in `lang` (its localised fields translated), {param} placeholders filled from the
    game's checked params."""
    lang = lang or content.game.content_lang
    values = translated(content, item, item.values, lang)
    return {k: fill(v, lang, content.game.params) if isinstance(v, str) else v for k, v in values.items()}


def template_values(content: GameContent, comp: LoadedComponent, size: tuple[float, float],
                    theme: str = "standard", lang: str | None = None) -> dict[str, Any]:
    """What every template sees; `theme` is "standard" or "ink-saver" (light fills for home printers),
    `lang` the language pieces are printed in and `t(key)` that language's catalog text, typeset."""
    lang = lang or content.game.content_lang
    data = localised_data(plain(comp.model.data), lang, content.game.languages, content.game.content_lang)
    return {"data": data, "params": dict(content.game.params), "w": size[0], "h": size[1],
            "bleed": BLEED_DRAWN, "game": {"id": content.id, "title": content.title_in(lang)},
            "component": {"stem": comp.stem, "title": comp.model.title}, "theme": theme,
            "lang": lang, "t": catalog_text(content, lang)}


def catalog_text(content: GameContent, lang: str) -> Callable[..., str]:
    """t(key, **values): a catalog text with {placeholders} filled (params, then values), typeset for lang."""
    catalogs, params = content.catalogs, content.game.params

    def t(key: str, **values: Any) -> str:
        table = catalogs.texts.get(lang, {})
        if key not in table:
            raise TemplateProblem(f"expected catalog key {key!r} in i18n/{lang}.yaml, found none")
        return typography(fill(table[key], lang, {**params, **values}), lang)

    return t


def templates_for(content: GameContent, comp: LoadedComponent) -> TemplateSet:
    return TemplateSet.for_component((content.roots.templates, Roots.default().templates), content.id, comp.kind)


def deck_pieces(content: GameContent, comp: LoadedComponent, theme: str = "standard",
                lang: str | None = None) -> Iterator[PieceSpec]:
    model = comp.model
    assert isinstance(model, Deck)
    tpl = templates_for(content, comp)
    base = template_values(content, comp, model.size, theme, lang)
    shared_back = None
    if model.kind == "deck":
        shared_back = Face(tpl.render(model.back, **base, card={}), None, shared=True)
    front_face = _Compiler(tpl, model.front, base, "card")
    back_face = _Compiler(tpl, model.back, base, "card")
    for item in comp.items:
        card = item_values(content, item, lang)
        front = front_face.face(card, item)
        back = shared_back or back_face.face(card, item)
        spec = PieceSpec(comp.stem, model.size, model.safe, front, back)
        for _ in range(item.qty):
            yield spec


class _Compiler:
    """Faces of one template: compiled once per group of cards, or rendered whole per card."""

    def __init__(self, tpl: TemplateSet, name: str, base: dict[str, Any], var: str):
        self.tpl, self.name, self.base, self.var = tpl, name, base, var
        self.fields = analyse(tpl, name, var)
        self.plans: dict[tuple, Plan | None] = {}

    def face(self, values: dict[str, Any], item: Item) -> Face:
        if self.fields and self.fields.printed:
            key = (group_key(values, self.fields.structural), frozenset(self.fields.printed & values.keys()))
            if key not in self.plans:
                full = self.tpl.render(self.name, **self.base, **{self.var: values})
                self.plans[key] = plan_for(self.tpl, self.name, self.base, self.var, values, self.fields.printed, full)
                if self.plans[key] is None:
                    return Face(full, item)
            plan = self.plans[key]
            if plan is not None:
                return Face(None, item, plan=plan, values={f: str(values[f]) for f in plan.fields})
        return Face(self.tpl.render(self.name, **self.base, **{self.var: values}), item)


def preload() -> None:
    """Import now what drawing pieces imports on first use (Jinja, templates.engine). A build calls it before its
    pool forks, so that the workers inherit it instead of each importing it again."""
    from .templates import engine  # noqa: F401


def standee_size(model: Standee) -> tuple[float, float]:
    w, h = model.size
    return w, 2 * h + 2 * model.base


@lru_cache(maxsize=1)
def _nested_element() -> type:
    """svgwrite's element for a filled face placed as a nested <svg> (svgwrite has none for foreign SVG); svgwrite
    is imported when a game has standees, not with every build (~40 ms for its SVG grammar)."""
    from svgwrite.base import BaseElement

    class Nested(BaseElement):
        elementname = "svg"

        def __init__(self, face: ET.Element, x: float, y: float, w: float, h: float):
            super().__init__(debug=False)
            self.face, self.box = face, (x, y, w, h)

        def get_xml(self) -> ET.Element:
            x, y, w, h = self.box
            element = ET.Element("svg", {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": f"{h:g}",
                                         "viewBox": f"0 0 {w:g} {h:g}"})
            element.extend(list(self.face))
            return element

    return Nested


def standee_svg(face: str, w: float, h: float, tab: float, colour: str) -> str:
    """Tab, face upside down, fold, face, tab: folded, the two faces meet back to back."""
    import svgwrite

    nested = _nested_element()
    root = ET.fromstring(face)
    total = 2 * h + 2 * tab
    dwg = svgwrite.Drawing(size=(f"{w:g}mm", f"{total:g}mm"), viewBox=f"0 0 {w:g} {total:g}", debug=False)
    dwg.add(dwg.rect(insert=(-3, -3), size=(w + 6, total + 6), fill=colour))
    for y in (0, total - tab):
        dwg.add(dwg.rect(insert=(0, y), size=(w, tab), fill="#ffffff", fill_opacity=0.55))
    upper = dwg.g(transform=f"rotate(180 {w / 2:g} {tab + h / 2:g})")
    upper.add(nested(root, 0, tab, w, h))
    dwg.add(upper)
    dwg.add(nested(root, 0, tab + h, w, h))
    for y in (tab, tab + h, tab + 2 * h):
        dwg.add(dwg.line(start=(0, y), end=(w, y), stroke="#000000", stroke_width=0.2, stroke_dasharray="1.2 0.8"))
    return dwg.tostring()


def standee_pieces(content: GameContent, comp: LoadedComponent, theme: str = "standard",
                   lang: str | None = None) -> Iterator[PieceSpec]:
    model = comp.model
    assert isinstance(model, Standee)
    tpl = templates_for(content, comp)
    w, h = model.size
    base = template_values(content, comp, model.size, theme, lang)
    for item in comp.items:
        face = tpl.render(model.front, **base, item=item_values(content, item, lang))
        colour = str(item.values.get(model.colour_field, "#888888"))
        spec = PieceSpec(comp.stem, standee_size(model), model.safe,
                         Face(standee_svg(face, w, h, model.base, colour), item), None)
        for _ in range(item.qty):
            yield spec


def token_pieces(content: GameContent, comp: LoadedComponent, theme: str = "standard",
                 lang: str | None = None) -> Iterator[PieceSpec]:
    model = comp.model
    assert isinstance(model, Tokens)
    tpl = templates_for(content, comp)
    base = template_values(content, comp, model.size, theme, lang)
    fronts = _Compiler(tpl, model.front, base, "item")
    backs = _Compiler(tpl, model.back, base, "item") if model.back else None
    for item in comp.items:
        values = item_values(content, item, lang)
        spec = PieceSpec(comp.stem, model.size, model.safe, fronts.face(values, item),
                         backs.face(values, item) if backs else None, model.shape)
        for _ in range(item.qty):
            yield spec


def board_svg(content: GameContent, comp: LoadedComponent, side: str = "front", theme: str = "standard",
              lang: str | None = None) -> str:
    """A board's drawing; a graph board's template also gets its nodes, links and areas."""
    model = comp.model
    assert isinstance(model, Board)
    tpl = templates_for(content, comp)
    values = template_values(content, comp, model.size, theme, lang)
    name = model.template if side == "front" else model.back
    if isinstance(model, GraphBoard):
        nodes = [n.model_dump() for n in model.nodes]
        by_id = {n["id"]: n for n in nodes}
        links = sorted({tuple(sorted((a, b))) for chain in model.edges for a, b in zip(chain, chain[1:])
                        if a in by_id and b in by_id})
        shown_in = lang or content.game.content_lang
        values.update(nodes=translated_board(content, comp, nodes, shown_in),
                      links=[(by_id[a], by_id[b]) for a, b in links],
                      areas=translated_board(content, comp, [a.model_dump() for a in model.areas], shown_in))
    return tpl.render(name, **values)


def board_piece(content: GameContent, comp: LoadedComponent, theme: str = "standard",
                lang: str | None = None) -> PieceSpec:
    """A board small enough for one sheet, as one piece (with its back when it has one)."""
    model = comp.model
    assert isinstance(model, Board)
    back = Face(board_svg(content, comp, "back", theme, lang), None) if model.back else None
    return PieceSpec(comp.stem, model.size, model.safe, Face(board_svg(content, comp, theme=theme, lang=lang), None), back)


def hex_pieces(content: GameContent, comp: LoadedComponent, theme: str = "standard",
               lang: str | None = None) -> Iterator[PieceSpec]:
    """A hex board's pieces, each cut along the outline of its hexes; its template gets `item`:
    id, hexes (q, r and centre x, y in mm) and outline (polygon points)."""
    from ..rules import piece_cluster

    model = comp.model
    assert isinstance(model, HexBoard)
    tpl = templates_for(content, comp)
    for piece in model.pieces:
        size, cluster, centres = piece_cluster(model, piece)
        base = template_values(content, comp, size, theme, lang)
        item = {"id": piece.id, "hexes": centres, "hex": model.hex.size,
                "outline": " ".join(f"{x:.3f},{y:.3f}" for x, y in cluster.boundary)}
        spec = PieceSpec(comp.stem, size, model.safe, Face(tpl.render(model.front, **base, item=item), None), None,
                         cluster, piece.id)
        for _ in range(piece.qty):
            yield spec
