"""Bad input: one line per problem, `path:line:col: expected …, found …`, exit 2, nothing touched."""
from __future__ import annotations

import re

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, mini_roots
from printkit.build import Settings, build, validate
from printkit.errors import ContentError


def col_of(path: Path, needle: str) -> int:
    """1-based column where needle starts on its line."""
    for line in path.read_text().splitlines():
        if needle in line:
            return line.index(needle) + 1
    raise AssertionError(needle)


def line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(needle)


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def problems(content: Path, game: str = "mini") -> list[str]:
    with pytest.raises(ContentError) as info:
        validate(mini_roots(content), [game])
    return [str(p) for p in info.value.problems]


def test_broken_count_names_the_line_of_the_count(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    replace(game, "    expect: 5\n  - id: red-cards", "    expect: 6\n  - id: red-cards")
    line = line_of(game, "expect: 6")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:13: expected 6 pieces (rule cards), found 5"]


def test_broken_names_and_param_and_range(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    replace(game, "expect: [Ada, Bob]", "expect: [Ada, Eve]")
    replace(game, "    param: hand_limit\n    expect: 5", "    param: hand_limit\n    expect: 4")
    replace(game, "    min: 1\n    max: 6", "    min: 1\n    max: 2")
    found = problems(mini_copy)
    names_line = line_of(game, "expect: [Ada, Eve]")
    param_line = line_of(game, "expect: 4")
    ada_line = line_of(mini_copy / "mini" / "deck.yaml", "title: Ada")
    assert found == sorted([
        f"content/mini/deck.yaml:{ada_line}:5: expected power in 1..2 (rule power-range), found 3",
        f"content/mini/game.yaml:{names_line}:13: expected [Ada, Eve] (rule heroes), found [Ada, Bob]",
        f"content/mini/game.yaml:{param_line}:13: expected hand_limit = 4 (rule hand-limit), found 5",
    ])


def test_item_field_outside_its_declared_bounds(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "power: 1, qty: 3", "power: 0, qty: 3")
    line, col = line_of(deck, "power: 0"), col_of(deck, "0, qty")
    assert problems(mini_copy) == [f"content/mini/deck.yaml:{line}:{col}: expected a number in 1..6, found 0"]


def test_broken_board_fact_and_unknown_node(mini_copy):
    board = mini_copy / "mini" / "board.yaml"
    replace(board, "  - [h1, a, s1, s2, b, h2]", "  - [h1, a, s1, b, h2]\n  - [s2, zz]")
    found = problems(mini_copy)
    game = mini_copy / "mini" / "game.yaml"
    fact_line = line_of(game, "    expect: 3")
    zz_line = line_of(board, "[s2, zz]")
    assert found == sorted([
        f"content/mini/board.yaml:{zz_line}:10: expected a node id of this board, found 'zz'",
        f"content/mini/game.yaml:{fact_line}:13: expected 3 moves from 'Alpha' to 'Beta' (fact far), found 2",
    ])


def test_structural_errors_all_at_once(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "size: poker", "size: huge")
    replace(deck, "{title: Bob, type: red,", "{title: Bob, type: green, colour: red,")
    found = problems(mini_copy)
    bob = line_of(deck, "title: Bob")
    item_errors = [
        f"content/mini/deck.yaml:{bob}:{col_of(deck, 'green')}: expected one of 'red', 'blue', found 'green'",
        f"content/mini/deck.yaml:{bob}:{col_of(deck, 'colour:')}: expected a declared field (power, text, title, type), found 'colour'",
    ]
    # a wrong setting of the component does not hide its items' problems: all three at once
    assert found == [
        "content/mini/deck.yaml:3:7: expected a size name (poker, bridge, mini, tarot, square) or [width, height], found 'huge'",
    ] + item_errors
    replace(deck, "size: huge", "size: poker")
    assert problems(mini_copy) == item_errors


def test_yaml_syntax_error_has_position(mini_copy):
    (mini_copy / "mini" / "tokens.yaml").write_text("kind: standee\ntitle: [unclosed\n")
    found = problems(mini_copy)
    assert len(found) == 1 and found[0].startswith("content/mini/tokens.yaml:3:1: expected valid YAML, found a syntax error")


def test_missing_catalog_key_is_an_error_naming_key_and_file(mini_copy):
    replace(mini_copy / "mini" / "i18n" / "de.yaml", '  two: "Spiele eine Karte."\n', "")
    assert problems(mini_copy) == ["content/mini/i18n/de.yaml:1:1: expected key 'rules.two' (as in en.yaml), found none"]


def test_unknown_placeholder_is_an_error(mini_copy):
    replace(mini_copy / "mini" / "i18n" / "fr.yaml", "{hand_limit} cartes", "{hand_limt} cartes")
    line = line_of(mini_copy / "mini" / "i18n" / "fr.yaml", "intro:")
    assert problems(mini_copy) == [f"content/mini/i18n/fr.yaml:{line}:3: expected a placeholder naming a game param, found {{hand_limt}}"]


def test_text_that_cannot_fit_names_piece_and_field_and_writes_nothing(mini_copy, tmp_path):
    deck = mini_copy / "mini" / "deck.yaml"
    long_text = " ".join(["overflowing"] * 120)
    replace(deck, 'text: "Draw a card."', f'text: "{long_text}"')
    out = tmp_path / "out"
    with pytest.raises(ContentError) as info:
        build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",), langs=("en",)), ["mini"])
    line, col = line_of(deck, "title: Bob"), col_of(deck, '"overflowing')
    messages = sorted({str(p) for p in info.value.problems})
    found = re.fullmatch(rf"content/mini/deck\.yaml:{line}:{col}: expected the text to fit 53\.5 x 40 mm at ≥ 6\.0 pt, "
                         r"found it overflows: it needs (\d+(?:\.5)?) pt, or about (\d+) % less text "
                         r"\(deck 'Bob', field text\)", messages[0]) if len(messages) == 1 else None
    assert found, messages
    needs, less = float(found.group(1)), int(found.group(2))
    assert 1 <= needs < 6 and less == round(100 * (1 - (needs / 6) ** 2))  # the area a smaller size saves
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_template_names_cannot_leave_the_template_folders(mini_copy):
    replace(mini_copy / "mini" / "deck.yaml", "front: front.svg.j2", "front: ../../etc/passwd")
    assert problems(mini_copy) == ["content/mini/deck.yaml:4:8: expected a template file name without folders, found '../../etc/passwd'"]


def test_yaml_is_loaded_safely(mini_copy):
    (mini_copy / "mini" / "tokens.yaml").write_text("kind: !!python/object/apply:os.system ['echo hi']\n")
    found = problems(mini_copy)
    assert len(found) == 1 and "content/mini/tokens.yaml:1:7: expected valid YAML" in found[0]


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit.cli_main", *args], cwd=cwd, capture_output=True, text=True)


def test_cli_exit_2_no_traceback_and_earlier_output_untouched(mini_copy, tmp_path):
    out = tmp_path / "out"
    templates = FIXTURES / "templates"
    ok = run_cli("build", "mini", "--paper", "a4", "--lang", "en", "--content", str(mini_copy),
                 "--templates", str(templates), "--out", str(out), cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*") if p.is_file()}
    assert before
    replace(mini_copy / "mini" / "game.yaml", "    expect: 5\n  - id: red-cards", "    expect: 7\n  - id: red-cards")
    bad = run_cli("build", "mini", "--paper", "a4", "--lang", "en", "--content", str(mini_copy),
                  "--templates", str(templates), "--out", str(out), cwd=tmp_path)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    line = line_of(mini_copy / "mini" / "game.yaml", "expect: 7")
    assert bad.stderr.splitlines()[0] == f"content/mini/game.yaml:{line}:13: expected 7 pieces (rule cards), found 5"
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_unknown_game_is_a_clear_error(tmp_path):
    bad = run_cli("validate", "no-such-game", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("error: unknown game 'no-such-game'; games: ")
    assert "Traceback" not in bad.stderr


def test_shipped_rep_detect_broken_count_exits_2_with_the_right_line(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / "rep-detect", content / "rep-detect")
    game = content / "rep-detect" / "game.yaml"
    replace(game, "    count: {component: draw-deck, where: {type: clue}}\n    expect: 9",
            "    count: {component: draw-deck, where: {type: clue}}\n    expect: 10")
    line = line_of(game, "expect: 10")
    result = run_cli("validate", "--content", str(content), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"content/rep-detect/game.yaml:{line}:13: expected 10 pieces (rule clues), found 9"


def test_a_glyph_the_font_lacks_is_an_error(mini_copy):
    replace(mini_copy / "mini" / "i18n" / "de.yaml", '"Ziehe eine Karte."', '"Ziehe eine Karte \u4e2d."')
    line = line_of(mini_copy / "mini" / "i18n" / "de.yaml", "one:")
    assert problems(mini_copy) == [f"content/mini/i18n/de.yaml:{line}:3: expected characters the sheet font Barlow has, found '\u4e2d'"]
