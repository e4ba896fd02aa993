"""The Blade Runner chase variant, end to end: counts, sizes, duplex and languages measured in the PDFs;
a broken count and a broken ITT give exact errors."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pdfcheck import blank_border_mm, fonts, is_paper, page_sizes_mm, piece_texts, registered_pieces, text
from printkit.build import Settings, build
from printkit.paths import Roots
from conftest import game_copy
from test_errors import problems, replace
from test_replicants import count_outlines, manifest

ROOT = Path(__file__).resolve().parents[1]
GAME = "bladerunner-chase"
LANGS = ("en", "fr", "de")
TAROT = (70.0, 120.0)
BLEED = 3.0  # templates paint their background 3 mm past the trim


def rule_line(game: Path, rule_id: str, needle: str = "expect:") -> int:
    """The line of `needle` within rule `rule_id` of a game.yaml."""
    lines = game.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {rule_id}")
    return next(i for i in range(start, len(lines)) if needle in lines[i]) + 1


@pytest.fixture(scope="session")
def chase_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("chase-out")
    build(Settings(roots=Roots.default(), out=out, poster=False), [GAME])
    return out


@pytest.fixture()
def chase_copy(tmp_path: Path) -> Path:
    return game_copy(tmp_path, GAME)


def test_every_piece_is_built_with_its_count_and_cards_per_language(chase_build):
    files = manifest(chase_build)
    for paper in ("a4", "letter"):
        once = {stem: files[f"{GAME}/{paper}/{stem}.pdf"] for stem in ("clue-tiles", "suspect-markers", "objective-tokens")}
        assert {stem: f["items"] for stem, f in once.items()} == {"clue-tiles": 16, "suspect-markers": 3, "objective-tokens": 36}
        assert all(f["lang"] is None for f in once.values())
        for lang in LANGS:
            assert files[f"{GAME}/{paper}/characters.{lang}.pdf"]["items"] == 8
            assert files[f"{GAME}/{paper}/itt-trackers.{lang}.pdf"]["items"] == 4
            assert files[f"{GAME}/{paper}/mia-cards.{lang}.pdf"]["items"] == 2
            assert files[f"{GAME}/{paper}/reference.{lang}.pdf"]["lang"] == lang
            kit = chase_build / GAME / paper / f"{GAME}-kit.{lang}.pdf"
            assert all(is_paper(size, paper) for size in page_sizes_mm(kit))
            assert all(embedded for _, embedded in fonts(kit))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_character_cards_are_tarot_size_and_their_backs_register(chase_build, paper):
    path = chase_build / GAME / paper / "characters.en.pdf"
    assert registered_pieces(path, TAROT[0] + 2 * BLEED, TAROT[1] + 2 * BLEED, paper) == 8
    assert min(blank_border_mm(path)) >= 5.0 - 0.26


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_round_tokens_are_cut_at_their_size(chase_build, paper):
    folder = chase_build / GAME / paper
    assert count_outlines(folder / "objective-tokens.pdf", 16, 16) == 36
    assert count_outlines(folder / "suspect-markers.pdf", 32, 32) == 3


def test_clue_tiles_share_one_back_that_hides_the_value(chase_build):
    path = chase_build / GAME / "a4" / "clue-tiles.pdf"
    size = 25 + 2 * BLEED
    with pdfplumber.open(str(path)) as pdf:
        fronts = [t for p in pdf.pages[0::2] for t in piece_texts(p, size, size)]
        backs = [t for p in pdf.pages[1::2] for t in piece_texts(p, size, size)]
    assert sorted(fronts) == ["1"] * 4 + ["2"] * 8 + ["3"] * 4
    assert len(backs) == 16 and len(set(backs)) == 1 and not any(c in backs[0] for c in "123")


def test_cards_speak_each_language(chase_build):
    folder = chase_build / GAME / "a4"
    words = {"en": ("VK Master", "Stealthy", "Strength"), "fr": ("Maître du VK", "Furtif", "Force"),
             "de": ("VK-Meister", "Heimlich", "Stärke")}
    for lang, expected in words.items():
        cards = text(folder / f"characters.{lang}.pdf")
        assert all(w in cards for w in expected), lang
        assert all(name in cards for name in ("Holden", "Deckard", "Gaff", "Roy", "Leon", "Zhora", "Pris", "Rachael"))
    assert "16" in text(folder / "itt-trackers.en.pdf")


def test_reference_sheet_has_the_setup_table_in_each_language(chase_build):
    folder = chase_build / GAME / "a4"
    for lang in LANGS:
        sheet = text(folder / f"reference.{lang}.pdf")
        assert "2 + 1 + 1" in sheet and "1 + 1 + 1 + 1" in sheet and "2 + 2" in sheet, lang
    assert "Voight-Kampff" in text(folder / "reference.de.pdf")


def test_a_missing_clue_tile_is_an_exact_error(chase_copy):
    tiles = chase_copy / GAME / "clue-tiles.yaml"
    replace(tiles, "{value: 2, qty: 8}", "{value: 2, qty: 7}")
    game = chase_copy / GAME / "game.yaml"
    total, twos = rule_line(game, "clue-tiles"), rule_line(game, "clue-tiles-2")
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{total}:13: expected 16 pieces (rule clue-tiles), found 15",
        f"content/{GAME}/game.yaml:{twos}:13: expected 8 pieces (rule clue-tiles-2), found 7"]


def test_pris_itt_must_stay_16_on_card_and_tracker(chase_copy):
    trackers = chase_copy / GAME / "itt-trackers.yaml"
    replace(trackers, "{title: Pris, itt: 16", "{title: Pris, itt: 17")
    game = chase_copy / GAME / "game.yaml"
    line = rule_line(game, "itt-pris")
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{line}:13: expected [16, 16] (rule itt-pris), found [16, 17]"]


def test_the_guide_says_pieces_are_in_english_only_when_they_are(chase_build):
    # every piece with words is printed per language here, so no kit warns of English pieces
    for lang, words in (("fr", "Les pièces sont imprimées en"), ("de", "Die Spielteile sind auf")):
        guide = text(chase_build / GAME / "a4" / f"{GAME}-kit.{lang}.pdf").split("\n")[:60]
        assert not any(words in line for line in guide), lang
