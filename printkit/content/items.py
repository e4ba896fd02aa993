"""Items of a component, checked against the component's declared `fields`, and the selectors that
pick items (or board nodes, rows) by their fields' values (`where:` field conditions)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import Pos, Problem, describe, expected_found
from .load import YList, YMap, pos_of
from .model import MAX_QTY, FieldSpec

COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@lru_cache(maxsize=None)
def _implicit() -> dict[str, dict[str, FieldSpec]]:
    # made on first use, not at import: a FieldSpec made builds pydantic's validators (Strict defers them)
    return {
        "deck": {"title": FieldSpec(type="str", doc="card title")},
        "double-sided": {"title": FieldSpec(type="str", doc="front title")},
        "standee": {},
        "tokens": {},
    }


def implicit_fields(kind: str) -> dict[str, FieldSpec]:
    """The fields every item of a kind has without declaring them (a card's title); not to be changed."""
    return _implicit().get(kind, {})


@dataclass(frozen=True)
class Item:
    """One designed item (a card, a counter); `qty` physical copies of it are printed."""

    component: str
    index: int
    values: dict[str, Any]
    qty: int
    pos: Pos
    value_pos: Mapping[str, Pos] = field(default_factory=dict, compare=False)

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)


def _check_value(spec: FieldSpec, value: Any) -> str | None:
    """The expectation a value fails, or None when it is fine."""
    kind = spec.type
    if kind in ("str", "text") and not isinstance(value, str):
        return "text"
    if kind == "str" and "\n" in value:
        return "one line of text"
    if kind == "bool" and not isinstance(value, bool):
        return "true or false"
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        return "a whole number"
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "a number"
    if kind in ("int", "number"):
        if spec.min is not None and value < spec.min or spec.max is not None and value > spec.max:
            lo = "" if spec.min is None else f"{spec.min:g}"
            hi = "" if spec.max is None else f"{spec.max:g}"
            return f"a number in {lo}..{hi}"
    if kind == "enum" and value not in (spec.values or []):
        return "one of " + ", ".join(repr(v) for v in spec.values or [])
    if kind == "colour" and not (isinstance(value, str) and COLOUR.match(value)):
        return "a colour #rrggbb"
    if kind == "list" and not isinstance(value, list):
        return "a list"
    if kind == "map" and not isinstance(value, dict):
        return "a mapping"
    return None


def check_items(component: str, kind: str, raw_items: Any, fields: dict[str, FieldSpec],
                where: Pos) -> tuple[list[Item], list[Problem]]:
    """Validate each item against the declared fields; expand nothing yet."""
    specs = {**implicit_fields(kind), **fields}
    items: list[Item] = []
    problems: list[Problem] = []
    if not isinstance(raw_items, list):
        return [], [expected_found(where, "a list of items", raw_items)]
    for index, raw in enumerate(raw_items):
        at = pos_of(raw_items, index) or where
        if not isinstance(raw, dict):
            problems.append(expected_found(at, "a mapping", raw))
            continue
        qty = raw.get("qty", 1)
        if isinstance(qty, bool) or not isinstance(qty, int) or not 0 <= qty <= MAX_QTY:
            problems.append(expected_found(pos_of(raw, "qty") or at, f"a quantity from 0 (left out) to {MAX_QTY:,}", qty))
            qty = 1
        if qty == 0:  # left out, as Squib and nanDECK read 0 copies: a card set aside while playtesting
            continue
        values: dict[str, Any] = {}
        for name, value in raw.items():
            if name == "qty":
                continue
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(sorted(specs)) or "none"
                problems.append(Problem(pos_of(raw, name, key_itself=True) or at,
                                        f"expected a declared field ({known}), found {name!r}"))
                continue
            failed = _check_value(spec, value)
            if failed:
                problems.append(expected_found(pos_of(raw, name) or at, failed, value))
            values[name] = _plain(value)
        for name, spec in specs.items():
            if spec.required and name not in raw:
                problems.append(Problem(at, f"expected field '{name}', found nothing"))
        value_pos = raw.value_pos if isinstance(raw, YMap) else {}
        items.append(Item(component, index, values, qty, at, value_pos))
    return items, problems


def _plain(value: Any) -> Any:
    """Loaded YAML → plain dicts and lists (templates need no positions)."""
    if isinstance(value, (YMap, dict)):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (YList, list)):
        return [_plain(v) for v in value]
    return value


def plain(value: Any) -> Any:
    return _plain(value)


def found(value: Any) -> str:
    return describe(value)


# ---------------------------------------------------------------- selectors
OPERATORS = ("in", "has", "not")


def field_value(values: dict[str, Any], path: str) -> Any:
    """A field's value; a dotted path (front_face.id) reads into map fields."""
    value: Any = values
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def matches(values: dict[str, Any], where: dict[str, Any]) -> bool:
    """Every condition of `where` holds for these values."""
    return all(match_one(field_value(values, k), v) for k, v in where.items())


def _operator(wanted: Any) -> str | None:
    if isinstance(wanted, dict) and len(wanted) == 1:
        name = next(iter(wanted))
        return name if name in OPERATORS else None
    return None


def match_one(value: Any, wanted: Any) -> bool:
    """`{in: [..]}` one of these; `{has: v}` a list field holding v; `{not: c}` the condition
    c (a value or another operator) fails, so `{not: null}` means the field has a value."""
    op = _operator(wanted)
    if op == "in" and isinstance(wanted["in"], list):
        return value in wanted["in"]
    if op == "has":
        return isinstance(value, (list, tuple)) and wanted["has"] in value
    if op == "not":
        inner = wanted["not"]
        return not match_one(value, inner) if _operator(inner) else value != inner
    return value == wanted
