"""The rules-count schema and rule facts: checked against expanded content on every build."""
from __future__ import annotations

import difflib
from collections import Counter
from typing import Any

from ..content import GameContent, LoadedComponent
from ..errors import Pos, Problem, describe, expected_found
from ..content import pos_of
from .checks import run_checks
from .hexboards import check_hex_board, collection
from ..content import Board, GraphBoard, HexBoard, Rule, Selector
from ..content import field_value, matches
from .facts import board_graph, check_fact


class _Positioned(dict):
    """An item's values that remember where each is written (for rules that point at one field)."""

    def __init__(self, values: dict[str, Any], value_pos: Any):
        super().__init__(values)
        self.value_pos = value_pos


def _entries(comp: LoadedComponent, sel: Selector) -> list[tuple[dict[str, Any], int, Pos]]:
    """(values, copies, position) of each entry of the selected collection."""
    if sel.collection == "items":
        if isinstance(comp.model, Board):  # a board is one piece with no items
            return [(comp.model.data, 1, comp.raw.pos)]
        return [(_Positioned(it.values, it.value_pos), it.qty, it.pos) for it in comp.items]
    model = comp.model
    if sel.collection == "component":  # the component's own settings (its back, size, shape...)
        settings = {k: v for k, v in model.model_dump(by_alias=True).items() if not isinstance(v, (list, dict))}
        return [(settings, 1, comp.raw.pos)]
    if sel.collection.startswith("data."):
        return _data_entries(comp, sel.collection.removeprefix("data."))
    if isinstance(model, HexBoard) and sel.collection in ("pieces", "placements", "starts"):
        return collection(comp, sel.collection)
    if not isinstance(model, GraphBoard) or sel.collection not in ("nodes", "areas"):
        return []
    raw_list = comp.raw.get(sel.collection, [])
    source = model.nodes if sel.collection == "nodes" else model.areas
    return [(e.model_dump(by_alias=True), 1, pos_of(raw_list, i) or comp.raw.pos) for i, e in enumerate(source)]


def _data_entries(comp: LoadedComponent, name: str) -> list[tuple[dict[str, Any], int, Pos]]:
    """The rows of a list in the component's data; rows that are not mappings are read as {value: row}."""
    raw_rows = comp.raw.get("data", {}).get(name) if hasattr(comp.raw.get("data", {}), "get") else None
    rows = (getattr(comp.model, "data", None) or {}).get(name)
    if not isinstance(rows, list):
        return []
    return [(row if isinstance(row, dict) else {"value": row}, 1, pos_of(raw_rows, i) or comp.raw.pos)
            for i, row in enumerate(rows)]


def _select(content: GameContent, sel: Selector, at: Pos) -> tuple[list[tuple[dict[str, Any], int, Pos]], list[Problem]]:
    chosen, problems = [], []
    for stem in sel.components:
        comp = content.components.get(stem)
        if comp is None:
            close = difflib.get_close_matches(stem, list(content.components), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(expected_found(at, "a component listed in game.yaml (" + ", ".join(content.components) + ")",
                                           f"{describe(stem)}{hint}", raw=True))
            continue
        chosen += [e for e in _entries(comp, sel) if matches(e[0], sel.where)]
    return chosen, problems


def _show_list(values: list[Any]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def check_rule(content: GameContent, rule: Rule, raw: Any) -> list[Problem]:
    given = next((k for k in ("expect", "min", "max") if hasattr(raw, "get") and k in raw), None)
    at = pos_of(raw, given) or Pos(content.shown)
    if rule.kind == "param":
        if rule.param not in content.game.params:
            return [expected_found(pos_of(raw, "param") or at, "a name from params", rule.param)]
        actual = content.game.params[rule.param]
        if actual != rule.expect:
            return [Problem(at, f"expected {rule.param} = {describe(rule.expect)} (rule {rule.id}), found {describe(actual)}")]
        return []
    if rule.kind == "supply":
        return _check_supply(content, rule, raw, at)
    sel: Selector = getattr(rule, rule.kind)
    entries, problems = _select(content, sel, pos_of(raw, rule.kind) or at)
    if problems:
        return problems
    if rule.kind == "count":
        return _check_count(rule, sel, entries, at)
    if rule.kind == "length":
        return _check_length(rule, sel, entries, at, pos_of(raw, rule.kind) or at)
    if sel.field is None:
        return [expected_found(pos_of(raw, rule.kind) or at, f"a 'field' for a {rule.kind} rule", None)]
    if rule.kind == "names":
        actual = sorted((name for v, copies, _ in entries for _ in range(copies)
                         for name in _each(field_value(v, sel.field))), key=str)
        wanted = sorted(rule.expect if isinstance(rule.expect, list) else [rule.expect], key=str)
        if Counter(map(str, actual)) != Counter(map(str, wanted)):
            return [Problem(at, f"expected {_show_list(wanted)} (rule {rule.id}), found {_show_list(actual)}")]
        return []
    out = []
    for values, _, where in entries:
        value = field_value(values, sel.field)
        if not isinstance(value, (int, float)) or (rule.min is not None and value < rule.min) or (
                rule.max is not None and value > rule.max):
            lo = "" if rule.min is None else f"{rule.min:g}"
            hi = "" if rule.max is None else f"{rule.max:g}"
            out.append(Problem(where, f"expected {sel.field} in {lo}..{hi} (rule {rule.id}), found {describe(value)}"))
    return out


def _each(value: Any) -> list[Any]:
    """A list field counts as each of its entries (a card with two traits names both)."""
    return list(value) if isinstance(value, list) else [value]


def _count_wanted(rule: Rule) -> str:
    if rule.expect is not None:
        return describe(rule.expect)
    return f"{'' if rule.min is None else f'{rule.min:g}'}..{'' if rule.max is None else f'{rule.max:g}'}"


def _count_ok(rule: Rule, actual: int) -> bool:
    if rule.expect is not None:
        return actual == rule.expect
    return (rule.min is None or actual >= rule.min) and (rule.max is None or actual <= rule.max)


def _check_count(rule: Rule, sel: Selector, entries: list[tuple[dict[str, Any], int, Pos]], at: Pos) -> list[Problem]:
    want = _count_wanted(rule)
    if not sel.per:
        actual = sum(copies for _, copies, _ in entries)
        return [] if _count_ok(rule, actual) else [Problem(at, f"expected {want} pieces (rule {rule.id}), found {actual}")]
    groups: dict[tuple, int] = {}
    for values, copies, _ in entries:
        key = tuple(field_value(values, f) for f in sel.per)
        groups[key] = groups.get(key, 0) + copies
    if not groups:
        return [Problem(at, f"expected {want} pieces per {', '.join(sel.per)} (rule {rule.id}), found none")]
    out = []
    for key, actual in sorted(groups.items(), key=lambda kv: str(kv[0])):
        if not _count_ok(rule, actual):
            group = ", ".join(f"{f} {v}" for f, v in zip(sel.per, key))
            out.append(Problem(at, f"expected {want} pieces for {group} (rule {rule.id}), found {actual}"))
    return out


def _check_length(rule: Rule, sel: Selector, entries: list[tuple[dict[str, Any], int, Pos]], at: Pos,
                  sel_at: Pos) -> list[Problem]:
    """Every selected entry's list field has `expect` entries, or a number within min..max."""
    if sel.field is None:
        return [expected_found(sel_at, "a 'field' for a length rule", None)]
    if not entries:
        return [Problem(at, f"expected items with {sel.field} (rule {rule.id}), found none")]
    out = []
    seen: set[Pos] = set()
    for values, _, where in entries:
        value = field_value(values, sel.field)
        n = len(value) if isinstance(value, list) else None
        ok = n is not None and (n == rule.expect if rule.expect is not None else
                                (rule.min is None or n >= rule.min) and (rule.max is None or n <= rule.max))
        if ok:
            continue
        place = _field_pos(values, sel.field, where)
        if place in seen:  # one shared (anchored) list reported once
            continue
        seen.add(place)
        want = describe(rule.expect) if rule.expect is not None else (
            f"{'' if rule.min is None else f'{rule.min:g}'}..{'' if rule.max is None else f'{rule.max:g}'}")
        out.append(Problem(place, f"expected {want} entries in {sel.field} (rule {rule.id}), "
                                  f"found {'no list' if n is None else n}"))
    return out


def _field_pos(values: Any, path: str, fallback: Pos) -> Pos:
    """Where a dotted field's value is written, when the values remember positions."""
    node = values
    for part in path.split("."):
        if not isinstance(node, dict):
            return fallback
        where = getattr(node, "value_pos", {}).get(part)
        node = node.get(part)
        fallback = where or fallback
    return fallback


def _check_supply(content: GameContent, rule: Rule, raw: Any, at: Pos) -> list[Problem]:
    supply = rule.supply
    assert supply is not None
    entries, problems = _select(content, supply.pieces, pos_of(raw, "supply") or at)
    if problems:
        return problems
    have = sum(copies for _, copies, _ in entries)
    out = []
    for share in supply.shares:
        each = content.game.params.get(share.param)
        if not isinstance(each, (int, float)):
            out.append(expected_found(pos_of(raw, "supply") or at, "a number param", share.param))
            continue
        need = share.players * each
        if need > have:
            out.append(Problem(at, f"expected {share.players} × {share.param} = {need:g} pieces or fewer "
                                   f"(rule {rule.id}), found {have}"))
    return out


def check_game(content: GameContent) -> list[Problem]:
    """Every rule and fact of a game, and the integrity of its boards."""
    problems: list[Problem] = []
    for comp in content.components.values():
        if isinstance(comp.model, GraphBoard):
            problems += board_graph(comp)[1]
        if isinstance(comp.model, HexBoard):
            problems += check_hex_board(comp)
    raw_rules = content.raw.get("rules", [])
    for i, rule in enumerate(content.game.rules):
        problems += check_rule(content, rule, raw_rules[i])
    raw_facts = content.raw.get("facts", [])
    for i, fact in enumerate(content.game.facts):
        problems += check_fact(content, fact, raw_facts[i])
    problems += _check_placeholders(content)
    problems += run_checks(content)
    return problems


ASSEMBLY_VALUES = frozenset({"title", "count", "size", "tiles", "poster"})


def _check_placeholders(content: GameContent) -> list[Problem]:
    from ..content import PLACEHOLDER, engine_catalogs

    # a game's own print guide (a language printkit has none for) has the English guide's placeholders
    guide = {k: frozenset(PLACEHOLDER.findall(v)) for k, v in engine_catalogs().texts["en"].items()
             if k.startswith("guide.")} if any(k.startswith("guide.") for t in content.catalogs.texts.values() for k in t) else {}

    problems = []
    for comp in content.components.values():
        for item in comp.items:
            for name, value in item.values.items():
                for found in PLACEHOLDER.findall(value) if isinstance(value, str) else []:
                    if found not in content.game.params:
                        problems.append(expected_found(item.value_pos.get(name, item.pos),
                                                       "a placeholder naming a game param", "{" + found + "}", raw=True))
    for lang, table in content.catalogs.texts.items():
        for key, text in table.items():
            # the print guide fills a part's own assembly text with the part's values
            allowed = ASSEMBLY_VALUES if key.startswith("kit.assembly.") else guide.get(key, frozenset())
            for name in PLACEHOLDER.findall(text):
                if name not in content.game.params and name not in allowed:
                    at = content.catalogs.positions[lang][key]
                    problems.append(expected_found(at, "a placeholder naming a game param", "{" + name + "}", raw=True))
    return problems
