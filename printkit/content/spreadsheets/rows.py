"""A spreadsheet's rows made into a component's items: its headers mapped to the declared fields
(`columns:`), each cell typed by its field and kept with its `file:row:column`, so that items from a
sheet are checked by the same code, with the same positions, as items written in YAML."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import ContentError, Pos, Problem, expected_found
from ..compose import text_problem
from ..load import YList, YMap, pos_of
from ..model import FieldSpec, ItemSheet
from ..paths import Roots, inside
from .read import FORMATS, Cell, Table, read_table

ONE_CELL = ("str", "text", "int", "number", "enum", "colour", "bool")  # field types a cell can hold
TRUTH = {"true": True, "yes": True, "1": True, "x": True, "false": False, "no": False, "0": False}
WHOLE = re.compile(r"[-+]?[0-9]{1,18}")
NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


@dataclass
class SheetItems:
    """The rows as loaded YAML items, the problems found, and each cell's header and field for messages."""

    items: YList
    problems: list[Problem] = field(default_factory=list)
    cells: dict[Pos, tuple[str, str]] = field(default_factory=dict)
    headers: dict[str, dict[str, str]] = field(default_factory=dict)  # file → field → its header
    # cells of translation columns (`columns: {"Effect (es)": text.es}`): (language, item key, field, text, cell)
    translations: list[tuple[str, str, str, str, Pos]] = field(default_factory=list)

    @classmethod
    def refused(cls, problem: Problem) -> "SheetItems":
        return cls(_ylist(problem.pos.path, problem.pos), [problem])

    def named(self, problems: list[Problem]) -> list[Problem]:
        """Item problems at a cell name its column's header and field: `expected X for 'Copies' (qty), found Y`."""
        out = []
        for problem in problems:
            header = self.cells.get(problem.pos)
            head, sep, tail = problem.message.rpartition(", found ")
            if head.startswith("expected field '") and problem.pos.path in self.headers:
                name = head.split("'")[1]  # a required field left empty: name the column that should give it
                column = self.headers[problem.pos.path].get(name)
                problem = Problem(problem.pos, f"{head} (column {column!r}){sep}{tail}") if column else problem
            elif header and sep and head.startswith("expected ") and " for '" not in head:
                problem = Problem(problem.pos, f"{head} for {header[0]!r} ({header[1]}){sep}{tail}")
            out.append(problem)
        return out


def is_sheet_source(value: Any) -> bool:
    """A component's items given as a file (`cards: cards.csv`, `cards: {file: …}`) instead of a list."""
    return isinstance(value, str) or isinstance(value, dict) and "file" in value


def sheet_items(roots: Roots, folder: Path, value: Any, at: Pos, specs: dict[str, FieldSpec]) -> SheetItems:
    """The items of the spreadsheet a component names; a problem leaves no items, so that each is reported once."""
    empty = _ylist(roots.shown(folder), at)
    source = ItemSheet(file=value) if isinstance(value, str) else None
    if source is None:
        from ..validation import validate_model

        model, problems = validate_model(ItemSheet, value, at)
        if model is None:
            return SheetItems(empty, problems)
        source = model  # type: ignore[assignment]
    file_at = pos_of(value, "file") or at if isinstance(value, YMap) else at
    file = folder / source.file
    shown = roots.shown(file)
    if file.suffix.lower() not in FORMATS or not file.is_file() or not inside(file, folder):
        wanted = f"a spreadsheet ({', '.join(FORMATS)}) in {roots.shown(folder)}"
        return SheetItems(empty, [expected_found(file_at, wanted, source.file)])
    try:
        table = read_table(file, shown, source.sheet)
    except ContentError as exc:
        return SheetItems(empty, exc.problems)
    return _rows(table, source, value, at, specs)


def _columns(table: Table, source: ItemSheet, value: Any, at: Pos,
             specs: dict[str, FieldSpec]) -> tuple[dict[int, str], list[Problem]]:
    """Column number → field name, from `columns:` (other columns are the designer's own) or, without it,
    from headers that are field names."""
    known = ["qty", *sorted(specs)]
    problems: list[Problem] = []
    by_header = {h: n for n, h in enumerate(table.headers, start=1) if h}
    if len(by_header) < sum(1 for h in table.headers if h):
        seen: set[str] = set()
        for n, h in enumerate(table.headers, start=1):
            if h and h in seen:
                problems.append(expected_found(Pos(table.shown, 1, n), "each header once", h))
            seen.add(h)
    if not source.columns:
        mapping = {}
        for header, n in by_header.items():
            if header in known:
                mapping[n] = header
            else:
                problems.append(expected_found(Pos(table.shown, 1, n), f"a header naming a field ({', '.join(known)}) "
                                               "or a 'columns:' mapping from headers to fields", header))
        return mapping, problems
    mapping, where = {}, value.get("columns") if isinstance(value, YMap) else None
    for header, name in source.columns.items():
        if header not in by_header:
            close = difflib.get_close_matches(header, list(by_header), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listed = ", ".join(repr(h) for h in by_header)
            problems.append(expected_found(pos_of(where, header, key_itself=True) or at,
                                           f"a header of {table.shown} ({listed}){hint}", header))
        elif name not in known and not _translation(name, specs):
            localised = [f"{n}.<lang>" for n, s in sorted(specs.items()) if s.localised]
            problems.append(expected_found(pos_of(where, header) or at, f"a declared field ({', '.join(known + localised)})",
                                           name))
        else:
            mapping[by_header[header]] = name
    return mapping, problems


def _translation(name: str, specs: dict[str, FieldSpec]) -> bool:
    """`text.es`: a column giving a localised field's text in another language."""
    field_name, dot, lang = name.partition(".")
    return bool(dot and lang) and field_name in specs and specs[field_name].localised


def _rows(table: Table, source: ItemSheet, value: Any, at: Pos, specs: dict[str, FieldSpec]) -> SheetItems:
    mapping, problems = _columns(table, source, value, at, specs)
    translated = {col: name for col, name in mapping.items() if _translation(name, specs)}
    mapping = {col: name for col, name in mapping.items() if col not in translated}
    result = SheetItems(_ylist(table.shown, Pos(table.shown, 1, 1)), problems)
    for col, name in mapping.items():
        spec = specs.get(name)
        if spec is not None and spec.type not in ONE_CELL:
            problems.append(expected_found(Pos(table.shown, 1, col), f"a field one cell can hold ({', '.join(ONE_CELL)}), "
                                           f"not the {spec.type} field {name!r}", table.headers[col - 1]))
    if problems:
        return result
    result.headers[table.shown] = {name: table.headers[col - 1] for col, name in mapping.items()}
    for number, cells in table.rows:
        item = YMap.empty(table.shown)
        item._at = (number, 1)
        for col, name in mapping.items():
            cell = cells[col - 1] if col <= len(cells) else None
            if cell is None:
                continue  # an empty cell is a field not given: required fields say so
            item[name] = _typed(cell, "int" if name == "qty" else specs[name].type)
            item._spots[name] = (number, col, number, col)
            result.cells[Pos(table.shown, number, col)] = (table.headers[col - 1], name)
            if isinstance(item[name], str) and (wrong := text_problem(item[name])):
                problems.append(Problem(Pos(table.shown, number, col), wrong))
        key = next((str(item[k]) for k in ("id", "title", "name") if k in item), None)  # as catalogs key items
        for col, name in translated.items():
            cell = cells[col - 1] if col <= len(cells) else None
            if cell is not None and key is not None:
                field_name, _, lang = name.partition(".")
                result.translations.append((lang, key, field_name, str(cell), Pos(table.shown, number, col)))
        result.items.append(item)
        result.items._items_at.append((number, 1))
    return result


def _typed(cell: Cell, kind: str) -> Any:
    """A cell as its field's type; a cell that is not one is left as found, for the item check to report."""
    text = cell.strip() if isinstance(cell, str) else cell
    if kind == "int" and isinstance(text, str) and WHOLE.fullmatch(text):
        return int(text)
    if kind == "number" and isinstance(text, str) and NUMBER.fullmatch(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if kind == "bool" and isinstance(text, str) and text.lower() in TRUTH:
        return TRUTH[text.lower()]
    if kind in ("str", "text", "enum", "colour") and not isinstance(cell, str):
        return str(cell).lower() if isinstance(cell, bool) else str(cell)
    if kind in ("enum", "colour", "str"):
        return text  # a stray space around a one-line value is no part of it
    return cell


def _ylist(path: str, at: Pos) -> YList:
    result = YList()
    result._path, result._at, result._items_at = path, (at.line, at.col), []
    return result
