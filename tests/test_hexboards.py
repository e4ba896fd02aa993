"""Hex boards, localised pieces, split catalogs and sheet figures, on a small game made for the tests
(tests/fixtures/content/hexmini), measured in the written PDFs."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import fitz
import pytest

from conftest import FIXTURES, mini_roots
from pdfcheck import PT, fonts
from printkit.build import Settings, build
from test_errors import line_of, problems as game_problems, replace

SIZE = 10.0  # the fixture's hex size, centre to corner
# the wedge [0,0] [1,0] [0,1] of flat-topped hexes: x from -s to 1.5s + s, y from -h/2 to sqrt3 s + h/2
WEDGE = (2 * SIZE + 1.5 * SIZE, 2 * math.sqrt(3) * SIZE)


@pytest.fixture(scope="module")
def hex_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hexmini-out")
    build(Settings(roots=mini_roots(), out=out), ["hexmini"])
    return out


@pytest.fixture()
def hex_copy(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(FIXTURES / "content" / "hexmini", target / "hexmini")
    return target


def problems(content: Path) -> list[str]:
    return game_problems(content, "hexmini")


def raw_text(path: Path) -> str:
    """The text as written, non-breaking spaces and all."""
    with fitz.open(path) as doc:
        return "\n".join(page.get_text() for page in doc)


def cut_outlines(page: fitz.Page, w: float, h: float, tol: float = 0.1) -> list[fitz.Rect]:
    """Stroked paths whose box is w x h mm: the cutting outlines."""
    found = []
    for d in page.get_drawings():
        r = d["rect"]
        if d.get("color") is not None and abs(r.width * PT - w) <= tol and abs(r.height * PT - h) <= tol:
            found.append(d)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hex_pieces_are_cut_along_the_outline_of_their_hexes(hex_build, paper):
    with fitz.open(hex_build / "hexmini" / paper / "tiles.pdf") as doc:
        wedges = cut_outlines(doc[0], *WEDGE)
        singles = cut_outlines(doc[1], 2 * SIZE, math.sqrt(3) * SIZE)
        assert len(wedges) == 2 and len(singles) == 1
        # the outline of three hexes around a point: 12 edges, none of them inside the piece
        assert all(len(d["items"]) == 12 for d in wedges)
        assert len(doc) == 3  # wedges, the single, one diagram per layout
        assert "Layout duo: 2 starts" in doc[2].get_text()


def test_manifest_counts_hex_pieces(hex_build):
    files = {f["path"]: f for f in json.loads((hex_build / "manifest.json").read_text())["files"]}
    tiles = files["hexmini/a4/tiles.pdf"]
    assert (tiles["kind"], tiles["items"], tiles["lang"], tiles["pages"]) == ("hex-board", 3, None, 3)


def test_localised_pieces_print_once_per_language_with_their_catalog_text(hex_build):
    files = {f["path"]: f for f in json.loads((hex_build / "manifest.json").read_text())["files"]}
    expected = {"en": "Hello: play well! (en)", "fr": "Bonjour : jouez bien ! (fr)", "de": "Hallo: gut spielen! (de)"}
    for lang, words in expected.items():
        path = hex_build / "hexmini" / "a4" / f"aids.{lang}.pdf"
        assert files[f"hexmini/a4/aids.{lang}.pdf"]["lang"] == lang
        assert files[f"hexmini/a4/aids.{lang}.pdf"]["items"] == 1
        assert words in raw_text(path)
        assert (hex_build / "hexmini" / "a4" / f"aids-gutterfold.{lang}.pdf").is_file()
    assert not (hex_build / "hexmini" / "a4" / "aids.pdf").exists()


def test_templates_get_the_languages_typography_through_t():
    from printkit.content.game import load_game
    from printkit.draw.pieces import catalog_text

    content = load_game(mini_roots(), "hexmini")
    assert catalog_text(content, "fr")("aid.hello") == "Bonjour\u00a0: jouez bien\u00a0!"
    assert catalog_text(content, "de")("guide.bonus") == "Ein Bonus von 0,5 Punkt: siehe „Bild“."
    assert catalog_text(content, "en")("guide.bonus") == "A bonus of 0.5 point: see the picture."


def test_sheet_figures_are_drawn_from_the_games_data_in_each_language(hex_build):
    fr = raw_text(hex_build / "hexmini" / "a4" / "guide-sheet.fr.pdf")
    de = raw_text(hex_build / "hexmini" / "a4" / "guide-sheet.de.pdf")
    en = raw_text(hex_build / "hexmini" / "a4" / "guide-sheet.en.pdf")
    # the figure counts the layout's hexes (3 + 3 + 1) and the aids; its label comes from a split catalog
    assert "Start here: 7 hexes, 1 aid" in en and "Départ ici : 7 hexes, 1 aid" in fr
    assert "The duo layout" in en and "La disposition à deux" in fr
    assert "0,5 Punkt" in de and "„Bild“" in de and "0.5 point" in en and "0,5 point" in fr
    for path in (hex_build / "hexmini" / "a4").glob("*.pdf"):
        assert all(embedded for _, embedded in fonts(path)), path


def test_overlapping_placements_and_starts_off_the_board_are_errors(hex_copy):
    tiles = hex_copy / "hexmini" / "tiles.yaml"
    replace(tiles, "{piece: single, at: [1, 1]}", "{piece: single, at: [1, 0]}")
    replace(tiles, "{player: 2, piece: A, at: [3, 0]}", "{player: 2, piece: A, at: [9, 9]}")
    replace(tiles, "{player: 1, piece: A, at: [0, 1]}", "{player: 1, piece: A, at: [2, 0]}")
    single = line_of(tiles, "{piece: single, at: [1, 0]}")
    far = line_of(tiles, "at: [9, 9]")
    assert problems(hex_copy) == [  # exactly these: player 1's start moved to [2, 0] is still on the board
        f"content/hexmini/tiles.yaml:{single}:9: expected hexes no other piece of layout 'duo' covers, "
        f"found [1, 0] also under placement 1",
        f"content/hexmini/tiles.yaml:{far}:9: expected a start hex on layout 'duo', found [9, 9]"]


def test_a_layout_that_falls_apart_and_unknown_pieces_are_errors(hex_copy):
    tiles = hex_copy / "hexmini" / "tiles.yaml"
    replace(tiles, "{piece: single, at: [1, 1]}", "{piece: single, at: [8, 8]}")
    replace(tiles, "{piece: wedge, at: [2, 0]}", "{piece: wedgie, at: [2, 0]}")
    assert problems(hex_copy) == [
        f"content/hexmini/tiles.yaml:{line_of(tiles, 'id: duo')}:5: expected layout 'duo' in one connected piece, "
        f"found separate parts",
        f"content/hexmini/tiles.yaml:{line_of(tiles, 'wedgie')}:9: expected a piece id (wedge, single), found 'wedgie'",
        # with the wedge unknown, the hexes it covered are off the board: a start there is reported too
        f"content/hexmini/tiles.yaml:{line_of(tiles, 'at: [3, 0]')}:9: expected a start hex on layout 'duo', "
        f"found [3, 0]"]


def test_count_per_group_length_and_supply_rules_report_exactly(hex_copy):
    game = hex_copy / "hexmini" / "game.yaml"
    replace(hex_copy / "hexmini" / "tiles.yaml", "{player: 2, piece: A, at: [3, 0]}", "{player: 1, piece: A, at: [3, 0]}")
    replace(hex_copy / "hexmini" / "aids.yaml", "cells: [1, 2]", "cells: [1, 2, 3]")
    replace(game, "shares: [{players: 2, param: tiles_each}, {players: 3, param: tiles_each}]",
            "shares: [{players: 2, param: tiles_each}, {players: 4, param: tiles_each}]")
    aids = hex_copy / "hexmini" / "aids.yaml"
    assert problems(hex_copy) == [
        f"content/hexmini/aids.yaml:{line_of(aids, 'cells: [1, 2, 3]')}:25: expected 2 entries in cells "
        f"(rule cells), found 3",
        f"content/hexmini/game.yaml:{line_of(game, 'expect: 1')}:13: expected 1 pieces for layout duo, player 1 "
        f"(rule starts-each), found 2",
        f"content/hexmini/game.yaml:{line_of(game, 'id: tiles-suffice')}:5: expected 4 × tiles_each = 4 pieces "
        f"or fewer (rule tiles-suffice), found 3"]


def test_a_catalog_key_given_by_two_files_is_an_error(hex_copy):
    extra = hex_copy / "hexmini" / "i18n" / "en" / "figures.yaml"
    extra.write_text(extra.read_text() + "  title: \"Again\"\n")
    assert problems(hex_copy) == [
        f"content/hexmini/i18n/en/figures.yaml:{line_of(extra, 'title:')}:3: expected key 'guide.title' once "
        f"(it is also in content/hexmini/i18n/en.yaml), found a second one"]


def test_a_key_missing_from_one_languages_catalogs_names_key_and_file(hex_copy):
    (hex_copy / "hexmini" / "i18n" / "en" / "figures.yaml").write_text("guide:\n  caption: \"The duo layout\"\n")
    assert problems(hex_copy) == ["content/hexmini/i18n/en.yaml:1:1: expected key 'guide.label' (as in fr.yaml), found none"]


def test_a_figure_and_its_caption_never_part_at_a_column_break():
    from printkit.content.game import load_game
    from printkit.layout.parts import sheet_flow
    from printkit.layout.flow import Figure

    content = load_game(mini_roots(), "hexmini")
    flow = sheet_flow(content, content.components["guide-sheet"], "en")
    block = next(f for f in flow.make() if any(isinstance(i, Figure) for i in getattr(f, "items", [])))
    figure_h = block.items[0].wrap(200, 1000)[1]
    _, whole_h = block.wrap(200, 1000)
    assert whole_h > figure_h + 5  # the caption is in the block
    assert block.split(200, figure_h + 2) == []  # room for the figure alone: both move on together
