"""A game folder → typed, checked content (structure only; the rules stage checks the rules)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..errors import ContentError, Pos, Problem, UsageError, expected_found
from ..geometry import MARGIN, PAPERS, hexgrid
from .i18n import Catalogs, fill, guide_problems, load_catalogs, typography
from .items import Item, check_items, implicit_fields, plain
from .load import YList, YMap, load_yaml, pos_of
from .model import KINDS, MAX_TITLE, Component, Deck, FieldSpec, Game, HexBoard, Sheet, Standee, Tokens
from .validation import validate_model
from .paths import Roots, inside, is_safe_name
from .spreadsheets import SheetItems, is_sheet_source, sheet_items
from .translations import check_translations

# Limits no real game meets (docs/content-format.md, "Limits"), beside those of each file (model.py)
MAX_PIECES = 10_000  # pieces of one component, copies counted; the benchmark deck has 6,000
MAX_GAME_PIECES = 20_000  # pieces of one game
MIN_PIECE = 5.0  # mm: a smaller piece cannot be cut out
MAX_HEADING = 300  # characters of a sheet's title or heading; the longest shipped one has 87
MAX_SHEET_TEXT = 200_000  # characters of one sheet in one language, about 50 pages
# the largest piece every paper prints, either way up: the printable area of A4 and of US Letter
SHEET_ROOM = (min(PAPERS[p].width for p in ("a4", "letter")) - 2 * MARGIN,
              min(PAPERS[p].height for p in ("a4", "letter")) - 2 * MARGIN)


@dataclass(frozen=True)
class LoadedComponent:
    stem: str
    model: Component
    raw: YMap
    items: list[Item]
    shown: str
    # a spreadsheet's translation columns: (language, item key, field, text, cell), merged into the catalogs
    translations: tuple[tuple[str, str, str, str, Pos], ...] = ()

    @property
    def kind(self) -> str:
        return self.model.kind

    def count(self) -> int:
        return sum(item.qty for item in self.items)

    def pieces(self) -> int:
        """Physical pieces before imposition: copies of items, of hex pieces; a board is one."""
        if isinstance(self.model, HexBoard):
            return sum(piece.qty for piece in self.model.pieces)
        return self.count() if self.items else 0


@dataclass(frozen=True)
class GameContent:
    id: str
    game: Game
    raw: YMap
    shown: str
    components: dict[str, LoadedComponent]
    catalogs: Catalogs
    roots: Roots

    def localised(self, lang: str, key: str, default: str) -> str:
        """A game's optional catalog text (e.g. kit.credits), typeset; the default when the game has none."""
        if self.catalogs.has(key):
            return typography(fill(self.catalogs.get(lang, key), lang, self.game.params), lang)
        return typography(default, lang) if default else ""

    def title_in(self, lang: str) -> str:
        """The game's title as printed in a language: the catalogs' kit.title when the game gives one."""
        return self.localised(lang, "kit.title", self.game.title)

    def languages(self, asked: tuple[str, ...] | None) -> list[str]:
        """The languages asked for (all when None), as the game spells them (`FR` is fr): each must be one of
        the game's, or a UsageError says which it has."""
        have = self.game.languages
        spelt = {lang.lower(): lang for lang in have}
        for lang in asked or ():
            if lang.lower() not in spelt:
                close = difflib.get_close_matches(lang.lower(), list(spelt), n=1)
                hint = f" (did you mean {spelt[close[0]]!r}?)" if close else ""
                raise UsageError(f"expected a language of {self.id} ({', '.join(have)}), found {lang!r}{hint}")
        return list(have) if asked is None else list(dict.fromkeys(spelt[lang.lower()] for lang in asked))

    def printed_texts(self) -> list[tuple[Pos, str]]:
        """Texts printed as written in the files, not through a template or a catalog (the print guide,
        page heads and footers): the draw stage checks that the fonts have their characters."""
        game = [(pos_of(self.raw, key) or self.raw.pos, getattr(self.game, key)) for key in ("title", "credits", "players")]
        return [(pos, text) for pos, text in game if text] + [
            (pos_of(c.raw, "title") or c.raw.pos, c.model.title) for c in self.components.values()]


def _items_of(model: Component) -> tuple[str, list[dict[str, Any]] | None]:
    if isinstance(model, Deck):
        return "cards", model.cards
    if isinstance(model, (Standee, Tokens)):
        return "items", model.items
    return "", None


def load_component(roots: Roots, game_id: str, stem: str, at: Pos) -> tuple[LoadedComponent | None, list[Problem]]:
    file = roots.content / game_id / f"{stem}.yaml"
    if not is_safe_name(stem):
        return None, [expected_found(at, "a component file stem (letters, digits, -)", stem)]
    if not file.is_file():
        stems = [p.stem for p in (roots.content / game_id).glob("*.yaml") if p.stem != "game"]
        close = difflib.get_close_matches(stem, stems, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return None, [expected_found(at, f"a component file {roots.shown(file)}", f"no such file{hint}", raw=True)]
    shown = roots.shown(file)
    if not inside(file, roots.content / game_id):
        return None, [expected_found(at, f"a component file inside {roots.shown(roots.content / game_id)}",
                                     f"{shown}, a link leaving it", raw=True)]
    try:
        raw = load_yaml(file, shown)
    except ContentError as exc:
        return None, exc.problems
    if not isinstance(raw, YMap):
        return None, [expected_found(Pos(shown), "a mapping with 'kind'", raw)]
    kind = raw.get("kind")
    model_cls = KINDS.get(kind) if isinstance(kind, str) else None
    if model_cls is None:
        return None, [expected_found(pos_of(raw, "kind") or raw.pos, "a kind (" + ", ".join(KINDS) + ")", kind)]
    raw, sheet = _with_sheet_items(roots, game_id, raw, kind)
    model, problems = validate_model(model_cls, raw, raw.pos)
    problems += sheet.problems if sheet else []
    if model is None:  # its items are still checked, so that one problem does not hide the others
        return None, problems + _named(sheet, _items_without_model(stem, kind, raw))
    key, raw_items = _items_of(model)
    items: list[Item] = []
    if raw_items is not None:
        items, item_problems = check_items(stem, model.kind, raw.get(key), model.fields, pos_of(raw, key) or raw.pos)
        problems += _named(sheet, item_problems)
    problems += _check_names(model, raw)
    loaded = LoadedComponent(stem, model, raw, items, shown, tuple(sheet.translations) if sheet else ())
    return loaded, problems + _check_pieces(loaded)


def _with_sheet_items(roots: Roots, game_id: str, raw: YMap, kind: str) -> tuple[YMap, SheetItems | None]:
    """The component with its items read from the spreadsheet it names (`cards: cards.csv`), each value
    at its cell, so that they are checked like items written in the file; as it is when it lists them."""
    key = "cards" if kind in ("deck", "double-sided") else "items" if kind in ("standee", "tokens") else ""
    value = raw.get(key)
    if not key or value is None or isinstance(value, list):
        return raw, None
    at = pos_of(raw, key) or raw.pos
    if is_sheet_source(value):
        sheet = sheet_items(roots, roots.content / game_id, value, at, _declared_fields(raw, kind))
    else:  # one problem, not one per form the value could take
        sheet = SheetItems.refused(expected_found(at, f"a list of items or a spreadsheet's file name ({key}: {key}.csv)", value))
    with_items = YMap(raw)
    with_items._path, with_items._at, with_items._spots = raw._path, raw._at, raw._spots
    with_items[key] = sheet.items
    return with_items, sheet


def _named(sheet: SheetItems | None, problems: list[Problem]) -> list[Problem]:
    return sheet.named(problems) if sheet else problems


def _declared_fields(raw: YMap, kind: str) -> dict[str, FieldSpec]:
    """The item fields a component declares, read before its other settings (a spreadsheet's cells are
    typed by them), or none when they are wrong (their own problems are reported)."""
    try:
        fields = TypeAdapter(dict[str, FieldSpec]).validate_python(plain(raw.get("fields") or {}))
    except ValidationError:
        return {}
    return {**implicit_fields(kind), **fields}


def _items_without_model(stem: str, kind: str, raw: YMap) -> list[Problem]:
    """The item problems of a component whose settings are wrong, when its declared fields are readable."""
    key = "cards" if kind in ("deck", "double-sided") else "items"
    if key not in raw:
        return []
    try:
        fields = TypeAdapter(dict[str, FieldSpec]).validate_python(plain(raw.get("fields") or {}))
    except ValidationError:
        return []  # the fields' own problems are already reported
    return check_items(stem, kind, raw.get(key), fields, pos_of(raw, key) or raw.pos)[1]


def _check_names(model: Component, raw: YMap) -> list[Problem]:
    """Template names stay inside the template folders."""
    problems = []
    for key in ("front", "back", "template"):
        name = getattr(model, key, None)
        if isinstance(name, str) and not is_safe_name(name):
            problems.append(expected_found(pos_of(raw, key) or raw.pos, "a template file name without folders", name))
    return problems


def _check_pieces(comp: LoadedComponent) -> list[Problem]:
    """A component's pieces are few enough to build in bounded time, and each fits a sheet."""
    problems = []
    if comp.pieces() > MAX_PIECES:
        key = "pieces" if isinstance(comp.model, HexBoard) else "cards" if isinstance(comp.model, Deck) else "items"
        problems.append(expected_found(pos_of(comp.raw, key) or comp.raw.pos, f"at most {MAX_PIECES:,} pieces in a component",
                                       f"{comp.pieces():,}", raw=True))
    for at, (w, h) in _piece_sizes(comp):
        room_w, room_h = SHEET_ROOM
        if min(w, h) < MIN_PIECE:
            problems.append(expected_found(at, f"a piece at least {MIN_PIECE:g} mm a side", f"{w:g} x {h:g} mm", raw=True))
        elif not (w <= room_w and h <= room_h or w <= room_h and h <= room_w):
            problems.append(expected_found(at, f"a piece that fits a sheet of A4 and of US Letter (at most {room_w:g} x "
                                               f"{room_h:g} mm, either way up)", f"{w:.4g} x {h:.4g} mm", raw=True))
    return problems


def _piece_sizes(comp: LoadedComponent) -> list[tuple[Pos, tuple[float, float]]]:
    """Each distinct piece's box in mm, with where it is given (boards are tiled when too large: none)."""
    model, at = comp.model, pos_of(comp.raw, "size") or comp.raw.pos
    if isinstance(model, Standee):
        return [(at, (model.size[0], 2 * model.size[1] + 2 * model.base))]  # tab, face, face, tab
    if isinstance(model, (Deck, Tokens)):
        return [(at, model.size)]
    if not isinstance(model, HexBoard):
        return []
    grid, raw_pieces, out = hexgrid.HexGrid(model.hex.size, (0.0, 0.0), model.hex.flat), comp.raw.get("pieces"), []
    for index, piece in enumerate(model.pieces):
        points = [pt for hx in piece.hexes for pt in grid.corners(tuple(hx))]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        out.append((pos_of(raw_pieces, index) or comp.raw.pos, (max(xs) - min(xs), max(ys) - min(ys))))
    return out


def _check_ids(game: Game, raw: YMap) -> list[Problem]:
    """Rule ids and fact ids are unique: a second one names where the first is."""
    problems = []
    for key in ("rules", "facts"):
        entries, first = raw.get(key), {}
        for index, entry in enumerate(getattr(game, key)):
            at = pos_of(entries[index], "id") if isinstance(entries, YList) else None
            at = at or raw.pos
            if entry.id in first:
                problems.append(expected_found(at, f"each {key[:-1]} id once (first at {first[entry.id]})",
                                               f"{entry.id!r} again", raw=True))
            first.setdefault(entry.id, at)
    return problems


def load_game(roots: Roots, game_id: str) -> GameContent:
    """Load and structurally validate one game; raises ContentError with every problem found."""
    folder = roots.content / game_id
    file = folder / "game.yaml"
    shown = roots.shown(file)
    if not inside(file, folder):
        raise ContentError([expected_found(Pos(shown), f"a game.yaml inside {roots.shown(folder)}", "a link leaving it",
                                           raw=True)])
    raw = load_yaml(file, shown)
    if not isinstance(raw, YMap):
        raise ContentError([expected_found(Pos(shown), "a mapping", raw)])
    game, problems = validate_model(Game, raw, raw.pos)
    if game is None:
        raise ContentError(problems)
    if game.id != game_id:
        problems.append(expected_found(pos_of(raw, "id") or raw.pos, f"the folder name {game_id!r}", game.id))
    problems += _check_ids(game, raw)
    components: dict[str, LoadedComponent] = {}
    stems_raw = raw.get("components")
    for index, stem in enumerate(game.components):
        at = pos_of(stems_raw, index) or raw.pos
        if stem in components:
            problems.append(expected_found(at, "each component once", stem))
            continue
        loaded, found = load_component(roots, game_id, stem, at)
        problems += found
        if loaded is not None:
            components[stem] = loaded
    pieces = sum(c.pieces() for c in components.values())
    if pieces > MAX_GAME_PIECES:
        problems.append(expected_found(pos_of(raw, "components") or raw.pos, f"at most {MAX_GAME_PIECES:,} pieces in a game",
                                       f"{pieces:,}", raw=True))
    catalogs, catalog_problems = load_catalogs(roots, folder, game.languages)
    problems += catalog_problems + _sheet_translations(components, catalogs, game) + guide_problems(catalogs, game.languages, pos_of(raw, "languages") or raw.pos)
    content = GameContent(game_id, game, raw, shown, components, catalogs, roots)
    problems += _check_sheet_keys(content) + _check_titles(content)
    problems += check_translations(content)
    if problems:
        raise ContentError(problems)
    return content


def _sheet_translations(components: dict[str, LoadedComponent], catalogs: Catalogs, game: Game) -> list[Problem]:
    """A spreadsheet's translation cells become the catalog entries they stand for (items.<stem>.<key>.<field>),
    at their cells: checked, and printed, like translations written in a catalog."""
    problems: list[Problem] = []
    refused: set[tuple[str, str]] = set()
    others = [lang for lang in game.languages if lang != game.content_lang]
    for comp in components.values():
        for lang, key, field_name, text, pos in comp.translations:
            entry = f"items.{comp.stem}.{key}.{field_name}"
            if lang not in others:
                if (comp.stem, lang) not in refused:  # once per column, not once per row
                    refused.add((comp.stem, lang))
                    problems.append(expected_found(pos, f"a language of the game besides {game.content_lang} "
                                                   f"({', '.join(others) or 'none'}) for '{field_name}.<lang>'", lang))
            elif entry in catalogs.texts.get(lang, {}):
                problems.append(expected_found(pos, f"{entry!r} given once, in the sheet or in i18n/{lang}, found it in "
                                               f"both ({catalogs.positions[lang][entry]})", text))
            else:
                catalogs.texts.setdefault(lang, {})[entry] = text
                catalogs.positions.setdefault(lang, {})[entry] = pos
    return problems


def _check_sheet_keys(content: GameContent) -> list[Problem]:
    problems = []
    for comp in content.components.values():
        if not isinstance(comp.model, Sheet):
            continue
        blocks = comp.raw.get("blocks", [])
        for index, block in enumerate(comp.model.blocks):
            keys = block.keys or ([block.key] if block.key else [])
            for key in keys:
                full = f"{comp.model.catalog}.{key}"
                if not content.catalogs.has(full):
                    at = pos_of(blocks, index) or comp.raw.pos
                    problems.append(expected_found(at, f"catalog key {full!r} in i18n/<lang>.yaml", "none", raw=True))
    return problems


def _check_titles(content: GameContent) -> list[Problem]:
    """Catalog titles are short enough for a page head, a sheet's headings for a column, a sheet's
    text for a bounded number of pages."""
    problems = []
    for lang, texts in content.catalogs.texts.items():
        where = content.catalogs.positions.get(lang, {})
        for key, text in texts.items():
            if (key == "kit.title" or key.startswith("kit.components.")) and len(text) > MAX_TITLE:
                problems.append(expected_found(where.get(key, content.raw.pos), f"a title of at most {MAX_TITLE} characters",
                                               f"{len(text):,}", raw=True))
        for comp in content.components.values():
            if isinstance(comp.model, Sheet):
                problems += _check_sheet_text(comp, comp.model, lang, texts, where)
    return problems


def _check_sheet_text(comp: LoadedComponent, sheet: Sheet, lang: str, texts: dict[str, str],
                      where: dict[str, Pos]) -> list[Problem]:
    problems, total = [], 0
    for block in sheet.blocks:
        for key in block.keys or ([block.key] if block.key else []):
            text = texts.get(f"{sheet.catalog}.{key}", "")
            total += len(text)
            if block.style in ("title", "h2", "h3") and len(text) > MAX_HEADING:
                problems.append(expected_found(where.get(f"{sheet.catalog}.{key}", comp.raw.pos),
                                               f"a sheet {block.style} of at most {MAX_HEADING} characters", f"{len(text):,}", raw=True))
    if total > MAX_SHEET_TEXT:
        problems.append(expected_found(pos_of(comp.raw, "blocks") or comp.raw.pos,
                                       f"a sheet of at most {MAX_SHEET_TEXT:,} characters in {lang}", f"{total:,}", raw=True))
    return problems
