"""The Blade Runner chase variant, end to end: counts, sizes, duplex and languages measured in the PDFs;
a broken count and a broken ITT give exact errors."""
from __future__ import annotations

import math
from pathlib import Path

import pdfplumber
import pytest
import yaml

from pdfcheck import blank_border_mm, fonts, is_paper, page_sizes_mm, piece_rects, piece_texts, registered_pieces, text
from printkit.build import Settings, build
from printkit.content.paths import Roots
from conftest import game_copy
from test_errors import problems, replace
from test_replicants import count_outlines, manifest

ROOT = Path(__file__).resolve().parents[1]
GAME = "bladerunner-chase"
LANGS = ("en", "fr", "de")
TAROT = (70.0, 120.0)
BLEED = 3.175  # templates paint their background 1/8 in past the trim


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
            assert files[f"{GAME}/{paper}/itt-trackers.{lang}.pdf"]["items"] == 5  # Rachael has one too
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
    trackers = text(folder / "itt-trackers.en.pdf")
    itts = {c["title"]: c["itt"] for c in yaml.safe_load((ROOT / "content" / GAME / "characters.yaml").read_text())["cards"]
            if c.get("itt")}
    assert itts and all(f"{name.upper()}\nITT {itt}\n" in trackers for name, itt in itts.items()), itts


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
    replace(trackers, "{title: Pris, role: replicant, itt: 16", "{title: Pris, role: replicant, itt: 17")
    game = chase_copy / GAME / "game.yaml"
    line = rule_line(game, "itt-pris")
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{line}:13: expected [16, 16] (rule itt-pris), found [16, 17]"]


def test_the_guide_says_pieces_are_in_english_only_when_they_are(chase_build):
    # every piece with words is printed per language here, so no kit warns of English pieces
    for lang, words in (("fr", "Les pièces sont imprimées en"), ("de", "Die Spielteile sind auf")):
        guide = text(chase_build / GAME / "a4" / f"{GAME}-kit.{lang}.pdf").split("\n")[:60]
        assert not any(words in line for line in guide), lang


# ---- the review's fixes (Rachael's tickets, fair values, one re-roll unit, kit rulings) -------------------

CARD = (TAROT[0] + 2 * BLEED, TAROT[1] + 2 * BLEED)
STRIP = (190 + 2 * BLEED, 50 + 2 * BLEED)  # an ITT tracker with its bleed
PAPERS = ("a4", "letter")
# what each fix prints, per language: read on the pieces and the sheet
SAYS = {
    "en": {"unit": "per conflict", "round": "per round", "ruling": "Kit ruling", "no_clues": "without Clue Tiles is not Suspected",
           "tie_card": "tie: the most tickets in play", "own_itt": "her own ITT", "never_2": "never with 2 players",
           "design": "Kit design", "multitask": "multitasking: 2 boxes", "her_win": "her player has won",
           "sheet_tie": "tie for the most objectives", "sheet_never": "never enters a 2-player game",
           "sheet_win": "but the game does not end", "sheet_tickets": "has no tickets to hand on", "never": "never"},
    "fr": {"unit": "par conflit", "round": "par manche", "ruling": "Règle du kit", "no_clues": "sans Tuile Indice n'est pas suspect",
           "tie_card": "égalité : le plus de tickets en jeu", "own_itt": "son propre ITT", "never_2": "jamais à 2 joueurs",
           "design": "Choix du kit", "multitask": "multitâche : 2 cases", "her_win": "son joueur a gagné",
           "sheet_tie": "égalité au plus d'objectifs", "sheet_never": "jamais dans une partie à 2 joueurs",
           "sheet_win": "mais la partie ne s'arrête pas", "sheet_tickets": "n'a plus de tickets à transmettre", "never": "jamais"},
    "de": {"unit": "pro Konflikt", "round": "pro Runde", "ruling": "Kit-Regel", "no_clues": "ohne Hinweisplättchen ist nicht verdächtig",
           "tie_card": "Gleichstand: die meisten Tickets im Spiel", "own_itt": "ihre eigene ITT", "never_2": "also nie zu zweit",
           "design": "Kit-Entwurf", "multitask": "Multitasking: 2 Felder", "her_win": "Ihr Spieler hat gewonnen",
           "sheet_tie": "Gleichstand bei den meisten Zielen", "sheet_never": "in einem Spiel zu zweit kommt sie also nie",
           "sheet_win": "doch das Spiel endet damit nicht", "sheet_tickets": "hat keine Tickets mehr, die er weitergeben",
           "never": "nie"},
}


def flat(s: str) -> str:
    """Text with every run of white space (line breaks, no-break spaces) as one space."""
    return " ".join(s.replace("\u00a0", " ").replace("\u2019", "'").split())


def piece_words(path: Path, size: tuple[float, float]) -> list[list[tuple]]:
    """For each piece of `size` mm (with bleed) on the front pages: its text spans as (text, size pt, x0, y0, x1, y1)."""
    import pymupdf

    out = []
    with pdfplumber.open(str(path)) as pdf, pymupdf.open(str(path)) as doc:
        for index in range(0, len(pdf.pages), 2 if "characters" in path.name else 1):
            for cx, cy in piece_rects(pdf.pages[index], *size):
                k = 72 / 25.4
                clip = pymupdf.Rect((cx - size[0] / 2) * k, (cy - size[1] / 2) * k, (cx + size[0] / 2) * k, (cy + size[1] / 2) * k)
                spans = [(sp["text"].strip(), sp["size"], *sp["bbox"])
                         for block in doc[index].get_text("dict", clip=clip)["blocks"] for line in block.get("lines", [])
                         for sp in line["spans"] if sp["text"].strip()]
                out.append(spans)
    return out


def card_values(path: Path) -> dict[str, tuple[int, int, int]]:
    """Name -> (ITT, Intellect, Strength) as printed big on each Replicant card (Rachael's too): the topmost big
    number is the ITT, the two below it Intellect (left) and Strength (right)."""
    values = {}
    for spans in piece_words(path, CARD):
        title = min(spans, key=lambda sp: sp[3])[0]  # the name heads the card
        big = sorted(((round(sp[3]), sp[2], int(sp[0])) for sp in spans if sp[0].isdigit() and sp[1] >= 16))
        if len(big) == 3:
            itt, (_, _, a), (_, _, b) = big[0][2], *sorted(big[1:], key=lambda v: v[1])
            values[title] = (itt, a, b)
    return values


@pytest.mark.parametrize("paper", PAPERS)
def test_no_replicant_is_worse_than_another_on_every_value_printed(chase_build, paper):
    values = card_values(chase_build / GAME / paper / "characters.en.pdf")
    assert set(values) == {"Roy", "Leon", "Zhora", "Pris", "Rachael"}
    dealt = {name: v for name, v in values.items() if name != "Rachael"}
    for a, va in dealt.items():
        for b, vb in dealt.items():
            assert a == b or not all(x >= y for x, y in zip(va, vb)), f"{a} {va} dominates {b} {vb}"
    # the fairness argument printed nowhere but kept by every card: one budget, ITT + Intellect + 2 x Strength
    assert len({itt + i + 2 * s for itt, i, s in values.values()}) == 1, values
    assert values["Pris"][0] == 16  # the rulebook's
    assert {17, 20} <= {v[0] for v in dealt.values()} and len({v[2] for v in dealt.values()}) > 1
    assert all(16 <= v[0] <= 20 for v in values.values())
    for lang in ("fr", "de"):
        assert card_values(chase_build / GAME / paper / f"characters.{lang}.pdf") == values


def tracker_strips(path: Path) -> dict[str, tuple[int, int, set[int], str]]:
    """Name -> (ITT printed, grey boxes with a +, box numbers, the strip's text) for each ITT tracker."""
    out = {}
    for spans in piece_words(path, STRIP):
        words = [sp[0] for sp in spans]
        name, itt = words[0], int(next(w for w in words if w.split()[-1].isdigit() and w.startswith("ITT")).split()[-1])
        numbers = {int(w) for w in words if w.isdigit() and 1 <= int(w) <= 40}
        last_row = max(sp[5] for sp in spans if sp[0] == "40")
        plus = sum(1 for sp in spans if sp[0] == "+" and (sp[3] + sp[5]) / 2 < last_row)
        out[name.title()] = (itt, plus, numbers, flat(" ".join(words)))
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_five_trackers_hold_each_itt_and_room_for_won_tickets(chase_build, paper):
    folder = chase_build / GAME / paper
    cards = card_values(folder / "characters.en.pdf")
    for lang in LANGS:
        strips = tracker_strips(folder / f"itt-trackers.{lang}.pdf")
        assert set(strips) == set(cards) == {"Roy", "Leon", "Zhora", "Pris", "Rachael"}, lang
        for name, (itt, grey, numbers, words) in strips.items():
            assert itt == cards[name][0], (lang, name)          # the tracker repeats the card's ITT
            assert numbers == set(range(1, 41)), (lang, name)   # a box per ticket, 40 of them
            assert grey == 40 - itt and grey >= 20, (lang, name)  # the rest open with a +, for won tickets
            assert SAYS[lang]["multitask"] in words, (lang, name)
        assert SAYS[lang]["ruling"] in strips["Rachael"][3], lang


def card_texts(path: Path) -> dict[str, str]:
    return {min(spans, key=lambda sp: sp[3])[0]: flat(" ".join(sp[0] for sp in spans)) for spans in piece_words(path, CARD)}


@pytest.mark.parametrize("lang", LANGS)
def test_cards_state_the_kit_rulings(chase_build, lang):
    say = SAYS[lang]
    for paper in PAPERS:
        cards = card_texts(chase_build / GAME / paper / f"characters.{lang}.pdf")
        assert len(cards) == 8
        for name in ("Holden", "Deckard", "Gaff"):
            text_ = cards[name]
            assert say["unit"] in text_ and say["round"] not in text_, (name, text_)
            assert f"{say['ruling']}" in text_ and say["no_clues"] in text_, (name, text_)  # the 0-clue ruling
            assert say["tie_card"] in text_, name
        for name in ("Roy", "Leon", "Zhora", "Pris", "Rachael"):
            assert cards[name].count(say["unit"]) == 2, (name, cards[name])  # Intellect and Strength
        rachael = cards["Rachael"]
        for key in ("ruling", "own_itt", "never_2", "design", "her_win"):
            assert say[key] in rachael, (key, rachael)
        mia = flat(text(chase_build / GAME / paper / f"mia-cards.{lang}.pdf"))
        assert say["unit"].lower() in mia.lower() and say["round"] not in mia


@pytest.mark.parametrize("lang", LANGS)
def test_the_sheet_states_the_kit_rulings(chase_build, lang):
    say = SAYS[lang]
    for paper in PAPERS:  # the rulings fit: still one sheet, both sides
        assert len(page_sizes_mm(chase_build / GAME / paper / f"reference.{lang}.pdf")) == 2, paper
    sheet = flat(text(chase_build / GAME / "a4" / f"reference.{lang}.pdf"))
    for key in ("unit", "no_clues", "sheet_tie", "sheet_never", "sheet_win", "sheet_tickets"):
        assert say[key] in sheet, (key, sheet)
    assert sheet.count(say["ruling"]) >= 5  # 0 clues, re-rolls, Rachael's tickets and win, the tie: each marked
    # the setup table: Rachael never with 2 players, later with 3 to 5
    with pdfplumber.open(str(chase_build / GAME / "a4" / f"reference.{lang}.pdf")) as pdf:
        first = pdf.pages[0]
        column = first.crop((0, 0, first.width / 2, first.height)).extract_text() or ""
    rows = {line.split()[0]: line.split()[-1] for line in column.splitlines() if line.split()[:1] in (["2"], ["3"], ["4"], ["5"])}
    assert rows["2"] == say["never"] and rows["3"] == rows["4"] == rows["5"] != say["never"], rows


def test_titles_and_running_heads_are_localised(chase_build):
    expected = {"en": "Blade Runner: the chase", "fr": "Blade Runner : la traque", "de": "Blade Runner: Die Jagd"}
    for lang, title in expected.items():
        kit = flat(text(chase_build / GAME / "a4" / f"{GAME}-kit.{lang}.pdf"))
        assert kit.count(title) >= 15, lang  # the guide's title and a running head on every page
        if lang != "en":
            assert "the chase" not in kit, lang
    fr = flat(text(chase_build / GAME / "a4" / "reference.fr.pdf"))
    assert "lisez « subway » là où cette feuille dit métro" in fr and "s'appelle subway" not in fr
    de = flat(text(chase_build / GAME / "a4" / "reference.de.pdf"))
    assert "Person" not in de and "2–5 Spieler" in de


@pytest.mark.parametrize("paper", PAPERS)
def test_suspect_markers_are_rings_with_a_hole(chase_build, paper):
    import numpy as np
    import pymupdf

    path = chase_build / GAME / paper / "suspect-markers.pdf"
    with pymupdf.open(str(path)) as doc:
        page = doc[0]
        discs = [d["rect"] for d in page.get_drawings() if d.get("color") is not None
                 and abs(d["rect"].width * 25.4 / 72 - 32) <= 0.1 and abs(d["rect"].height * 25.4 / 72 - 32) <= 0.1]
        dpi = 100
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)
    assert len(discs) == 3
    px = dpi / 72
    for r in discs:
        cx, cy, mm = (r.x0 + r.x1) / 2 * px, (r.y0 + r.y1) / 2 * px, dpi / 25.4
        hole = img[int(cy - 7 * mm):int(cy + 7 * mm), int(cx - 7 * mm):int(cx + 7 * mm)]
        assert hole.min() > 200  # a 14 mm square in the middle: nothing printed, the board shows through
        ring = [img[int(cy - 13.6 * mm * math.cos(math.radians(a))), int(cx + 13.6 * mm * math.sin(math.radians(a)))]
                for a in range(-150, 151, 10)]
        assert np.mean(ring) < 150  # the printed ring round it, dark all the way round but for the slot
        slot = img[int(cy + 13.5 * mm), int(cx - 0.8 * mm):int(cx + 0.8 * mm)]
        assert slot.min() > 200  # the slot: scissors reach the hole from the edge


def test_a_dominating_replicant_is_an_exact_error(chase_copy):
    cards = chase_copy / GAME / "characters.yaml"
    replace(cards, "{title: Roy, role: replicant, itt: 17, intellect: 3, strength: 2",
            "{title: Roy, role: replicant, itt: 17, intellect: 3, strength: 3")  # Roy would beat Pris everywhere
    game = chase_copy / GAME / "game.yaml"
    line = rule_line(game, "strength-roy")
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{line}:13: expected [2] (rule strength-roy), found [3]"]


def test_rachael_needs_her_own_itt_on_card_and_tracker(chase_copy):
    trackers = chase_copy / GAME / "itt-trackers.yaml"
    replace(trackers, '  - {title: Rachael, role: rachael, itt: 19, colour: "#5d4037"}\n', "")
    game = chase_copy / GAME / "game.yaml"
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'itt-rachael')}:13: expected [19, 19] (rule itt-rachael), found [19]",
        f"content/{GAME}/game.yaml:{rule_line(game, 'trackers')}:13: "
        "expected [Leon, Pris, Rachael, Roy, Zhora] (rule trackers), found [Leon, Pris, Roy, Zhora]"]


def test_rachael_in_a_two_player_game_is_an_exact_error(chase_copy):
    sheet = chase_copy / GAME / "reference.yaml"
    replace(sheet, "split: [4], rachael: false}", "split: [4], rachael: true}")
    game = chase_copy / GAME / "game.yaml"
    assert problems(chase_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'rachael-never-with-2')}:13: "
        "expected [False] (rule rachael-never-with-2), found [True]"]


@pytest.mark.parametrize("lang, meeting, old", [
    ("en", "meeting Rachael: up to her Intellect", "or meeting with Rachael"),
    ("fr", "face à Rachael : jusqu'à son Intelligence", "ou une rencontre avec Rachael"),
    ("de", "gegen Rachael: bis zu ihrer Intelligenz", "oder eine Begegnung mit Rachael"),
])
def test_detective_cards_count_rachaels_rerolls_by_her_intellect_as_her_card_does(chase_build, lang, meeting, old):
    words = " ".join(text(chase_build / GAME / "a4" / f"characters.{lang}.pdf").replace("\u202f", " ").split())
    assert words.count(meeting) == 3 and old not in words  # Holden, Deckard and Gaff


@pytest.mark.parametrize("lang, phrase", [
    ("en", "the next Detective, who enters as after a lost Combat"),
    ("fr", "le Détective suivant, qui entre comme après un Combat perdu"),
    ("de", "mit dem nächsten weiter, der wie nach einem verlorenen Kampf ins Spiel kommt"),
])
def test_the_sheet_says_where_the_next_detective_enters_after_rachael_wins(chase_build, lang, phrase):
    assert phrase in " ".join(text(chase_build / GAME / "a4" / f"reference.{lang}.pdf").split())
