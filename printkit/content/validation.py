"""Pydantic's findings on loaded content, as positioned Problems in the project's one phrasing."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import Pos, Problem, describe
from .load import locate

_TYPE_WORDS = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "string_type": "text",
    "bool_type": "true or false", "bool_parsing": "true or false", "list_type": "a list",
    "tuple_type": "a list", "dict_type": "a mapping", "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def _message(err: dict[str, Any], model: type[BaseModel]) -> str:
    kind, found = err["type"], err.get("input")
    ctx = err.get("ctx", {})
    if kind == "missing":
        return f"expected field '{err['loc'][-1]}', found nothing"
    if kind == "extra_forbidden":
        return f"expected a known field, found {err['loc'][-1]!r}"
    if kind == "literal_error":
        return f"expected one of {ctx.get('expected')}, found {describe(found)}"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        sign = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
        bound = next(iter(ctx.values()))
        return f"expected a number {sign} {bound:g}, found {describe(found)}"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} entries, found {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"expected at most {ctx.get('max_length')} entries, found {ctx.get('actual_length')}"
    if kind == "string_too_long":
        return f"expected at most {ctx.get('max_length')} characters, found {len(found)}"
    if kind == "finite_number":
        return f"expected a finite number, found {describe(found)}"
    if kind == "value_error":
        text = str(ctx.get("error", err["msg"]))
        return text[0].lower() + text[1:] if text.startswith("Expected") else text
    if kind in _TYPE_WORDS:
        return f"expected {_TYPE_WORDS[kind]}, found {describe(found)}"
    return f"expected {err['msg'].lower()}, found {describe(found)}"


def validate_model(model: type[BaseModel], raw: Any, fallback: Pos) -> tuple[BaseModel | None, list[Problem]]:
    """Validate raw loaded data against a model; every finding becomes a positioned Problem."""
    try:
        return model.model_validate(raw), []
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(p for p in err["loc"] if not isinstance(p, str) or not p.startswith("function-"))
            at = loc[:-1] if err["type"] == "missing" else loc
            pos = locate(raw, at, fallback)
            if err["type"] == "extra_forbidden":
                parent = locate_parent(raw, loc[:-1])
                pos = getattr(parent, "key_pos", {}).get(loc[-1], pos)
            problems.append(Problem(pos, _message(err, model)))
        return None, problems


def locate_parent(root: Any, loc: tuple[Any, ...]) -> Any:
    node = root
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node
