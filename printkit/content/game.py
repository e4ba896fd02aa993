"""A game folder → typed, checked content (structure only; the rules stage checks the rules)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..errors import ContentError, Pos, Problem, expected_found
from .i18n import Catalogs, fill, load_catalogs, typography
from .items import Item, check_items, plain
from .load import YMap, load_yaml, pos_of
from .model import KINDS, Component, Deck, FieldSpec, Game, Sheet, Standee, Tokens
from .validation import validate_model
from .paths import Roots, is_safe_name
from .translations import check_translations


@dataclass(frozen=True)
class LoadedComponent:
    stem: str
    model: Component
    raw: YMap
    items: list[Item]
    shown: str

    @property
    def kind(self) -> str:
        return self.model.kind

    def count(self) -> int:
        return sum(item.qty for item in self.items)


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
        return None, [expected_found(at, f"a component file {roots.shown(file)}", "no such file", raw=True)]
    shown = roots.shown(file)
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
    model, problems = validate_model(model_cls, raw, raw.pos)
    if model is None:  # its items are still checked, so that one problem does not hide the others
        return None, problems + _items_without_model(stem, kind, raw)
    key, raw_items = _items_of(model)
    items: list[Item] = []
    if raw_items is not None:
        items, item_problems = check_items(stem, model.kind, raw.get(key), model.fields, pos_of(raw, key) or raw.pos)
        problems += item_problems
    problems += _check_names(model, raw)
    return LoadedComponent(stem, model, raw, items, shown), problems


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


def load_game(roots: Roots, game_id: str) -> GameContent:
    """Load and structurally validate one game; raises ContentError with every problem found."""
    folder = roots.content / game_id
    file = folder / "game.yaml"
    shown = roots.shown(file)
    raw = load_yaml(file, shown)
    if not isinstance(raw, YMap):
        raise ContentError([expected_found(Pos(shown), "a mapping", raw)])
    game, problems = validate_model(Game, raw, raw.pos)
    if game is None:
        raise ContentError(problems)
    if game.id != game_id:
        problems.append(expected_found(pos_of(raw, "id") or raw.pos, f"the folder name {game_id!r}", game.id))
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
    catalogs, catalog_problems = load_catalogs(roots, folder, game.languages)
    problems += catalog_problems
    content = GameContent(game_id, game, raw, shown, components, catalogs, roots)
    problems += _check_sheet_keys(content)
    problems += check_translations(content)
    if problems:
        raise ContentError(problems)
    return content


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
