"""Typed models of content files: one model per component kind, every field documented.

The models are declarations; `validation.validate_model` turns pydantic's findings into positioned
`Problem`s with the project's one phrasing.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ..errors import describe
from .i18n import language_code

# Limits no real game meets (docs/content-format.md, "Limits"): they bound the work of a build, so a
# wrong value is a positioned error from `validate` instead of minutes of drawing or a crash.
MAX_MM = 2_000.0  # a board's side, a position, any length in mm; the largest shipped board is 560 mm
MAX_QTY = 1_000  # copies of one item; shipped items have at most 36
MAX_TITLE = 60  # characters of a printed title (a game's, a component's): it runs in every page head
MAX_COMPONENTS = 100  # components of a game; shipped games have at most 19
MAX_LAYOUTS = 50  # layouts of a hex board (one diagram page each)
MAX_PLAYERS = 100
MAX_AXIAL = 1_000  # hex coordinates, either way from [0, 0]
MAX_FIGURE_H = 240.0  # mm: a sheet's figure must fit a column of US Letter (246 mm); the tallest shipped one is 188

Position = Annotated[float, Field(ge=-MAX_MM, le=MAX_MM)]
Length = Annotated[float, Field(gt=0, le=MAX_MM)]
Inset = Annotated[float, Field(ge=0, le=100)]
Players = Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
Title = Annotated[str, Field(max_length=MAX_TITLE)]
Language = Annotated[str, AfterValidator(language_code)]  # BCP 47, known to CLDR (numbers, quotes)
Axial = tuple[Annotated[int, Field(ge=-MAX_AXIAL, le=MAX_AXIAL)], Annotated[int, Field(ge=-MAX_AXIAL, le=MAX_AXIAL)]]

NAMED_SIZES: dict[str, tuple[float, float]] = {"poker": (63.5, 88.9), "bridge": (57.2, 88.9), "mini": (44.0, 63.0),
                                                "tarot": (70.0, 120.0), "square": (70.0, 70.0)}


def parse_size(value: Any) -> tuple[float, float]:
    if isinstance(value, str):
        if value in NAMED_SIZES:
            return NAMED_SIZES[value]
        raise ValueError(f"expected a size name ({', '.join(NAMED_SIZES)}) or [width, height], found {describe(value)}")
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        if all(0 < v <= MAX_MM for v in value):  # NaN and infinity fail too
            return float(value[0]), float(value[1])
        shown = ", ".join(f"{v:g}" for v in value)
        raise ValueError(f"expected [width, height] in mm, each above 0 and at most {MAX_MM:g}, found [{shown}]")
    raise ValueError(f"expected a size name ({', '.join(NAMED_SIZES)}) or [width, height] in mm, found {describe(value)}")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


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


class Selector(Strict):
    """Picks items (or board nodes/areas) out of one or more components."""

    component: str | list[str] = Field(description="component stem, or a list of stems")
    collection: str = Field(
        "items", description="which collection: items; component: one entry of the component's own settings (back, size...); a graph board's nodes or areas; a hex board's pieces, placements or "
                    "starts (the last two carry their layout's id as `layout`); data.<name>: a list in the "
                    "component's data (a table such as a setup by player count)")
    where: dict[str, Any] = Field(default_factory=dict, description="keep only entries whose fields equal these values; "
                                                                     "{in: [a, b]} keeps entries whose field is one of them, "
                                                                     "{not: v} those whose field differs (not: null: has a value)")
    field: str | None = Field(None, description="the field whose values a names/range/length rule reads")
    per: list[str] = Field(default_factory=list, description="count rule: the count holds for each group of entries "
                                                             "sharing these fields' values (e.g. [layout, player])")

    @field_validator("collection")
    @classmethod
    def _known_collection(cls, value: str) -> str:
        if value in COLLECTIONS or re.fullmatch(r"data\.[A-Za-z_][\w-]*", value):
            return value
        raise ValueError(f"expected {', '.join(COLLECTIONS)} or data.<name>, found {value!r}")

    @property
    def components(self) -> list[str]:
        return [self.component] if isinstance(self.component, str) else list(self.component)


COLLECTIONS = ("items", "component", "nodes", "areas", "pieces", "placements", "starts")


class Rule(Strict):
    """One count, name list or value the rulebook states, checked on every build."""

    id: str = Field(description="short unique name of the rule")
    source: str = Field(description="rulebook file and section the value comes from, or 'designed: …'")
    count: Selector | None = Field(None, description="count physical pieces (quantities expanded)")
    names: Selector | None = Field(None, description="the multiset of a field's values over pieces")
    range: Selector | None = Field(None, description="every value of a field lies within min..max")
    length: Selector | None = Field(None, description="every selected item's list field has `expect` entries (or min..max)")
    supply: "Supply | None" = Field(None, description="there are enough pieces for what each player count hands out")
    param: str | None = Field(None, description="a value of game.yaml's params")
    expect: Any = Field(None, description="the expected count, list of names, or param value")
    min: float | None = Field(None, description="lower bound of a range, length or count rule")
    max: float | None = Field(None, description="upper bound of a range, length or count rule")

    @model_validator(mode="after")
    def _one_check(self) -> "Rule":
        given = [k for k in RULE_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"expected exactly one of {', '.join(RULE_KINDS)}, found {len(given)}")
        bounded = given[0] in ("range", "length") or (given[0] == "count" and (self.min, self.max) != (None, None))
        if not bounded and given[0] != "supply" and self.expect is None:
            raise ValueError("expected an 'expect' value, found nothing")
        if bounded and self.expect is None and self.min is None and self.max is None:
            raise ValueError(f"expected 'min' or 'max' on a {given[0]} rule, found neither")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in RULE_KINDS if getattr(self, k) is not None)


RULE_KINDS = ("count", "names", "range", "length", "supply", "param")


class Share(Strict):
    players: Players = Field(description="a player count")
    param: str = Field(description="the param giving each player's share at that count")


class Supply(Strict):
    """Each player takes `param` pieces at a player count: the pieces must suffice for every count."""

    pieces: Selector = Field(description="the pieces shared out")
    shares: list[Share] = Field(min_length=1, description="what each player takes, by player count")


Rule.model_rebuild()


class NodePair(Strict):
    from_: str = Field(alias="from", description="node name or id")
    to: str = Field(description="node name or id")


class Within(Strict):
    from_: str = Field(alias="from", description="node name or id")
    to: list[str] = Field(description="node names or ids that must be close")
    max: int = Field(description="largest allowed number of moves")


class Reachable(Strict):
    from_: dict[str, Any] = Field(alias="from", description="node selector (field equality)")
    to: dict[str, Any] = Field(description="node selector (field equality)")


class Exits(Strict):
    nodes: dict[str, Any] = Field(description="node selector (field conditions); {} selects every node")
    min: int = Field(2, ge=1, description="fewest links each selected node must have")


FACT_KINDS = ("distance", "within", "reachable", "corners", "nearest", "exits")


class Fact(Strict):
    """An assertion on a graph board, from the rulebook's own examples or its fairness."""

    id: str = Field(description="short unique name of the fact")
    source: str = Field(description="rulebook file and section")
    board: str = Field(description="stem of the board-graph component")
    distance: NodePair | None = Field(None, description="shortest path in moves must equal expect")
    within: Within | None = Field(None, description="each target within max moves")
    reachable: Reachable | None = Field(None, description="every 'to' node reachable from every 'from' node")
    corners: dict[str, Any] | None = Field(None, description="nodes matching this selector are the nearest to each board corner")
    nearest: Reachable | None = Field(None, description="every 'from' node has its nearest 'to' node at the same number of "
                                                         "moves (exactly expect moves, when expect is given)")
    exits: Exits | None = Field(None, description="every selected node has at least min links, so no one is stuck in it")
    expect: int | None = Field(None, description="moves expected by a distance (required) or nearest fact")

    @model_validator(mode="after")
    def _one_check(self) -> "Fact":
        given = [k for k in FACT_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"expected exactly one of {', '.join(FACT_KINDS)}, found {len(given)}")
        if given[0] == "distance" and self.expect is None:
            raise ValueError("expected an 'expect' distance, found nothing")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in FACT_KINDS if getattr(self, k) is not None)


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
    cards: list[dict[str, Any]] = Field(description="the cards; each may have qty")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class Standee(ComponentBase):
    """Fold-over counters: tab, face, mirrored face, tab."""

    kind: Literal["standee"] = Field(description="standee")
    size: tuple[float, float] = Field(description="one face, [w, h] mm")
    base: Length = Field(12.0, description="depth of each base tab in mm")
    front: str = Field(description="face template file name")
    colour_field: str = Field("colour", description="item field whose colour fills the tabs and the bleed")
    items: list[dict[str, Any]] = Field(description="the counters; each may have qty")

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
    items: list[dict[str, Any]] = Field(description="the tokens; each may have qty")

    _size = field_validator("size", mode="before")(lambda cls, v: parse_size(v))


class GraphNode(Strict):
    id: str = Field(description="unique id used by edges")
    kind: str = Field(description="node kind, e.g. location, home, space")
    at: tuple[Position, Position] = Field(description="centre [x, y] in mm from the board's top left")
    name: str | None = Field(None, description="printed name; facts may refer to it")
    colour: str | None = Field(None, description="fill colour #rrggbb")
    note: str | None = Field(None, description="a rule reminder printed with the node (e.g. what may not be done there)")
    tags: list[str] = Field(default_factory=list, description="labels that facts and templates select on ({tags: {has: x}})")


class Area(Strict):
    id: str = Field(description="unique id")
    kind: str = Field(description="area kind, e.g. player, pile")
    at: tuple[Position, Position] = Field(description="top-left [x, y] in mm")
    size: tuple[Length, Length] = Field(description="[w, h] in mm")
    label: str = Field("", description="printed label")
    colour: str | None = Field(None, description="accent colour #rrggbb")


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
