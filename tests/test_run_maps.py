"""RUN's map check: the rulebook's movement rules, on a small map written for the test."""
from __future__ import annotations

from pathlib import Path

from printkit.content.load import load_yaml
from printkit_games.run import check_face, moves, parse_cell, Face

FACE = """\
id: T1
layout: |
  ##....
  ##....
  ......
  ....##
  ....##
  ......
fire_escapes:
  - {at: C1, dir: left}
  - {at: D4, dir: right}
stashes: [A1, F4, C6, D3]
safe_houses: [F6]
spawns: {1: C3, 2: A6, 3: F1, 4: D6}
witnesses: [E1]
helipad: B2
"""


def load(tmp_path: Path, text: str):
    file = tmp_path / "maps.yaml"
    file.write_text(text)
    return load_yaml(file, "content/run/maps.yaml")


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_movement_model_climbs_only_by_fire_escapes():
    face = Face("x", buildings={(1, 0)}, escapes={(2, 0): (1, 0)})
    graph = moves(face)
    assert (1, 0) in graph[(2, 0)]          # C1 climbs left onto B1 by its fire escape
    assert (1, 0) not in graph[(1, 1)]      # B2 cannot climb onto B1
    assert (1, 0) not in graph[(2, 1)]      # nor diagonally from C2
    assert (2, 1) in graph[(1, 0)]          # down is always allowed, diagonally too
    assert parse_cell("F6") == (5, 5) and parse_cell("G1") is None


def test_a_good_map_passes(tmp_path):
    assert check_face(load(tmp_path, FACE), None) == []


def test_a_stash_on_a_roof_without_a_fire_escape_is_unreachable(tmp_path):
    text = FACE.replace("  - {at: D4, dir: right}\n", "")
    problems = [str(p) for p in check_face(load(tmp_path, text), None)]
    line = line_of(text, "stashes:")
    col = text.splitlines()[line - 1].index("F4") + 1
    assert problems == [f"content/run/maps.yaml:{line}:{col}: expected stash F4 (map T1) reachable from spawn {n}, "
                        "found no path" for n in (1, 2, 3, 4)]


def test_features_collide_helipad_needs_a_roof_escapes_need_a_building(tmp_path):
    text = FACE.replace("witnesses: [E1]", "witnesses: [C3]").replace("helipad: B2", "helipad: E2") \
               .replace("{at: C1, dir: left}", "{at: C1, dir: right}")
    problems = sorted(str(p) for p in check_face(load(tmp_path, text), None))
    escape = line_of(text, "{at: C1")
    assert problems == sorted([
        f"content/run/maps.yaml:{escape}:5: expected fire escape C1 on the ground, pointing at a building, found ground at D1",
        f"content/run/maps.yaml:{line_of(text, 'spawns:')}:13: expected one feature per space, found witness C3 and spawn 1 on C3",
        f"content/run/maps.yaml:{line_of(text, 'helipad:')}:10: expected the helipad on a building, found ground at E2",
    ])
