"""Per-item translations: the text of an item's localised fields in every language of the game.

A field declared `localised: true` is written in the component file in the game's content language;
each other language gives it in its catalog under `items.<component>.<item key>.<field>`, where the
item key is the item's `id`, else its `title`, else its `name` (as written in the content language).
A localised graph board's nodes (name, note) and areas (label) are translated the same way, keyed by
their id. Every translation must be there (no silent fallback to the content language) and every
translation must belong to an item, so both a missing and a stale one are positioned errors.

Shared text in a component's `data` is localised inline: a mapping from every language of the game
to its text (`box_label: {en: Retired, fr: Retiré, de: Ausgemustert}`), resolved for templates."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import Pos, Problem
from .i18n import PSEUDO, pseudo
from .items import Item
from .load import YMap, pos_of

if TYPE_CHECKING:
    from .game import GameContent, LoadedComponent

PREFIX = "items."
KEY_FIELDS = ("id", "title", "name")


BOARD_FIELDS = {"nodes": ("name", "note"), "areas": ("label",)}


def localised_fields(comp: LoadedComponent) -> list[str]:
    return [name for name, spec in comp.model.fields.items() if spec.localised]


def board_entries(comp: LoadedComponent) -> list[tuple[str, dict[str, Any], dict[str, Pos], tuple[str, ...]]]:
    """A localised graph board's translatable nodes and areas: (id, values, value positions, fields)."""
    from .model import GraphBoard

    if not isinstance(comp.model, GraphBoard) or not comp.model.per_language:
        return []
    out = []
    for collection, fields in BOARD_FIELDS.items():
        raw_list = comp.raw.get(collection, [])
        for i, entry in enumerate(getattr(comp.model, collection)):
            values = {f: getattr(entry, f) for f in fields if getattr(entry, f, None)}
            raw = raw_list[i] if i < len(raw_list) else None
            where = raw.value_pos if isinstance(raw, YMap) else {}
            out.append((entry.id, values, {f: where.get(f, pos_of(raw_list, i) or comp.raw.pos) for f in values}, fields))
    return out


def translated_board(content: GameContent, comp: LoadedComponent, entries: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Nodes or areas (as dumped for templates) with their text in `lang`."""
    if lang == content.game.content_lang or not comp.model.per_language:
        return entries
    table = content.catalogs.texts.get(lang, {})
    out = []
    for entry in entries:
        entry = dict(entry)
        for field in ("name", "note", "label"):
            key = f"{PREFIX}{comp.stem}.{entry.get('id')}.{field}"
            if entry.get(field) and lang == PSEUDO:
                entry[field] = pseudo(entry[field])
            elif entry.get(field) and key in table:
                entry[field] = table[key]
        out.append(entry)
    return out


def localised_data(value: Any, lang: str, languages: list[str], base: str) -> Any:
    """`data` with every {lang: value} mapping resolved to `lang`'s value (the pseudo language's made from
    the base language's: text pseudo-localised, a number such as a box height kept)."""
    if isinstance(value, dict):
        if value and set(value) == set(languages):
            if lang != PSEUDO:
                return value[lang]
            return pseudo(value[base]) if isinstance(value[base], str) else value[base]
        return {k: localised_data(v, lang, languages, base) for k, v in value.items()}
    if isinstance(value, list):
        return [localised_data(v, lang, languages, base) for v in value]
    return value


def _check_data(node: Any, languages: list[str], at: Pos) -> list[Problem]:
    """A mapping that gives some languages' text must give every language's."""
    problems = []
    if isinstance(node, dict):
        keys = set(node)
        langs = set(languages)
        if keys & langs and keys != langs and keys <= langs | {"en", "fr", "de"}:
            missing = ", ".join(sorted(langs - keys)) or "none"
            problems.append(Problem(at, f"expected text in every language ({', '.join(languages)}), found {missing} missing"))
        for key, value in node.items():
            where = (node.value_pos.get(key, at) if isinstance(node, YMap) else at)
            problems += _check_data(value, languages, where)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            problems += _check_data(value, languages, pos_of(node, i) or at)
    return problems


def item_key(item: Item) -> str:
    """The name an item's translations are filed under."""
    return next((str(item.values[k]) for k in KEY_FIELDS if isinstance(item.values.get(k), (str, int))), str(item.index))


def catalog_key(stem: str, item: Item, field: str) -> str:
    return f"{PREFIX}{stem}.{item_key(item)}.{field}"


def translated(content: GameContent, item: Item, values: dict[str, Any], lang: str) -> dict[str, Any]:
    """An item's values with its localised fields in `lang` (checked present when the game was loaded)."""
    comp = content.components.get(item.component)
    if comp is None or lang == content.game.content_lang:
        return values
    table = content.catalogs.texts.get(lang, {})
    out = dict(values)
    for field in localised_fields(comp):
        key = catalog_key(comp.stem, item, field)
        if field in out and lang == PSEUDO:
            out[field] = pseudo(str(out[field]))
        elif field in out and key in table:
            out[field] = table[key]
    return out


def check_translations(content: GameContent) -> list[Problem]:
    """Every localised field of every item in every other language, each item key once, no stray key."""
    problems: list[Problem] = []
    expected: set[str] = set()
    for comp in content.components.values():
        fields = localised_fields(comp)
        problems += _unique_keys(comp, fields) if fields else []
        for item in comp.items:
            for field in (f for f in fields if f in item.values):
                key = catalog_key(comp.stem, item, field)
                expected.add(key)
                problems += _missing(content, key, item.value_pos.get(field, item.pos),
                                     f"{field!r} for {comp.stem} item {item_key(item)!r}")
        problems += _check_data(comp.raw.get("data"), content.game.languages, pos_of(comp.raw, "data") or comp.raw.pos)
        for ident, values, where, _ in board_entries(comp):
            for field in values:
                key = f"{PREFIX}{comp.stem}.{ident}.{field}"
                expected.add(key)
                problems += _missing(content, key, where[field], f"{field!r} for {comp.stem} {ident!r}")
    for lang in content.game.languages:
        positions = content.catalogs.positions.get(lang, {})
        for key in sorted(k for k in content.catalogs.texts.get(lang, {}) if k.startswith(PREFIX) and k not in expected):
            problems.append(Problem(positions.get(key, Pos(content.shown)),
                                    f"expected a translation of a localised field of an item, found {key!r} "
                                    f"(no such item or field)"))
    return problems


def _unique_keys(comp: LoadedComponent, fields: list[str]) -> list[Problem]:
    """Two items filed under one key must say the same, or their translations would be mixed up."""
    seen: dict[str, Item] = {}
    problems = []
    for item in comp.items:
        key = item_key(item)
        first = seen.setdefault(key, item)
        if first is not item and any(first.values.get(f) != item.values.get(f) for f in fields):
            problems.append(Problem(item.pos, f"expected a unique title (or an 'id') for items of {comp.stem} with "
                                              f"localised fields, found {key!r} twice with different text"))
    return problems


def _missing(content: GameContent, key: str, at: Pos, what: str) -> list[Problem]:
    return [Problem(at, f"expected the {lang} text of {what} (catalog key {key!r} in i18n/{lang}), found none")
            for lang in content.game.languages
            if lang != content.game.content_lang and key not in content.catalogs.texts.get(lang, {})]
