"""Typed models of content files: one model per component kind, every field documented.

The models are declarations; `validation.validate_model` turns pydantic's findings into positioned
`Problem`s with the project's one phrasing.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ...errors import describe
from ..i18n import language_code
from .base import *  # noqa: F401,F403 - the limits and Strict
from .base import HexColour, Strict, parse_size
from .rules import Fact, Rule, Selector

class FieldSpec(Strict):
    """Declares one game-specific field of a component's items."""

    type: Literal["str", "text", "int", "number", "enum", "colour", "bool", "list", "map"] = Field(
        description="value type: str (one line), text (wrapped, with **bold**/*italic*), int, number, enum, colour "
                    "(#rrggbb), bool, list or map (structured data that templates and game checks read)")
    required: bool = Field(True, description="whether every item must give this field")
    values: list[str] | None = Field(None, description="allowed values of an enum field")
    min: float | None = Field(None, description="smallest allowed value of an int/number field")
    max: float | None = Field(None, description="largest allowed value of an int/number field")
    doc: str = Field("", description="what the field means, for people editing the content")
    localised: bool = Field(False, description="text translated per language: the content language here, every other "
                                                "language in its catalog under items.<component>.<item key>.<field> "
                                                "(the item key: its id, else its title, else its name); the component "
                                                "then prints once per language")


class ItemSheet(Strict):
    """A component's items read from a spreadsheet in the game's folder, a row an item."""
    file: str = Field(description="a .csv (UTF-8), .xlsx or .ods file, relative to the game's folder")
    sheet: str | None = Field(None, description="the sheet (tab) of an .xlsx or .ods file; the first when omitted")
    columns: dict[str, str] = Field(default_factory=dict, description="sheet headers → the fields they fill (qty: copies); other columns are ignored; without it, headers are field names")


class Font(Strict):
    """A font of game.yaml's `fonts`: a TTF/OTF file of the game's folder, or a fontpkg-* package (all its styles)."""

    family: str | None = Field(None, max_length=MAX_TITLE, description="the font-family templates name (a package's own by default)")
    file: str | None = Field(None, description="a .ttf or .otf file, relative to the game's folder (or give package)")
    package: str | None = Field(None, pattern=r"^fontpkg-[a-z0-9-]+$", description="an installed fontpkg-* package")
    weight: Literal["regular", "bold"] = Field("regular", description="a file's weight")
    style: Literal["normal", "italic"] = Field("normal", description="a file's style")


class Game(Strict):
    """game.yaml: a game's metadata, its parameters and its rules-count schema."""

    id: str = Field(description="game id; must equal the folder name")
    title: Title = Field(description=f"the game's title as printed (at most {MAX_TITLE} characters)")
    credits: str = Field("", description="designer credits, printed on the print guide")
    players: str = Field("", description="player count, e.g. '2-4'")
    status: Literal["ready", "draft"] = Field("ready", description="draft: validated and buildable by name, left out of 'build all'")
    languages: list[Language] = Field(["en"], description="languages of the localised components (BCP 47: en, es, pt-BR)")
    content_lang: Language = Field("en", description="language of the text of components that are not localised (cards, boards)")
    fonts: list[Font] = Field(default_factory=list, max_length=MAX_COMPONENTS, description="the game's own fonts, for templates")
    font_map: dict[str, str] = Field(default_factory=dict, max_length=MAX_COMPONENTS,
                                     description="families templates name (a drawing program's Arial, serif) → the family printkit draws them with")
    components: list[str] = Field(max_length=MAX_COMPONENTS, description="component file stems, in kit order")
    params: dict[str, int | float | str] = Field(default_factory=dict, description="named rule values used by rules, templates and catalogs")
    rules: list[Rule] = Field(default_factory=list, description="the rules-count schema")
    facts: list[Fact] = Field(default_factory=list, description="assertions on graph boards")
    checks: list[str] = Field(default_factory=list, description="game-specific checks by name (installed entry points, group printkit.checks)")
    proper_names: list[str] = Field(default_factory=list, description="names printed as written in every language (people, "
                                                                       "ships, places, the game's own title), declared once: "
                                                                       "the check that a kit has no words of another language skips them")


class ComponentBase(Strict):
    title: Title = Field(description=f"the component's name as printed in the kit (at most {MAX_TITLE} characters)")
    fields: dict[str, FieldSpec] = Field(default_factory=dict, description="schema of the items' game-specific fields")
    data: dict[str, Any] = Field(default_factory=dict, description="values shared by every item, passed to templates as `data`")
    safe: Inset = Field(3.0, description="safe-zone inset from the trim in mm; text must stay inside")
    localised: bool = Field(False, description="printed once per language: templates get `lang` and `t(key)` (catalog text); "
                                                "implied by a localised field")

    @property
    def per_language(self) -> bool:
        """Printed once per language: localised, or with a localised field."""
        return self.localised or any(spec.localised for spec in self.fields.values())


class Deck(ComponentBase):
    """Cards with one shared back (deck) or each with its own back (double-sided)."""

    kind: Literal["deck", "double-sided"] = Field(description="deck: one shared back; double-sided: a back per item")
    size: tuple[float, float] = Field(description="card size: poker, bridge, mini, tarot, square or [w, h] mm")
    front: str = Field(description="front template file name")
    back: str = Field(description="back template file name")
    cards: list[dict[str, Any]] | str | ItemSheet = Field(description="the cards, each may have qty; or a spreadsheet: cards.csv, {file, columns}")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class Standee(ComponentBase):
    """Fold-over counters: tab, face, mirrored face, tab."""

    kind: Literal["standee"] = Field(description="standee")
    size: tuple[float, float] = Field(description="one face, [w, h] mm")
    base: Length = Field(12.0, description="depth of each base tab in mm")
    front: str = Field(description="face template file name")
    colour_field: str = Field("colour", description="item field whose colour fills the tabs and the bleed")
    items: list[dict[str, Any]] | str | ItemSheet = Field(description="the counters, each may have qty; or a spreadsheet: items.csv, {file, columns}")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class Tokens(ComponentBase):
    """Cut-out tokens and tiles of one shape, printed on one side or on both."""

    kind: Literal["tokens"] = Field(description="tokens")
    shape: Literal["rect", "square", "circle", "hexagon"] = Field(
        "rect", description="outline: rect/square (cut at the marks), circle or hexagon (cut along the printed outline)")
    size: tuple[float, float] = Field(description="[w, h] mm; a circle's diameter is w; a hexagon fills its box, flat-topped when w > h")
    front: str = Field(description="front template file name")
    back: str | None = Field(None, description="back template file name; tokens are double-sided when given")
    safe: Inset = Field(2.0, description="safe-zone inset from the trim in mm; text must stay inside")
    items: list[dict[str, Any]] | str | ItemSheet = Field(description="the tokens, each may have qty; or a spreadsheet: items.csv, {file, columns}")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class GraphNode(Strict):
    id: str = Field(description="unique id used by edges")
    kind: str = Field(description="node kind, e.g. location, home, space")
    at: tuple[Position, Position] = Field(description="centre [x, y] in mm from the board's top left")
    name: str | None = Field(None, description="printed name; facts may refer to it")
    colour: HexColour | None = Field(None, description="fill colour #rrggbb")
    note: str | None = Field(None, description="a rule reminder printed with the node (e.g. what may not be done there)")
    tags: list[str] = Field(default_factory=list, description="labels that facts and templates select on ({tags: {has: x}})")


class Area(Strict):
    id: str = Field(description="unique id")
    kind: str = Field(description="area kind, e.g. player, pile")
    at: tuple[Position, Position] = Field(description="top-left [x, y] in mm")
    size: tuple[Length, Length] = Field(description="[w, h] in mm")
    label: str = Field("", description="printed label")
    colour: HexColour | None = Field(None, description="accent colour #rrggbb")


class Board(ComponentBase):
    """One drawing (an evidence board, a player board): a piece when it fits a sheet, else tiles and a poster."""

    kind: Literal["board"] = Field(description="board")
    size: tuple[float, float] = Field(description="board [w, h] in mm")
    template: str = Field(description="board template file name")
    back: str | None = Field(None, description="back template, printed duplex when the board fits a sheet")
    safe: Inset = Field(5.0, description="safe-zone inset from the trim in mm")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class GraphBoard(Board):
    """A board of named nodes linked by paths, with rectangular areas."""

    kind: Literal["board-graph"] = Field(description="board-graph")  # type: ignore[assignment]
    template: str = Field("board.svg.j2", description="board template file name")
    nodes: list[GraphNode] = Field(description="the board's nodes")
    edges: list[list[str]] = Field(description="chains of node ids; consecutive nodes are linked")
    areas: list[Area] = Field(default_factory=list, description="player areas, card piles")


class HexGeometry(Strict):
    size: float = Field(gt=0, le=100, description="hex size in mm, centre to corner (across the flats = size x 1.732)")
    flat: bool = Field(True, description="flat-topped hexes (else pointy-topped)")


class HexPiece(Strict):
    id: str = Field(description="the piece's name, used by placements")
    hexes: list[Axial] = Field(min_length=1, max_length=100, description="the piece's hexes in axial [q, r] coordinates")
    qty: int = Field(1, ge=1, le=MAX_QTY, description="copies printed")


class Placement(Strict):
    piece: str = Field(description="id of a piece")
    at: Axial = Field(description="where the piece's hex [0, 0] goes, axial [q, r]")
    turn: int = Field(0, ge=0, le=5, description="turned by 60 degrees clockwise this many times")


class Seat(Strict):
    player: Players = Field(description="player number")
    colour: str | None = Field(None, description="colour name or #rrggbb the diagram uses for this player")
    facing: int = Field(0, ge=0, le=5, description="direction the player's pieces face: 60-degree turns clockwise from up")


class Start(Strict):
    player: Players = Field(description="player number (a seat of the layout)")
    piece: str = Field(description="what starts here (a name the game's rules count, e.g. a soul value)")
    at: Axial = Field(description="start hex, axial [q, r]")


class HexLayout(Strict):
    id: str = Field(description="layout name, e.g. 2-players")
    players: Players = Field(description="player count this layout is for")
    label: str = Field("", description="caption printed on the assembly diagram")
    placements: list[Placement] = Field(min_length=1, description="the pieces that make the board")
    seats: list[Seat] = Field(default_factory=list, description="where each player sits")
    starts: list[Start] = Field(default_factory=list, description="start positions")


class HexBoard(ComponentBase):
    """A board made of hex pieces: the pieces are printed to cut out, each layout as an assembly diagram."""

    kind: Literal["hex-board"] = Field(description="hex-board")
    hex: HexGeometry = Field(description="the hex grid")
    front: str = Field(description="template of a piece's face (gets `item`: id, hexes, outline)")
    diagram: str = Field(description="template of a layout's assembly diagram (gets `layout`)")
    diagram_size: tuple[float, float] = Field((190.0, 250.0), description="[w, h] mm of a diagram page's drawing")
    safe: Inset = Field(1.5, description="safe-zone inset in mm")
    pieces: list[HexPiece] = Field(min_length=1, description="the board's pieces")
    layouts: list[HexLayout] = Field(min_length=1, max_length=MAX_LAYOUTS, description="the ways the pieces are put together")

    _size = field_validator("diagram_size", mode="before")(lambda cls, v: parse_size(v))


class Block(Strict):
    style: Literal["title", "h2", "h3", "p", "bullets", "numbered", "figure"] = Field(description="paragraph style")
    key: str | None = Field(None, description="catalog key of the text (a figure's caption, optional)")
    keys: list[str] | None = Field(None, description="catalog keys of a list's entries")
    figure: str | None = Field(None, description="figure: the drawing's name, rendered by the sheet's figure template")

    @model_validator(mode="after")
    def _one_text(self) -> "Block":
        if self.style == "figure":
            if self.figure is None:
                raise ValueError("expected 'figure' (a drawing's name) on a figure block, found nothing")
            return self
        if (self.key is None) == (self.keys is None):
            raise ValueError("expected exactly one of key, keys, found " + ("both" if self.key else "neither"))
        return self


class Sheet(ComponentBase):
    """Flowing localised text on A4/Letter pages."""

    kind: Literal["sheet"] = Field(description="sheet")
    catalog: str = Field(description="catalog prefix of this sheet's keys")
    columns: int = Field(2, ge=1, le=3, description="text columns per page")
    blocks: list[Block] = Field(description="the sheet's text, in order")
    figures: str | None = Field(None, description="template drawing the figure blocks (gets `figure`, the name)")
    figure_sizes: dict[str, tuple[Length, Annotated[float, Field(gt=0, le=MAX_FIGURE_H)]]] = Field(default_factory=dict,
                                                         description="[w, h] mm of each figure by name; default: column width x 50")


KINDS: dict[str, type[ComponentBase]] = {
    "deck": Deck, "double-sided": Deck, "tokens": Tokens, "standee": Standee, "board": Board, "board-graph": GraphBoard,
    "sheet": Sheet, "hex-board": HexBoard,
}
Component = Deck | Tokens | Standee | Board | Sheet | HexBoard
