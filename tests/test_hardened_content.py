"""Broken and hostile content (issue 15, "Hardened"): every input is a positioned problem line
`path:line:col: expected …, found …` and exit 2, never a traceback, a hang or something read wrongly.

The CLI runs in a subprocess with a timeout: a limit that is not enforced shows up as a timeout,
not as a slow assertion on the clock. The property test at the end mutates the YAML of the mini
fixture game at random and runs `printkit validate` in process.
"""
from __future__ import annotations

import pickle
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES
from printkit.cli import app
from printkit.content import compose, game as game_module, model
from printkit.content.load import _parse, load_yaml

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = FIXTURES / "templates"
FAST = 20  # seconds: any of these inputs is refused in well under a second; a missing limit times out


def run_cli(*args: str, cwd: Path, timeout: float = FAST) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit.cli_main", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def refused(content: Path, game: str = "mini", command: str = "validate", timeout: float = FAST) -> list[str]:
    """The problem lines of a command that must fail with exit 2 and no traceback."""
    args = [command, game, "--content", str(content), "--templates", str(TEMPLATES)]
    if command == "build":
        args += ["--out", str(content.parent / "out"), "--paper", "a4", "--lang", "en"]
    result = run_cli(*args, cwd=content.parent, timeout=timeout)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert re.fullmatch(r"\d+ problem\(s\)(; nothing was written)?\.", lines[-1]), lines  # validate: no "written"
    return lines[:-1]


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def where(path: Path, needle: str) -> str:
    """`line:col` of the first occurrence of needle in the file."""
    text = path.read_text(encoding="utf-8")
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    return f"{line}:{index - text.rfind(chr(10), 0, index)}"


# ---------------------------------------------------------------- encoding, characters, positions

def test_a_latin1_byte_in_game_yaml_is_an_error_at_the_byte_under_build_all(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    at = where(game, "test game")
    game.write_bytes(game.read_bytes().replace(b"a test game", b"a t\xe9st game"))
    result = run_cli("build", "all", "--content", str(mini_copy), "--templates", str(TEMPLATES),
                     "--out", str(mini_copy.parent / "out"), cwd=mini_copy.parent, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    line, col = at.split(":")
    assert result.stderr.splitlines()[0] == (f"content/mini/game.yaml:{line}:{int(col) + 1}: expected UTF-8 text, "
                                             "found the byte 0xE9 (save the file as UTF-8)")


def test_a_control_character_is_an_error_at_its_own_place_on_one_line(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "title: Bob,", "title: B\x07ob,")
    at = where(deck, "\x07")
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{at}: expected printable text, found the control character U+0007"]


def test_a_control_character_made_by_an_escape_is_an_error_at_its_text(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, 'text: "Draw a card."', 'text: "Draw\\ta card.\\e"')
    at = where(deck, '"Draw\\t')
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{at}: expected printable text, found the control character U+001B"]


def test_private_use_characters_printkit_uses_itself_are_refused_in_content(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "title: Ada,", "title: A\ue000da\ue001,")
    catalog = mini_copy / "mini" / "i18n" / "fr.yaml"
    replace(catalog, "rules:", "rules:\n  extra: \"\U000f0000\"")
    assert refused(mini_copy) == [
        f"content/mini/deck.yaml:{where(deck, 'A' + chr(0xE000))}: expected printable text, found the private-use character U+E000",
        f"content/mini/i18n/fr.yaml:{where(catalog, chr(34) + chr(0xF0000))}: expected printable text, "
        "found the private-use character U+F0000"]


def test_a_100_kb_title_is_refused_before_anything_is_drawn(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    replace(game, '"Mini: a test game"', '"' + "Mini " * 20_000 + '"')
    at = where(game, '"Mini Mini')
    assert refused(mini_copy, command="build") == [
        f"content/mini/game.yaml:{at}: expected a text of at most 20,000 characters, found 100,000"]


def test_a_1000_character_game_title_and_one_in_a_script_the_font_lacks(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    replace(game, '"Mini: a test game"', '"' + "M" * 1000 + '"')
    assert refused(mini_copy) == [f"content/mini/game.yaml:{where(game, chr(34) + 'MMM')}: expected at most 60 characters, found 1000"]
    replace(game, '"' + "M" * 1000 + '"', '"Mini \U0001F3B2 \u05de\u05e9\u05d7\u05e7"')
    assert refused(mini_copy) == [f"content/mini/game.yaml:{where(game, chr(34) + 'Mini')}: expected characters the sheet "
                                  "font Barlow has, found '\u05d7\u05de\u05e7\u05e9\U0001F3B2'"]


def test_no_position_is_a_question_mark_any_more():
    sources = [p for p in (REPO / "printkit").rglob("*.py") if 'Pos("?")' in p.read_text(encoding="utf-8")]
    assert sources == []


# ---------------------------------------------------------------- YAML means what YAML says

def test_plain_values_yaml_versions_read_differently_must_be_quoted(mini_copy):
    catalog = mini_copy / "mini" / "i18n" / "en.yaml"
    replace(catalog, "rules:", "no: Nope\nrules:")
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "power: 2}", "power: 010}")
    assert refused(mini_copy) == sorted([
        f"content/mini/deck.yaml:{where(deck, '010')}: expected a plain value YAML 1.1 and 1.2 read alike, found 010 "
        "(YAML 1.1 reads 8, YAML 1.2 10); write \"010\" in quotes for text",
        f"content/mini/i18n/en.yaml:{where(catalog, 'no:')}: expected a plain value YAML 1.1 and 1.2 read alike, found no "
        "(YAML 1.1 reads false, YAML 1.2 'no'); write \"no\" in quotes for text"])


@pytest.mark.parametrize("text, value", [('"no": x', {"no": "x"}), ("off: 'off'\n", None), ("a: 0x1F", {"a": 31}),
                                         ("a: 1.0e+5", {"a": 100000.0}), ("a: [y, n, '010', 10]", {"a": ["y", "n", "010", 10]})])
def test_quoted_and_unambiguous_values_read_as_written(text, value):
    if value is None:
        with pytest.raises(Exception, match="found off"):
            _parse(text.encode(), "f.yaml")
    else:
        assert _parse(text.encode(), "f.yaml") == value


def test_every_shipped_yaml_file_reads_without_an_ambiguous_value():
    files = [*(REPO / "content").rglob("*.yaml"), *(REPO / "printkit" / "content" / "locale").glob("*.yaml"),
             *FIXTURES.rglob("*.yaml")]
    assert len(files) > 50
    for file in files:
        _parse(file.read_bytes(), str(file))  # raises ContentError on any problem


# ---------------------------------------------------------------- bounded work

def test_an_alias_bomb_stops_at_the_alias_that_crosses_the_limit(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    levels = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    levels += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
    replace(deck, "cards:", "data:\n" + "".join(f"  {level}\n" for level in levels) + "cards:")
    line, col = where(deck, "[*l4").split(":")  # l5's first alias repeats more than 100,000 values in all
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{line}:{int(col) + 1}: expected at most 100,000 values repeated "
                                  "by aliases in a file, found more"]


def test_more_than_a_thousand_aliases_stop_at_the_one_over(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "cards:", "data: {one: &one 1, many: [" + ", ".join(["*one"] * 1001) + "]}\ncards:")
    line, col = where(deck, "[*one").split(":")
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{line}:{int(col) + 1 + 1000 * 6}: expected at most 1,000 aliases "
                                  "in a file, found more"]


@pytest.mark.parametrize("depth", [900, 10_000])
def test_deep_nesting_stops_at_the_level_over_the_limit(mini_copy, depth):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "cards:", "data: {deep: " + "[" * depth + "]" * depth + "}\ncards:")
    line, col = where(deck, "[[").split(":")
    # the root mapping and `data` are two levels: the 31st bracket is the 33rd level
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{line}:{int(col) + 30}: expected at most 32 levels of nesting, "
                                  "found more"]


def test_deep_block_nesting_and_a_recursive_alias(mini_copy):
    tokens = mini_copy / "mini" / "tokens.yaml"
    tokens.write_text("kind: standee\n" + "".join(" " * i + f"k{i}:\n" for i in range(1000)), encoding="utf-8")
    board = mini_copy / "mini" / "board.yaml"
    replace(board, "data: {skills: [Speed]", "data: {loop: &me [1, *me], skills: [Speed]")
    assert refused(mini_copy) == [  # k32 is in the 33rd mapping (the file's own is the first)
        f"content/mini/board.yaml:{where(board, '*me')}: expected an alias of a complete anchor defined before it, found *me",
        f"content/mini/tokens.yaml:{where(tokens, 'k32:')}: expected at most 32 levels of nesting, found more"]


def test_ten_million_copies_of_a_hex_token_are_refused_by_validate_at_once(mini_copy):
    hexes = mini_copy / "mini" / "hexes.yaml"
    replace(hexes, "qty: 4", "qty: 10000000")
    assert refused(mini_copy) == [f"content/mini/hexes.yaml:{where(hexes, '10000000')}: expected a quantity from 0 (left out) to 1,000, "
                                  "found 10000000"]


def test_ten_million_copies_of_a_hex_board_piece_and_too_many_pieces(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", content)
    tiles = content / "hexmini" / "tiles.yaml"
    replace(tiles, "qty: 2", "qty: 10000000")
    assert refused(content, "hexmini") == [f"content/hexmini/tiles.yaml:{where(tiles, '10000000')}: expected a number ≤ 1000, "
                                           "found 10000000"]
    replace(tiles, "qty: 10000000", "qty: 1000")
    more = "".join(f"  - {{id: t{i}, hexes: [[0, 0]], qty: 1000}}\n" for i in range(10))
    replace(tiles, "layouts:", more + "layouts:")
    assert refused(content, "hexmini") == [
        f"content/hexmini/tiles.yaml:{where(tiles, '- id: wedge')}: expected at most 10,000 pieces in a component, found 11,001",
    ]


@pytest.mark.parametrize("file, old, new, needle, expected", [
    ("hexmini/tiles.yaml", "size: 10, flat", "size: 1.0e+308, flat", "1.0e+308", "expected a number ≤ 100, found 1e+308"),
    ("mini/board.yaml", "at: [20, 20]", "at: [1.0e+308, 20]", "1.0e+308", "expected a number ≤ 2000, found 1e+308"),
    ("mini/board.yaml", "at: [20, 20]", "at: [.nan, 20]", ".nan", "expected a finite number, found .nan"),
    ("mini/player-board.yaml", "[180, 120]", "[-.inf, 120]", "-.inf", "expected a finite number, found -.inf"),
    ("mini/deck.yaml", "power: 3", "power: 1.0e+999", "1.0e+999", "expected a finite number, found 1.0e+999"),
    ("mini/player-board.yaml", "[180, 120]", "[1000000, 1000000]", "[1000000",
     "expected [width, height] in mm, each above 0 and at most 2000, found [1e+06, 1e+06]"),
])
def test_huge_nan_and_infinite_numbers_are_positioned_errors(tmp_path, file, old, new, needle, expected):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", content)
    path = content / file
    replace(path, old, new)
    assert refused(content, file.split("/")[0], command="build", timeout=60) == [f"content/{file}:{where(path, needle)}: {expected}"]


def test_an_oversized_card_is_refused_by_validate_at_its_size(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, "size: poker", "size: [250, 300]")
    assert refused(mini_copy) == [f"content/mini/deck.yaml:{where(deck, '[250')}: expected a piece that fits a sheet of A4 "
                                  "and of US Letter (at most 200 x 269.4 mm, either way up), found 250 x 300 mm"]


def test_a_file_over_the_size_limit_is_not_read_to_its_end(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    with deck.open("a", encoding="utf-8") as handle:
        handle.write("# " + "x" * (compose.MAX_FILE_BYTES + 10) + "\n")
    assert refused(mini_copy) == ["content/mini/deck.yaml:1:1: expected a file of at most 4,096 kB, found a larger one"]


def test_a_long_paragraph_flows_over_several_pages(mini_copy):
    """A block longer than a page used to stop the build ("a block is taller than a page")."""
    replace(mini_copy / "mini" / "i18n" / "en.yaml", "Hand limit: {hand_limit} cards.", "Hand limit. " * 1600)
    result = run_cli("build", "mini", "--content", str(mini_copy), "--templates", str(TEMPLATES), "--out",
                     str(mini_copy.parent / "out"), "--paper", "letter", "--lang", "en", "--no-kit", "--no-poster",
                     cwd=mini_copy.parent, timeout=120)
    assert result.returncode == 0, result.stderr


def test_a_long_heading_kept_with_a_tall_figure_parts_from_it(tmp_path):
    """Together taller than a column, a heading and the figure after it used to stop the build."""
    import shutil

    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", content)
    sheet = content / "hexmini" / "guide-sheet.yaml"
    replace(sheet, "columns: 2", "columns: 3")
    replace(sheet, "figure_sizes: {layout: [80, 40]}", "figure_sizes: {layout: [50, 240]}")
    replace(sheet, "  - {style: figure,", "  - {style: h2, key: big}\n  - {style: figure,")
    for lang in ("en", "fr", "de"):
        replace(content / "hexmini" / "i18n" / f"{lang}.yaml", "guide:\n", "guide:\n  big: \"" + "W" * 300 + "\"\n")
    result = run_cli("build", "hexmini", "--content", str(content), "--templates", str(TEMPLATES), "--out",
                     str(tmp_path / "out"), "--paper", "letter", "--lang", "en", "--no-poster", cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr


def test_every_limit_is_documented():
    doc = (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
    limits = {compose.MAX_FILE_BYTES // 1024: "kB", compose.MAX_REPEATED: "", compose.MAX_ALIASES: "", compose.MAX_DEPTH: "levels",
              compose.MAX_TEXT: "characters", compose.MAX_DIGITS: "digits", model.MAX_TITLE: "characters",
              game_module.MAX_HEADING: "characters", game_module.MAX_SHEET_TEXT: "characters", model.MAX_QTY: "",
              game_module.MAX_PIECES: "", game_module.MAX_GAME_PIECES: "", model.MAX_COMPONENTS: "",
              int(model.MAX_MM): "mm", model.MAX_LAYOUTS: "", int(model.MAX_FIGURE_H): "mm", model.MAX_PLAYERS: ""}
    for value, unit in limits.items():
        assert f"| {value:,}{' ' + unit if unit else ''}" in doc, value


# ---------------------------------------------------------------- paths, ids, cache

def test_content_reached_through_a_link_leaving_its_folder_is_refused(mini_copy, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    deck = mini_copy / "mini" / "deck.yaml"
    (outside / "deck.yaml").write_text(deck.read_text(encoding="utf-8"), encoding="utf-8")
    deck.unlink()
    deck.symlink_to(outside / "deck.yaml")
    catalog = mini_copy / "mini" / "i18n" / "de.yaml"
    (outside / "de.yaml").write_text(catalog.read_text(encoding="utf-8"), encoding="utf-8")
    catalog.unlink()
    catalog.symlink_to(Path("..", "..", "..", "outside", "de.yaml"))
    game = mini_copy / "mini" / "game.yaml"
    assert refused(mini_copy) == [
        f"content/mini/game.yaml:{where(game, 'deck, tokens')}: expected a component file inside content/mini, "
        "found content/mini/deck.yaml, a link leaving it",
        "content/mini/i18n/de.yaml:1:1: expected a catalog file inside content/mini, found a link leaving it"]
    (outside / "game.yaml").write_text(game.read_text(encoding="utf-8"), encoding="utf-8")
    game.unlink()
    game.symlink_to(outside / "game.yaml")
    assert refused(mini_copy) == ["content/mini/game.yaml:1:1: expected a game.yaml inside content/mini, found a link leaving it"]


def test_a_link_inside_the_game_folder_is_read(mini_copy):
    sheet = mini_copy / "mini" / "sheet.yaml"
    (mini_copy / "mini" / "sheet-source.yaml").write_text(sheet.read_text(encoding="utf-8"), encoding="utf-8")
    sheet.unlink()
    sheet.symlink_to("sheet-source.yaml")
    result = run_cli("validate", "mini", "--content", str(mini_copy), "--templates", str(TEMPLATES), cwd=mini_copy.parent)
    assert result.returncode == 0, result.stderr


def test_a_template_linked_out_of_its_folder_is_found_by_the_paths_helper(tmp_path):
    from printkit.content import template_inside

    folder = tmp_path / "templates" / "mini"
    folder.mkdir(parents=True)
    (tmp_path / "secret.svg.j2").write_text("<svg/>")
    (folder / "front.svg.j2").symlink_to(tmp_path / "secret.svg.j2")
    (folder / "back.svg.j2").write_text("<svg/>")
    assert not template_inside((folder,), "front.svg.j2")
    assert template_inside((folder,), "back.svg.j2") and template_inside((folder,), "missing.svg.j2")


def test_two_rules_with_one_id_name_both_positions(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    first = where(game, "cards\n")
    replace(game, "id: power-range", "id: cards")
    second = where(game, "cards\n    source: \"test rulebook, Power")
    assert refused(mini_copy) == [f"content/mini/game.yaml:{second}: expected each rule id once (first at "
                                  f"content/mini/game.yaml:{first}), found 'cards' again"]


def test_a_corrupted_cache_entry_is_parsed_again_silently(tmp_path, monkeypatch):
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "x.yaml"
    file.write_text("a: [1, 2]\n")
    assert load_yaml(file, "x.yaml") == {"a": [1, 2]}
    (entry,) = (tmp_path / "cache").glob("*.pickle")
    gone = types.ModuleType("printkit_gone_module")

    class Thing:
        pass

    Thing.__module__, Thing.__qualname__ = gone.__name__, "Thing"
    gone.Thing = Thing
    sys.modules[gone.__name__] = gone
    try:
        foreign = pickle.dumps(Thing())
    finally:
        del sys.modules[gone.__name__]
    for broken in (b"", b"\x80\x05garbage", foreign, foreign[:7]):
        entry.write_bytes(broken)
        assert load_yaml(file, "x.yaml") == {"a": [1, 2]}
        assert str(load_yaml(file, "x.yaml").value_pos["a"]) == "x.yaml:1:4"


# ---------------------------------------------------------------- property: random YAML mutations

_MINI_FILES = sorted(p.relative_to(FIXTURES / "content").as_posix() for p in (FIXTURES / "content" / "mini").rglob("*.yaml"))
_ODD = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\u2028", "\ue000", "\U000f0000", "\ufeff", "\t", "\r", "\U0001F600",
        "\u05d0", "&", "*", "!", "%", "@", "`", "|", ">", "-", "#", ":", "'", '"', "[", "]", "{", "}", ",", "?", "\n",
        "\\", "é"]
_VALUES = ["no", "yes", "On", "010", "09", "0x1F", "1_000", "1:30", "1e5", "2024-01-01", ".nan", "-.inf", "1.0e+308",
           "1.0e+999", "-1", "0", "10000000", "~", "''", "[]", "{}", "*nope", "&a x", "!!python/object:os.system x",
           "!!int abc", '"\\a"', "9" * 5000, "x" * 25_000, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
           "[1, 2, 3]", "{a: 1}", "true", "null", "2", "0.5", "poker", "'a: b'", '"#c62828"', "[200, 300]"]
_SCALAR = re.compile(r"(?<=: )[^\s{}\[\],][^,}\]\n]*|(?<=[\[,] )[^\s{}\[\],][^,}\]\n]*")


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, bytes]:
    """One of the mini game's files, mutated: a value replaced, a character inserted, a span cut, a
    line doubled or moved, an indentation changed, or a Latin-1 byte."""
    name = draw(st.sampled_from(_MINI_FILES))
    text = (FIXTURES / "content" / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    kind = draw(st.sampled_from(["value", "insert", "cut", "line", "indent", "latin1"]))
    if kind == "value":
        spots = list(_SCALAR.finditer(text))
        spot = spots[draw(st.integers(0, len(spots) - 1))]
        text = text[: spot.start()] + draw(st.sampled_from(_VALUES)) + text[spot.end():]
    elif kind == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(st.sampled_from(_ODD), min_size=1, max_size=3)) + text[at:]
    elif kind == "cut":
        start = draw(st.integers(0, len(text)))
        text = text[:start] + text[start + draw(st.integers(1, 40)):]
    elif kind == "line":
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        lines.insert(j, lines[i] if draw(st.booleans()) else lines.pop(i))
        text = "\n".join(lines)
    elif kind == "indent":
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = " " * draw(st.integers(0, 6)) + lines[i].lstrip(" ")
        text = "\n".join(lines)
    else:
        at = draw(st.integers(0, len(text)))
        raw = text.encode("utf-8")
        return name, raw[:at] + b"\xe9" + raw[at:]
    return name, text.encode("utf-8")


_PROBLEM = re.compile(r"content/mini/[\w/.-]+\.yaml:\d+:\d+: expected .+, found .+", re.S)


@pytest.fixture(scope="module")
def mutable_mini(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import shutil

    content = tmp_path_factory.mktemp("mutated") / "content"
    shutil.copytree(FIXTURES / "content" / "mini", content / "mini")
    return content


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(mutation=mutations())
def test_mutated_yaml_is_valid_or_refused_line_by_line(mutable_mini, mutation):
    name, data = mutation
    path = mutable_mini / name
    original = (FIXTURES / "content" / name).read_bytes()
    path.write_bytes(data)
    try:
        result = CliRunner().invoke(app, ["validate", "mini", "--content", str(mutable_mini), "--templates", str(TEMPLATES)])
    finally:
        path.write_bytes(original)
    assert result.exit_code in (0, 2), (result.exception, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert result.stdout.startswith("mini: valid")
        return
    lines = result.stderr.splitlines()
    assert lines[-1] == f"{len(lines) - 1} problem(s)."  # validate never writes: no "nothing was written"
    for line in lines[:-1]:
        assert _PROBLEM.fullmatch(line), line

