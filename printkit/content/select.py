"""Selectors: which items, nodes or rows a rule or fact is about (`where:` field conditions)."""
from __future__ import annotations

from typing import Any

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
