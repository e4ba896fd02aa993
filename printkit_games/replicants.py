"""Replicants' soul patterns and the rulebook's example scenes, checked against the movement rules
(003_3ad78e292bc9b231.txt, "Replicants movement", "Replicants destruction", "Electric arcs",
"Replicants creation") on every build.

A pattern lists walk, leap and arc hexes around the origin, front up. A walking Replicant cannot
pass over another Replicant: a walk hex two away lies on a straight line and the hex between must
be free. A leaping one passes over anything. Arc hexes are struck, never entered. A Replicant may
end on an opposing Replicant (destroying it), never on its own. A hex is threatened by a Replicant
that can move onto it or send arcs to it.

Scenes (the rulebook sheet's `data.scenes`) place souls on hexes and mark hexes: `ok` (a move the
subject makes), `cross` (a move it cannot make, or a threatened hex the rule forbids), `target`
(an opponent it destroys). The check recomputes each mark from the patterns.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from printkit.errors import Pos, Problem, expected_found
from printkit.geometry import hexgrid
from printkit.load import pos_of

Hex = tuple[int, int]
KINDS = ("walk", "leap", "arc")
SOUL_COMPONENT = "souls"
SHEET_COMPONENT = "rulebook"


@dataclass(frozen=True)
class Pattern:
    walk: tuple[Hex, ...]
    leap: tuple[Hex, ...]
    arc: tuple[Hex, ...]

    def turned(self, facing: int, at: Hex) -> "Pattern":
        def move(hexes: tuple[Hex, ...]) -> tuple[Hex, ...]:
            return tuple(hexgrid.add(hexgrid.rotate(h, facing), at) for h in hexes)

        return Pattern(move(self.walk), move(self.leap), move(self.arc))


def _hexes(value: Any) -> tuple[Hex, ...] | None:
    if not isinstance(value, list):
        return None
    out = []
    for h in value:
        if not (isinstance(h, list) and len(h) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in h)):
            return None
        out.append((h[0], h[1]))
    return tuple(out)


def _between(origin: Hex, target: Hex) -> Hex | None:
    """The hex a walk passes over to reach a hex two away in a straight line."""
    dq, dr = target[0] - origin[0], target[1] - origin[1]
    if dq % 2 or dr % 2:
        return None
    step = (dq // 2, dr // 2)
    return hexgrid.add(origin, step) if step in hexgrid.DIRECTIONS else None


def check_pattern(values: dict[str, Any], radius: int, where: Pos) -> tuple[Pattern | None, list[Problem]]:
    pattern = values.get("pattern")
    soul = values.get("soul")
    if not isinstance(pattern, dict):
        return None, [expected_found(where, "a pattern with walk, leap and arc lists", pattern)]
    lists: dict[str, tuple[Hex, ...]] = {}
    problems = []
    for kind in KINDS:
        hexes = _hexes(pattern.get(kind, []))
        if hexes is None:
            problems.append(expected_found(where, f"{kind}: a list of [q, r] hexes (soul {soul})", pattern.get(kind)))
            hexes = ()
        lists[kind] = hexes
    seen: dict[Hex, str] = {}
    for kind in KINDS:
        for h in lists[kind]:
            if h == (0, 0) or hexgrid.distance(h, (0, 0)) > radius:
                problems.append(expected_found(where, f"{kind} hexes within {radius} of the origin, not on it (soul {soul})",
                                               f"[{h[0]}, {h[1]}]", raw=True))
            if h in seen:
                problems.append(expected_found(where, f"each hex in one list only (soul {soul})",
                                               f"[{h[0]}, {h[1]}] in {seen[h]} and {kind}", raw=True))
            seen.setdefault(h, kind)
    for h in lists["walk"]:
        if hexgrid.distance(h, (0, 0)) == 2 and _between((0, 0), h) is None:
            problems.append(expected_found(where, f"walk hexes two away on a straight line, so the hex walked over is "
                                                  f"defined (soul {soul})", f"[{h[0]}, {h[1]}]", raw=True))
    return Pattern(lists["walk"], lists["leap"], lists["arc"]), problems


@dataclass(frozen=True)
class Piece:
    soul: str
    colour: str
    at: Hex
    facing: int


def moves(piece: Piece, pattern: Pattern, board: dict[Hex, Piece]) -> tuple[set[Hex], set[Hex]]:
    """(hexes it can move onto, walk/leap hexes it cannot: blocked on the way or held by its own side)."""
    turned = pattern.turned(piece.facing, piece.at)
    ok, blocked = set(), set()
    for h in turned.walk + turned.leap:
        walking = h in turned.walk
        over = _between(piece.at, h) if walking else None
        friend = h in board and board[h].colour == piece.colour
        if friend or (over is not None and over in board):
            blocked.add(h)
        else:
            ok.add(h)
    return ok, blocked


def threatened(board: dict[Hex, Piece], patterns: dict[str, Pattern], by_not: str) -> set[Hex]:
    """Hexes that Replicants of other colours than `by_not` can move onto or strike with arcs."""
    out: set[Hex] = set()
    for piece in board.values():
        if piece.colour == by_not or piece.soul not in patterns:
            continue
        ok, _ = moves(piece, patterns[piece.soul], board)
        out |= ok | set(patterns[piece.soul].turned(piece.facing, piece.at).arc)
    return out


def _scene_problems(name: str, scene: Any, patterns: dict[str, Pattern], where: Pos) -> list[Problem]:
    if not isinstance(scene, dict) or not isinstance(scene.get("pieces"), list):
        return [expected_found(where, f"scene {name!r}: a mapping with pieces", scene)]
    board: dict[Hex, Piece] = {}
    subject = None
    for p in scene["pieces"]:
        at = _hexes([p.get("at")]) if isinstance(p, dict) else None
        if not at or str(p.get("soul")) not in patterns:
            return [expected_found(where, f"scene {name!r}: pieces with a soul and an [q, r] hex", p)]
        piece = Piece(str(p["soul"]), str(p.get("colour")), at[0], int(p.get("facing", 0)))
        board[piece.at] = piece
        if p.get("subject"):
            subject = piece
    marks = scene.get("marks", {}) or {}
    if subject is None:
        return []
    pattern = patterns[subject.soul]
    ok, blocked = moves(subject, pattern, board)
    danger = threatened(board, patterns, subject.colour)
    rule = scene.get("rule", "moves")
    if rule == "moves":  # every move of the subject: ok on free hexes, target on opponents, cross where it cannot go
        want = {"ok": {h for h in ok if h not in board}, "target": {h for h in ok if h in board}, "cross": blocked}
    elif rule == "threat":  # a Matrix's moves: cross on threatened hexes
        free = {h for h in ok if h not in board}
        want = {"ok": free - danger, "cross": free & danger, "target": {h for h in ok if h in board}}
    elif rule == "create":  # hexes around the Matrix: ok when free and not threatened, else cross if free
        around = {hexgrid.add(subject.at, d) for d in hexgrid.DIRECTIONS} & set(_hexes(scene.get("arena", [])) or ())
        free = {h for h in around if h not in board} if scene.get("arena") else \
            {hexgrid.add(subject.at, d) for d in hexgrid.DIRECTIONS} - set(board)
        want = {"ok": free - danger, "cross": free & danger, "target": set()}
    elif rule == "arcs":  # the subject's arcs: target every opponent it strikes
        struck = {h for h in pattern.turned(subject.facing, subject.at).arc if h in board and board[h].colour != subject.colour}
        want = {"ok": {h for h in ok if h not in board}, "target": {h for h in ok if h in board} | struck,
                "cross": blocked}
    else:
        return [expected_found(where, f"scene {name!r}: rule moves, threat, create or arcs", rule)]
    problems = []
    for kind in ("ok", "cross", "target"):
        given = set(_hexes(marks.get(kind, [])) or ())
        if given != want[kind]:
            show = ", ".join(f"[{q}, {r}]" for q, r in sorted(want[kind])) or "none"
            found = ", ".join(f"[{q}, {r}]" for q, r in sorted(given)) or "none"
            problems.append(Problem(where, f"expected scene {name!r} to mark {kind} on {show} (from the soul patterns), "
                                           f"found {found}"))
    return problems


def check_souls(content: Any) -> list[Problem]:
    """Every soul pattern is well formed; the rulebook's example scenes agree with the patterns."""
    comp = content.components.get(SOUL_COMPONENT)
    if comp is None:
        return [expected_found(Pos(content.shown), f"a component {SOUL_COMPONENT!r} for the check", "none")]
    radius = int(comp.model.data.get("radius", 2))
    patterns: dict[str, Pattern] = {}
    problems: list[Problem] = []
    seen: set[Pos] = set()
    for item in comp.items:
        where = item.value_pos.get("pattern", item.pos)
        pattern, found = check_pattern(item.values, radius, where)
        if where not in seen:  # a pattern shared by anchor is reported once
            problems += found
            seen.add(where)
        soul = str(item.values.get("soul"))
        if pattern is not None:
            if soul in patterns and patterns[soul] != pattern:
                problems.append(expected_found(where, f"the same pattern for every soul {soul}", "a different one"))
            patterns.setdefault(soul, pattern)
    sheet = content.components.get(SHEET_COMPONENT)
    if sheet is not None:
        scenes = sheet.model.data.get("scenes", {}) or {}
        raw_scenes = sheet.raw.get("data", {}).get("scenes", {}) if hasattr(sheet.raw.get("data", {}), "get") else {}
        for name, scene in scenes.items():
            where = pos_of(raw_scenes, name, key_itself=True) or sheet.raw.pos
            problems += _scene_problems(name, scene, patterns, where)
    return problems
