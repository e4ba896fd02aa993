"""Replicants' soul patterns and the rulebook's example scenes, checked against the movement rules
(003_3ad78e292bc9b231.txt, "Replicants movement", "Replicants destruction", "Electric arcs",
"Replicants creation") on every build; with them the kit's own design rules that data cannot say:
the player colours (the same in every component, apart for colour-blind players) and fair openings.

A pattern lists walk, leap and arc hexes around the origin, front up. A walking Replicant cannot
pass over another Replicant: a walk hex two away lies on a straight line and the hex between must
be free. A leaping one passes over anything. Arc hexes are struck, never entered. A Replicant may
end on an opposing Replicant (destroying it), never on its own. A hex is threatened by a Replicant
that can move onto it or send arcs to it.

Scenes (the rulebook sheet's `data.scenes`) place souls on hexes and mark hexes: `ok` (a move the
subject makes), `cross` (a move it cannot make, or a threatened hex the rule forbids), `target`
(an opponent it destroys). The check recomputes each mark from the patterns. A scene may also say
`over` (hexes the subject leaps to over a Replicant standing next to it, drawn with an arrow) and,
for a creation, `created` (the soul placed and its hex: one of the `ok` hexes; it takes the Matrix's
facing).

Designed rules (the rulebook is silent; the kit's own, so players can rely on them):
- every soul pattern changes when the soul turns by 60 degrees (rotation is an action);
- every component that colours a player uses the souls' colours (fill, ink, mark);
- the four fills stay at least `cvd_min_delta_e` apart (CIEDE2000) in normal vision and in the
  Machado et al. (2009) simulations of protanopia, deuteranopia and tritanopia at severity 1.0;
- in each arena layout, two opponents' starting groups are at least `start_gap` hexes apart, and
  the gap between two players depends only on how many seats apart they sit (no seat is favoured).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from printkit.errors import Pos, Problem, expected_found
from printkit.geometry import hexgrid
from printkit.content.load import pos_of

Hex = tuple[int, int]
KINDS = ("walk", "leap", "arc")
SOUL_COMPONENT = "souls"
SHEET_COMPONENT = "rulebook"
ARENA_COMPONENT = "arena"
COLOUR_KEYS = ("fill", "light", "ink", "text", "mark")  # what every component's colours share with the souls'


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
    # `over`: leaps past a Replicant that stands next to both the subject and the landing hex
    leaps = set(pattern.turned(subject.facing, subject.at).leap) & ok
    for h in _hexes(scene.get("over", []) or []) or ():
        past = [b for b in board if b != subject.at and hexgrid.distance(b, subject.at) == 1 and hexgrid.distance(b, h) == 1]
        if h not in leaps or not past:
            problems.append(expected_found(where, f"scene {name!r}: over hexes the subject leaps to, past a Replicant next "
                                                  f"to it", f"[{h[0]}, {h[1]}]", raw=True))
    created = scene.get("created")
    if created is not None:
        at = _hexes([created.get("at")]) if isinstance(created, dict) else None
        if rule != "create" or not at or at[0] not in want["ok"] or str(created.get("soul")) not in patterns:
            show = ", ".join(f"[{q}, {r}]" for q, r in sorted(want["ok"])) or "none"
            shown = f"soul {created.get('soul')} on {created.get('at')}" if isinstance(created, dict) else created
            problems.append(expected_found(where, f"scene {name!r}: a soul created on a free hex around the Matrix that "
                                                  f"no opponent threatens ({show})", shown, raw=isinstance(created, dict)))
    return problems


def check_souls(content: Any) -> list[Problem]:
    """Every soul pattern is well formed and changes on a turn; the rulebook's example scenes agree with the
    patterns; the player colours agree and stay apart for colour-blind players; the openings are fair."""
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
            if soul not in patterns and not found:
                problems += _turn_problems(soul, pattern, where)
            patterns.setdefault(soul, pattern)
    problems += _colour_problems(content, comp)
    arena = content.components.get(ARENA_COMPONENT)
    if arena is not None and hasattr(arena.model, "layouts"):
        problems += _opening_problems(arena)
    sheet = content.components.get(SHEET_COMPONENT)
    if sheet is not None:
        scenes = sheet.model.data.get("scenes", {}) or {}
        raw_scenes = sheet.raw.get("data", {}).get("scenes", {}) if hasattr(sheet.raw.get("data", {}), "get") else {}
        for name, scene in scenes.items():
            where = pos_of(raw_scenes, name, key_itself=True) or sheet.raw.pos
            problems += _scene_problems(name, scene, patterns, where)
    return problems


# ---- the pattern changes on a turn ---------------------------------------------------------------------------
def _turn_problems(soul: str, pattern: Pattern, where: Pos) -> list[Problem]:
    """A pattern that a 60-degree turn leaves unchanged makes rotating that soul pointless."""
    turned = pattern.turned(1, (0, 0))
    if all(set(getattr(turned, k)) == set(getattr(pattern, k)) for k in KINDS):
        return [expected_found(where, f"a pattern that a 60-degree turn changes (soul {soul}: rotation is an action)",
                               "the same pattern after a turn", raw=True)]
    return []


# ---- colours ---------------------------------------------------------------------------------------------------
# Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", severity 1.0, applied to linear sRGB.
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal vision", *MACHADO)


def _linear(rgb: tuple[int, int, int]) -> tuple[float, ...]:
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb))


def simulate(rgb: tuple[int, int, int], vision: str) -> tuple[float, ...]:
    """Linear sRGB as seen with the given vision (clipped to the gamut)."""
    lin = _linear(rgb)
    if vision not in MACHADO:
        return lin
    return tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin)))) for row in MACHADO[vision])


def lab(lin: tuple[float, ...]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour."""
    m = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041))
    x, y, z = (sum(a * c for a, c in zip(row, lin)) for row in m)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e00(c1: tuple[float, float, float], c2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    l1, a1, b1 = c1
    l2, a2, b2 = c2
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbp - 30)) + 0.24 * math.cos(math.radians(2 * hbp))
         + 0.32 * math.cos(math.radians(3 * hbp + 6)) - 0.20 * math.cos(math.radians(4 * hbp - 63)))
    d_theta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cbp, 1 + 0.015 * cbp * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def rgb_of(value: str) -> tuple[int, int, int] | None:
    if not (isinstance(value, str) and len(value) == 7 and value.startswith("#")):
        return None
    try:
        return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    except ValueError:
        return None


def closest_pair(fills: dict[str, tuple[int, int, int]]) -> list[tuple[float, str, str, str]]:
    """For each vision, the two fills that look most alike: (delta E, vision, name, name)."""
    out = []
    for vision in VISIONS:
        seen = {name: lab(simulate(rgb, vision)) for name, rgb in fills.items()}
        pairs = [(delta_e00(seen[a], seen[b]), vision, a, b) for a, b in itertools.combinations(sorted(seen), 2)]
        if pairs:
            out.append(min(pairs))
    return out


def _colour_problems(content: Any, comp: Any) -> list[Problem]:
    problems: list[Problem] = []
    data = comp.model.data
    colours = data.get("colours", {}) or {}
    raw_colours = comp.raw.get("data", {}).get("colours", {})
    fills = {}
    for name, spec in colours.items():
        rgb = rgb_of((spec or {}).get("fill"))
        if rgb is None:
            problems.append(expected_found(pos_of(raw_colours, name) or comp.raw.pos, f"colour {name!r}: a fill #rrggbb",
                                           (spec or {}).get("fill")))
        else:
            fills[name] = rgb
    least = data.get("cvd_min_delta_e")
    if isinstance(least, (int, float)) and not isinstance(least, bool):
        where = pos_of(comp.raw.get("data", {}), "colours") or comp.raw.pos
        for d, vision, a, b in closest_pair(fills):
            if d < least:
                problems.append(expected_found(where, f"player colours at least {least:g} apart (CIEDE2000) in {vision}",
                                               f"{a} and {b} {d:.1f} apart", raw=True))
    # every other component that colours a player uses the souls' colours
    for other in content.components.values():
        if other is comp:
            continue
        theirs = (other.model.data or {}).get("colours") if isinstance(other.model.data, dict) else None
        if not isinstance(theirs, dict):
            continue
        raw_theirs = other.raw.get("data", {}).get("colours", {})
        for name, spec in theirs.items():
            mine = colours.get(name)
            for key in COLOUR_KEYS:
                if mine is None or not isinstance(spec, dict) or key not in spec:
                    continue
                if spec[key] != mine.get(key):
                    at = pos_of(raw_theirs.get(name, {}), key) or pos_of(raw_theirs, name) or other.raw.pos
                    problems.append(expected_found(at, f"the souls' {key} of {name} ({mine.get(key)})", spec[key],
                                                   raw=True))
    return problems


# ---- fair openings ---------------------------------------------------------------------------------------------
def _opening_problems(comp: Any) -> list[Problem]:
    problems: list[Problem] = []
    least = comp.model.data.get("start_gap") if isinstance(comp.model.data, dict) else None
    raw_layouts = comp.raw.get("layouts", [])
    for i, layout in enumerate(comp.model.layouts):
        where = pos_of(raw_layouts, i) or comp.raw.pos
        order = [seat.player for seat in layout.seats]
        groups: dict[int, list[Hex]] = {}
        for st in layout.starts:
            groups.setdefault(st.player, []).append(tuple(st.at))
        gaps: dict[int, dict[tuple[int, int], int]] = {}
        for a, b in itertools.combinations(order, 2):
            if a not in groups or b not in groups:
                continue
            gap = min(hexgrid.distance(x, y) for x in groups[a] for y in groups[b])
            apart = abs(order.index(a) - order.index(b))
            apart = min(apart, len(order) - apart)
            gaps.setdefault(apart, {})[(a, b)] = gap
            if isinstance(least, int) and gap < least:
                problems.append(expected_found(where, f"players {a} and {b} starting at least {least} hexes apart "
                                                      f"(layout {layout.id})", gap))
        for apart, found in sorted(gaps.items()):
            if len(set(found.values())) > 1:
                shown = ", ".join(f"{a}-{b}: {g}" for (a, b), g in sorted(found.items()))
                problems.append(expected_found(where, f"the same gap between every two players {apart} seat(s) apart "
                                                      f"(layout {layout.id})", shown, raw=True))
    return problems
