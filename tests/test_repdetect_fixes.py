"""Rep-Detect against its rulebook, measured in the built kit: one back for the 60 playable cards, a fair
board with no dead-end Home, skill tracks with markers, Replicant markers and the rules texts a careful
group asked for. Broken on purpose, each fact and rule gives its exact error."""
from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import numpy
import pymupdf
import pytest

from conftest import game_copy
from pdfcheck import piece_rects, registered_pieces, text
from test_errors import line_of, problems, replace

POKER = (63.5, 88.9)
DRAWN_BLEED = 3.175  # templates paint their background 1/8 in past the trim
PT = 72 / 25.4
LANGS = ("en", "fr", "de")


def card_back_images(path: Path, dpi: int = 100) -> list[tuple[int, int, bytes]]:
    """The rendered pixels (width, height, RGB samples) of every card on the back pages of a duplex deck
    file. Each card is rendered with its trim's top-left corner on a whole pixel, so identical backs give
    the same pixels wherever they sit on the sheet, but for a few levels of anti-aliasing."""
    size = (POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED)
    scale = dpi / 72
    out = []
    with pdfplumber.open(str(path)) as pdf, pymupdf.open(path) as doc:
        for n in range(1, len(pdf.pages), 2):
            for cx, cy in piece_rects(pdf.pages[n], *size):
                x0, y0 = (cx - POKER[0] / 2 + 0.5) * PT, (cy - POKER[1] / 2 + 0.5) * PT
                clip = pymupdf.Rect(x0, y0, x0 + (POKER[0] - 1) * PT, y0 + (POKER[1] - 1) * PT)
                turned = doc[n].rect.width > doc[n].rect.height
                # the corner a reader starts from on a half-turned back is the clip's bottom right
                x1, y1 = x0 + (POKER[0] - 1) * PT, y0 + (POKER[1] - 1) * PT
                shift = ((math.ceil(x1 * scale) - x1 * scale, math.ceil(y1 * scale) - y1 * scale) if turned else
                         (math.ceil(x0 * scale) - x0 * scale, math.ceil(y0 * scale) - y0 * scale))
                pix = doc[n].get_pixmap(matrix=pymupdf.Matrix(scale, 0, 0, scale, *shift), clip=clip)
                samples = pix.samples
                if turned:
                    # a landscape sheet turns over top to bottom, so its backs print half a turn round
                    pixels = numpy.frombuffer(samples, numpy.uint8).reshape(pix.height, pix.width, pix.n)
                    samples = pixels[::-1, ::-1].tobytes()
                out.append((pix.width, pix.height, samples))
    return out


def alike(a: tuple[int, int, bytes], b: tuple[int, int, bytes], levels: int = 16) -> bool:
    """Same size and no pixel more than `levels` apart in any channel: a glyph, line or colour that
    differs moves some pixel by far more."""
    return a[:2] == b[:2] and max(abs(p - q) for p, q in zip(a[2], b[2])) <= levels


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_60_playable_cards_have_one_back_in_rendered_pixels(repdetect_build, paper):
    folder = repdetect_build / "rep-detect" / paper
    # every language's cards: the back (the game's title, a proper name) is the same in each
    backs = [back for lang in LANGS for deck in ("draw-deck", "replicant-deck")
             for back in card_back_images(folder / f"{deck}.{lang}.pdf")]
    assert len(backs) == 60 * len(LANGS)
    assert [i for i, back in enumerate(backs) if not alike(back, backs[0])] == []
    # and they still register with their fronts
    size = (POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED)
    assert registered_pieces(folder / "replicant-deck.en.pdf", *size, paper) == 5


def test_the_back_measure_tells_two_backs_apart(repdetect_build):
    # the reference cards' backs differ from the deck's back: the measure must see it
    folder = repdetect_build / "rep-detect" / "a4"
    deck, reference = card_back_images(folder / "draw-deck.en.pdf"), card_back_images(folder / "reference-cards.en.pdf")
    assert len(reference) == 2 and not any(alike(deck[0], back) for back in reference)
    assert alike(reference[0], reference[1])


def validate(content: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", "validate", "rep-detect", "--content", str(content)],
                          capture_output=True, text=True, cwd=tmp_path)


def test_a_replicant_back_of_its_own_is_an_exact_error(tmp_path):
    content = game_copy(tmp_path, "rep-detect")
    deck = content / "rep-detect" / "replicant-deck.yaml"
    deck.write_text(re.sub(r"back: draw-back\.svg\.j2.*", "back: card-front.svg.j2", deck.read_text()))
    result = validate(content, tmp_path)
    game = content / "rep-detect" / "game.yaml"
    shown = game.relative_to(tmp_path)
    rule = line_of(game, "id: one-back")
    line = next(i for i in range(rule, rule + 5) if "expect:" in game.read_text().splitlines()[i - 1])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (f"{shown}:{line}:13: expected [draw-back.svg.j2, draw-back.svg.j2] (rule one-back), "
            f"found [card-front.svg.j2, draw-back.svg.j2]") in result.stderr


def test_an_unfair_board_and_a_dead_end_home_are_exact_errors(tmp_path):
    content = game_copy(tmp_path, "rep-detect")
    replace(content / "rep-detect" / "board.yaml", "  - [home-yellow, s27]\n", "")
    game = content / "rep-detect" / "game.yaml"
    assert problems(content, "rep-detect") == [
        f"content/rep-detect/game.yaml:{line_of(game, 'id: homes-fair') + 4}:13: expected the nearest selected 'to' "
        f"node at exactly 2 moves from every 'from' node (fact homes-fair), found Red Home 2, Blue Home 2, Green Home 2, "
        f"Yellow Home 5",
        f"content/rep-detect/game.yaml:{line_of(game, 'id: homes-not-dead-ends')}:5: expected at least 2 links from "
        f"'Yellow Home' (fact homes-not-dead-ends), found 1"]


def test_police_headquarters_is_the_one_location_that_may_not_be_investigated(tmp_path):
    content = game_copy(tmp_path, "rep-detect")
    replace(content / "rep-detect" / "board.yaml", "tags: [no-investigation],", "tags: [],")
    game = content / "rep-detect" / "game.yaml"
    line = line_of(game, "id: no-investigation-at-hq") + 3
    assert problems(content, "rep-detect") == [
        f"content/rep-detect/game.yaml:{line}:13: expected [Police Headquarters] (rule no-investigation-at-hq), found []"]


def board_words(repdetect_build: Path, lang: str = "en") -> str:
    return text(repdetect_build / "rep-detect" / "poster" / f"board-poster.{lang}.pdf")


@pytest.mark.parametrize("lang, note", [
    ("en", "No Investigation · discard Hassles here"),
    ("fr", "Pas d'Enquête · défausse des Embrouilles ici"),
    ("de", "Keine Ermittlung · Ärgernisse hier abwerfen"),
])
def test_the_board_shows_the_police_headquarters_restriction(repdetect_build, lang, note):
    words = board_words(repdetect_build, lang)
    assert note in words
    tiles = text(repdetect_build / "rep-detect" / "a4" / f"board.{lang}.pdf")
    assert note in tiles


@pytest.mark.parametrize("lang, words", [
    ("fr", ["QUARTIER GÉNÉRAL DE LA POLICE", "THE SNAKE PIT", "DOMICILE", "ROUGE", "PIOCHE", "DÉFAUSSE",
            "RÉPLICANTS", "HORS JEU", "Enquête", "Détection", "Combat", "Retirés / Sauvés"]),
    ("de", ["POLIZEIPRÄSIDIUM", "THE SNAKE PIT", "HEIMATFELD", "GELB", "NACHZIEHSTAPEL", "ABLAGESTAPEL",
            "REPLIKANTEN", "AUSSER SPIEL", "Ermittlung", "Entlarvung", "Kampf", "Ausgemustert / Gerettet"]),
])
def test_the_board_prints_in_the_kits_language(repdetect_build, lang, words):
    board = board_words(repdetect_build, lang)
    for word in words:
        assert word in board, word
    for english in ("POLICE HEADQUARTERS", "HOME", "DRAW DECK", "DISCARD PILE", "Investigation", "Retired"):
        assert english not in board, english


@pytest.mark.parametrize("lang", LANGS)
def test_each_player_area_has_a_1_to_4_track_per_skill(repdetect_build, lang):
    path = repdetect_build / "rep-detect" / "poster" / f"board-poster.{lang}.pdf"
    with pymupdf.open(path) as doc:
        page = doc[0]
        boxes = [d for d in page.get_drawings()  # rounded squares: MuPDF sees them as paths
                 if abs(d["rect"].width / PT - 11) < 0.05 and abs(d["rect"].height / PT - 11) < 0.05]
        numbers = [span["text"] for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
                   for span in line["spans"] if span["size"] > 12 and span["text"] in ("1", "2", "3", "4")]
    assert len(boxes) == 4 * 3 * 4  # four players, three skills, values 1-4
    assert sorted(numbers) == sorted(["1", "2", "3", "4"] * 12)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_skill_markers_fit_the_track_and_replicant_markers_name_the_five(repdetect_build, paper):
    folder = repdetect_build / "rep-detect" / paper
    with pdfplumber.open(str(folder / "skill-markers.pdf")) as pdf:
        squares = sum(len(piece_rects(p, 9 + 2 * DRAWN_BLEED, 9 + 2 * DRAWN_BLEED)) for p in pdf.pages)
    assert squares == 12  # 3 per colour; 9 mm sits in the 11 mm track box
    words = text(folder / "replicant-markers.pdf")
    assert [n for n in ("BATTY", "LEON", "PRIS", "RACHAEL", "ZHORA") if n in words] == [
        "BATTY", "LEON", "PRIS", "RACHAEL", "ZHORA"]


def test_phases_of_a_turn_gives_the_escape_and_the_discarded_suspect(repdetect_build):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / "reference-cards.en.pdf").split())
    assert "Below its Evasion: discard it" in words and "1-3 human, discard it" in words.replace("\u2013", "-")
    assert "you are killed and your turn ends; with no other Blade Runner there, the Replicant escapes to the Discard Pile" in words
    assert "attack a Sympathizer or a suspected Blade Runner on your space" in words


@pytest.mark.parametrize("lang, note", [
    ("en", "Note its name and keep this card face up until you die"),
    ("fr", "Notez son nom et gardez cette carte face visible jusqu'à votre mort"),
    ("de", "Notiere seinen Namen und lass diese Karte offen liegen, bis du stirbst"),
])
def test_i_owe_you_one_says_to_note_who_spared_you(repdetect_build, lang, note):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / f"draw-deck.{lang}.pdf").split())
    assert note in words


@pytest.mark.parametrize("lang, reminder", [
    ("en", "Test at any Location"), ("fr", "Test dans n'importe quel Lieu"), ("de", "Test an jedem Ort"),
])
def test_every_suspect_says_it_is_tested_at_any_location(repdetect_build, lang, reminder):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / f"draw-deck.{lang}.pdf").split())
    assert words.count(reminder) == 15


@pytest.mark.parametrize("lang, few, attack, marker, spared", [
    ("en", "2 or 3 players", "Attacking a player", "its marker goes on the Location", "note its name"),
    ("fr", "À 2 ou 3 joueurs", "Attaquer un joueur", "son marqueur va sur le Lieu", "notez son nom"),
    ("de", "Zu zweit oder zu dritt", "Einen Spieler angreifen", "Sein Marker kommt auf den Ort", "notiere seinen Namen"),
])
def test_the_summary_sets_up_for_fewer_players_and_says_how_a_fight_with_a_player_starts(
        repdetect_build, lang, few, attack, marker, spared):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / f"rules-summary.{lang}.pdf").split())
    for phrase in (few, attack, marker, spared):
        assert phrase in words, phrase
    assert len(pymupdf.open(repdetect_build / "rep-detect" / "a4" / f"rules-summary.{lang}.pdf")) == 2


@pytest.mark.parametrize("lang, components, two, escaped", [
    ("en", "5 Replicant markers", "with 2, play Red and Green", "an escaped one's marker waits beside the Replicants space"),
    ("fr", "5 marqueurs de Réplicant", "à 2, jouez rouge et vert", "celui d'un Réplicant enfui attend à côté de l'emplacement Réplicants"),
    ("de", "5 Replikantenmarker", "zu zweit Rot gegen Grün", "der Marker eines geflohenen wartet neben dem Platz Replikanten"),
])
def test_the_summary_lists_the_markers_and_rules_where_an_escaped_replicants_marker_goes(
        repdetect_build, lang, components, two, escaped):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / f"rules-summary.{lang}.pdf").replace("\u202f", " ").split())
    assert components in words and two in words and escaped in words


@pytest.mark.parametrize("lang, mark", [("en", "(kit)"), ("fr", "(kit)"), ("de", "(Kit)")])
def test_the_reference_card_marks_the_kits_rulings(repdetect_build, lang, mark):
    words = " ".join(text(repdetect_build / "rep-detect" / "a4" / f"reference-cards.{lang}.pdf").split())
    assert words.count(mark) == 4  # the marker and the attack on each of the two cards
