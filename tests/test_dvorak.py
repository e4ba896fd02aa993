"""Blake's 7 for Dvorak, end to end: two decks with their own backs, the play mat and the rules per
language, measured in the PDFs; a broken count gives the exact error."""
from __future__ import annotations

import hashlib
from pathlib import Path

import fitz
import pdfplumber
import pytest
import yaml

from pdfcheck import blank_border_mm, fonts, is_paper, page_sizes_mm, piece_texts, registered_pieces, text
from printkit.build import Settings, build
from printkit.paths import Roots
from test_chase import rule_line
from conftest import game_copy
from test_errors import problems, replace
from test_replicants import manifest

ROOT = Path(__file__).resolve().parents[1]
GAME = "blakes7-dvorak"
LANGS = ("en", "fr", "de")
POKER = (63.5, 88.9)
BLEED = 3.0
DECKS = ("blake-deck", "federation-deck")


def deck_size(stem: str) -> int:
    cards = yaml.safe_load((ROOT / "content" / GAME / f"{stem}.yaml").read_text())["cards"]
    return sum(card.get("qty", 1) for card in cards)


@pytest.fixture(scope="session")
def dvorak_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dvorak-out")
    build(Settings(roots=Roots.default(), out=out), [GAME])
    return out


@pytest.fixture()
def dvorak_copy(tmp_path: Path) -> Path:
    return game_copy(tmp_path, GAME)


def test_two_playable_decks_a_mat_and_rules_per_language(dvorak_build):
    files = manifest(dvorak_build)
    for paper in ("a4", "letter"):
        for stem in DECKS:
            entry = files[f"{GAME}/{paper}/{stem}.pdf"]
            assert entry["lang"] is None and entry["items"] == deck_size(stem)
            assert 50 <= entry["items"] <= 80
        for lang in LANGS:
            assert files[f"{GAME}/{paper}/play-mat.{lang}.pdf"]["lang"] == lang
            assert files[f"{GAME}/{paper}/rules.{lang}.pdf"]["lang"] == lang
            kit = dvorak_build / GAME / paper / f"{GAME}-kit.{lang}.pdf"
            assert all(is_paper(size, paper) for size in page_sizes_mm(kit))
            assert all(embedded for _, embedded in fonts(kit))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("stem", DECKS)
def test_cards_are_poker_size_and_backs_register(dvorak_build, paper, stem):
    path = dvorak_build / GAME / paper / f"{stem}.pdf"
    assert registered_pieces(path, POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED, paper) == deck_size(stem)
    assert min(blank_border_mm(path)) >= 5.0 - 0.26


def back_page_png(path: Path) -> bytes:
    with fitz.open(path) as doc:
        return doc[1].get_pixmap(dpi=40).tobytes("png")


def test_the_two_decks_have_different_backs_that_hide_the_card(dvorak_build):
    folder = dvorak_build / GAME / "a4"
    blake, federation = (back_page_png(folder / f"{stem}.pdf") for stem in DECKS)
    assert hashlib.sha256(blake).digest() != hashlib.sha256(federation).digest()
    size = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)
    backs = {}
    for stem in DECKS:
        with pdfplumber.open(str(folder / f"{stem}.pdf")) as pdf:
            texts = [t for page in pdf.pages[1::2] for t in piece_texts(page, *size)]
        assert len(texts) == deck_size(stem) and len(set(texts)) == 1, stem  # every back alike
        backs[stem] = texts[0]
    assert "BLAKE" in backs["blake-deck"].upper() and "FEDERATION" in backs["federation-deck"].upper()
    assert backs["blake-deck"] != backs["federation-deck"]


def test_every_card_shows_its_title(dvorak_build):
    size = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)
    for stem in DECKS:
        titles = [c["title"] for c in yaml.safe_load((ROOT / "content" / GAME / f"{stem}.yaml").read_text())["cards"]]
        with pdfplumber.open(str(dvorak_build / GAME / "a4" / f"{stem}.pdf")) as pdf:
            fronts = [t.replace("\n", " ").replace("\u2019", "'") for page in pdf.pages[0::2] for t in piece_texts(page, *size)]
        assert all(any(f.startswith(title) for f in fronts) for title in titles), stem
        special = sorted(t for t in set(titles) if any(f.startswith(t + " ") and "SPECIAL" in f for f in fronts))
        assert special == (["Liberator", "Scorpio", "Xenon Base"] if stem == "blake-deck" else []), stem


def test_named_and_special_cards_show_what_the_rules_need(dvorak_build):
    blake = text(dvorak_build / GAME / "a4" / "blake-deck.pdf").replace("\n", " ")
    federation = text(dvorak_build / GAME / "a4" / "federation-deck.pdf").replace("\n", " ")
    for title in ("Blake", "Avon", "Jenna", "Liberator", "Scorpio", "Xenon Base", "Control is Destroyed", "Alliance",
                  "Gan", "Cally"):
        assert title in blake
    for title in ("Supreme Commander Servalan", "Space Commander Travis", "Federation Double Agent", "Traitor!",
                  "Standard Pursuit Ship", "Mark X Pursuit Ship"):
        assert title in federation
    assert "Crewmember – Core" in blake and "Crewmember – Ally" in blake
    assert "THING" in blake.upper() and "ACTION" in blake.upper()


def test_the_mat_names_every_location_in_each_language(dvorak_build):
    folder = dvorak_build / GAME / "a4"
    en = text(folder / "play-mat.en.pdf")
    for place in ("Deep Space", "Planetary Orbit", "Federation Reserve", "Kill pile", "Special pile"):
        assert place.lower() in en.lower(), place
    assert text(folder / "play-mat.fr.pdf") != en and text(folder / "play-mat.de.pdf") != en
    # the assembly page names the mat in the kit's language
    assert "Assemblage du plateau : Tapis de jeu" in text(folder / "play-mat.fr.pdf")
    assert "Spielplan zusammensetzen: Spielmatte" in text(folder / "play-mat.de.pdf")


def test_the_mat_poster_is_printed_once_per_language(dvorak_build):
    files = manifest(dvorak_build)
    posters = {lang: files[f"{GAME}/poster/play-mat-poster.{lang}.pdf"] for lang in LANGS}
    assert all(p["lang"] == lang and p["items"] == 1 for lang, p in posters.items())
    words = {lang: text(dvorak_build / p["path"]) for lang, p in posters.items()}
    assert "Deep Space" in words["en"] and words["fr"] != words["en"] and words["de"] != words["en"]


def test_rules_sheet_in_each_language(dvorak_build):
    folder = dvorak_build / GAME / "a4"
    # the cards are English in every kit, and the French guide says so
    assert "Les pièces sont imprimées en anglais" in text(folder / f"{GAME}-kit.fr.pdf")
    sheets = {lang: text(folder / f"rules.{lang}.pdf") for lang in LANGS}
    assert all("Liberator" in s and "Xenon Base" in s for s in sheets.values())
    assert "Space Combat" in sheets["en"] and "(Space Combat)" in sheets["fr"] and "(Space Combat)" in sheets["de"]


def test_a_third_standard_pursuit_ship_is_an_exact_error(dvorak_copy):
    deck = dvorak_copy / GAME / "federation-deck.yaml"
    replace(deck, "  - title: Standard Pursuit Ship\n    type: thing\n    subtype: \"Pursuit Ship\"\n    qty: 2\n",
            "  - title: Standard Pursuit Ship\n    type: thing\n    subtype: \"Pursuit Ship\"\n    qty: 3\n")
    game = dvorak_copy / GAME / "game.yaml"
    assert problems(dvorak_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'standard-pursuit-ships')}:13: "
        f"expected [2, 2] (rule standard-pursuit-ships), found [2, 2, 2]"]


def test_a_deck_beyond_80_cards_is_an_exact_error(dvorak_copy):
    deck = dvorak_copy / GAME / "blake-deck.yaml"
    replace(deck, "    subtype: \"Force Wall\"\n    qty: 3\n", "    subtype: \"Force Wall\"\n    qty: 27\n")
    game = dvorak_copy / GAME / "game.yaml"
    size = deck_size("blake-deck") + 24
    assert problems(dvorak_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'blake-deck-size', 'min:')}:10: "
        f"expected 50..80 pieces (rule blake-deck-size), found {size}"]
