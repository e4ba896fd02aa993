"""RUN's maps, checked against the rulebook's movement rules (004_bca09ff08014a63d.txt, MAPS and
Runner Actions > Movement Rules) on every build.

A map face is a 6 x 6 layout ('#' building = roof level, '.' ground) with fire escapes, stashes,
safe-houses, numbered spawn points, witnesses and a helipad. With ordinary (non-gadget) moves
the Runner steps one space orthogonally or diagonally: along the same level, or down, and up
onto a building only orthogonally from a fire escape whose arrow points at it. Every stash and
safe-house must be reachable from every spawn point.

The pieces that lie on the map are measured against its spaces (`data.space` of the maps, the
side of a space in mm, which the map template draws): a road block is exactly as long as a
space's side (BACKUP ACTION CLARIFICATIONS > Road Block: one of its ends touches a corner of the
Dispatcher's space, so it spans one edge and no more); the surveillance cars and the tracking
discs fit inside a space; the grid of 6 spaces and its labels fit the map.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from printkit.errors import Pos, Problem, expected_found
from printkit.content.load import pos_of

SIZE = 6
COLUMNS = "ABCDEF"
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
STEPS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]
SPAWNS = {1, 2, 3, 4}
Cell = tuple[int, int]


def name(cell: Cell) -> str:
    return f"{COLUMNS[cell[0]]}{cell[1] + 1}"


def parse_cell(text: Any) -> Cell | None:
    if not isinstance(text, str) or len(text) != 2 or text[0] not in COLUMNS or not text[1].isdigit():
        return None
    row = int(text[1]) - 1
    return (COLUMNS.index(text[0]), row) if 0 <= row < SIZE else None


@dataclass
class Face:
    id: str
    buildings: set[Cell] = field(default_factory=set)
    escapes: dict[Cell, Cell] = field(default_factory=dict)  # fire escape space -> the building it climbs to
    features: dict[Cell, str] = field(default_factory=dict)  # what stands on a space (one thing each)
    stashes: list[tuple[Cell, Pos]] = field(default_factory=list)
    safe_houses: list[tuple[Cell, Pos]] = field(default_factory=list)
    spawns: list[tuple[int, Cell]] = field(default_factory=list)


def moves(face: Face) -> dict[Cell, set[Cell]]:
    """Where one ordinary move can take the Runner from each space."""
    out: dict[Cell, set[Cell]] = {}
    for c in range(SIZE):
        for r in range(SIZE):
            here, reach = (c, r), set()
            for dc, dr in STEPS:
                there = (c + dc, r + dr)
                if not (0 <= there[0] < SIZE and 0 <= there[1] < SIZE):
                    continue
                up = there in face.buildings and here not in face.buildings
                if not up or face.escapes.get(here) == there:
                    reach.add(there)
            out[here] = reach
    return out


def reachable(graph: dict[Cell, set[Cell]], start: Cell) -> set[Cell]:
    seen, queue = {start}, deque([start])
    while queue:
        for there in graph[queue.popleft()]:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


class _Reader:
    """Reads one face from the loaded YAML, collecting problems at their positions."""

    def __init__(self, raw: Any, where: Pos):
        self.raw, self.where, self.problems = raw, where, []

    def at(self, key: str, index: int | None = None) -> Pos:
        value = self.raw.get(key) if hasattr(self.raw, "get") else None
        if index is not None and value is not None:
            return pos_of(value, index) or pos_of(self.raw, key) or self.where
        return pos_of(self.raw, key) or self.where

    def cell(self, text: Any, where: Pos) -> Cell | None:
        cell = parse_cell(text)
        if cell is None:
            self.problems.append(expected_found(where, "a space A1 to F6", text))
        return cell

    def place(self, face: Face, cell: Cell, what: str, where: Pos) -> None:
        if cell in face.features:
            self.problems.append(Problem(where, f"expected one feature per space, found {face.features[cell]} "
                                                f"and {what} on {name(cell)}"))
        else:
            face.features[cell] = what

    def face(self) -> Face | None:
        raw = self.raw
        if not hasattr(raw, "get"):
            self.problems.append(expected_found(self.where, "a map face (id, layout, features)", raw))
            return None
        face = Face(str(raw.get("id", "?")))
        rows = str(raw.get("layout", "")).split()
        if len(rows) != SIZE or any(len(row) != SIZE or set(row) - {"#", "."} for row in rows):
            self.problems.append(expected_found(self.at("layout"), "6 rows of 6 spaces ('#' building, '.' ground)",
                                                " / ".join(rows) or "nothing"))
            return None
        face.buildings = {(c, r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        self._escapes(face)
        for key, what, target in (("stashes", "stash", face.stashes), ("safe_houses", "safe-house", face.safe_houses),
                                  ("witnesses", "witness", None)):
            for i, text in enumerate(raw.get(key) or []):
                where = self.at(key, i)
                cell = self.cell(text, where)
                if cell is not None:
                    self.place(face, cell, f"{what} {name(cell)}", where)
                    if target is not None:
                        target.append((cell, where))
        self._spawns(face)
        self._helipad(face)
        if len(face.stashes) != 4:
            self.problems.append(expected_found(self.at("stashes"), "4 stashes", len(face.stashes)))
        if not face.safe_houses:
            self.problems.append(expected_found(self.at("safe_houses"), "at least 1 safe-house", 0))
        return face

    def _escapes(self, face: Face) -> None:
        for i, escape in enumerate(self.raw.get("fire_escapes") or []):
            where = self.at("fire_escapes", i)
            cell = self.cell(escape.get("at") if hasattr(escape, "get") else None, where)
            step = DIRECTIONS.get(escape.get("dir")) if hasattr(escape, "get") else None
            if cell is None:
                continue
            if step is None:
                self.problems.append(expected_found(where, "dir up, down, left or right", escape.get("dir")))
                continue
            target = (cell[0] + step[0], cell[1] + step[1])
            if cell in face.buildings or target not in face.buildings:
                if cell in face.buildings:
                    found = f"a building at {name(cell)}"
                elif 0 <= target[0] < SIZE and 0 <= target[1] < SIZE:
                    found = f"ground at {name(target)}"
                else:
                    found = "the edge of the map"
                self.problems.append(expected_found(where, f"fire escape {name(cell)} on the ground, pointing at a "
                                                           "building", found, raw=True))
                continue
            face.escapes[cell] = target
            self.place(face, cell, f"fire escape {name(cell)}", where)

    def _spawns(self, face: Face) -> None:
        spawns = self.raw.get("spawns") or {}
        numbers = set(spawns) if hasattr(spawns, "keys") else set()
        if numbers != SPAWNS:
            self.problems.append(expected_found(self.at("spawns"), "spawn points numbered 1 to 4",
                                                sorted(numbers, key=str), raw=True))
        for number in sorted(numbers, key=str):
            where = pos_of(spawns, number) or self.at("spawns")
            cell = self.cell(spawns[number], where)
            if cell is not None:
                self.place(face, cell, f"spawn {number}", where)
                face.spawns.append((number, cell))

    def _helipad(self, face: Face) -> None:
        where = self.at("helipad")
        cell = self.cell(self.raw.get("helipad"), where)
        if cell is None:
            return
        if cell not in face.buildings:
            self.problems.append(expected_found(where, "the helipad on a building", f"ground at {name(cell)}", raw=True))
        self.place(face, cell, f"helipad {name(cell)}", where)


def check_face(raw: Any, where: Pos) -> list[Problem]:
    reader = _Reader(raw, where)
    face = reader.face()
    problems = reader.problems
    if face is None or problems:
        return problems
    graph = moves(face)
    for number, start in face.spawns:
        reach = reachable(graph, start)
        for kind, targets in (("stash", face.stashes), ("safe-house", face.safe_houses)):
            for cell, at in targets:
                if cell not in reach:
                    problems.append(Problem(at, f"expected {kind} {name(cell)} (map {face.id}) reachable from spawn "
                                                f"{number}, found no path"))
    return problems


LABELS = 24.0  # mm of the map face outside its grid: the row and column labels, the band below


def check_pieces_on_map(content: Any, comp: Any) -> list[Problem]:
    """Road blocks as long as a space's side; cars and tracking discs inside a space; the grid on the map."""
    data = comp.model.data or {}
    raw_data = comp.raw.get("data") if hasattr(comp.raw, "get") else None
    space = data.get("space")
    where = pos_of(raw_data, "space") if raw_data is not None else comp.raw.pos
    if isinstance(space, bool) or not isinstance(space, (int, float)) or space <= 0:
        return [expected_found(where or comp.raw.pos, "data.space: the side of a map space in mm", space)]
    problems: list[Problem] = []
    side = min(comp.model.size)
    if 6 * space + LABELS > side + 1e-9:
        problems.append(Problem(where, f"expected 6 spaces and their labels ({6 * space + LABELS:g} mm) within the "
                                       f"{side:g} mm map, found space {space:g} mm"))
    blocks = content.components.get("road-blocks")
    if blocks is not None:
        length = max(blocks.model.size)
        if abs(length - space) > 1e-6:
            problems.append(Problem(pos_of(blocks.raw, "size") or blocks.raw.pos,
                                    f"expected a road block as long as a map space's side ({space:g} mm, maps.yaml "
                                    f"data.space), found {length:g} mm"))
    for stem, what in (("cars", "a surveillance car"), ("tracking-discs", "a tracking disc")):
        token = content.components.get(stem)
        if token is not None and max(token.model.size) > space + 1e-6:
            problems.append(Problem(pos_of(token.raw, "size") or token.raw.pos,
                                    f"expected {what} that fits inside a map space ({space:g} mm), found "
                                    f"{max(token.model.size):g} mm"))
    return problems


def check_maps(content: Any) -> list[Problem]:
    """Every face of every map of the component `maps`, and the pieces that lie on the maps."""
    comp = content.components.get("maps")
    if comp is None:
        return [expected_found(content.raw.pos, "a component 'maps' for the run-maps check", None)]
    problems: list[Problem] = []
    for item in comp.items:
        raw_item = comp.raw["cards"][item.index]
        for side in ("front_face", "back_face"):
            problems += check_face(raw_item.get(side), item.value_pos.get(side, item.pos))
    return problems + check_pieces_on_map(content, comp)
