"""RUN's kit against the rulebook and its review (shared/reviews/run.md): two copies of every map, the
empty-deck ruling, deck sizes and spawn odds per rank, ranks per role, road blocks as long as a map
space, "closest" defined, the Runner's duties for backup tokens, the map difficulty, the larger screens,
the table set-up page and the evidence board example. Measured in the written PDFs (pymupdf words and
text, pdfplumber rects and lines), or through rules in game.yaml broken on purpose."""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pdfplumber
import pymupdf
import pytest

from conftest import game_copy
from pdfcheck import PAPERS_MM, PT, piece_rects, spans

LANGS = ("en", "fr", "de")
PAPERS = ("a4", "letter")
FACES = {"1A": "1B", "2A": "2B"}  # front -> back of each double-sided map
RATING = {"1A": "BEGINNER", "1B": "NORMAL", "2A": "HARD", "2B": "EXPERT"}


def flat(text: str) -> str:
    """Text with every run of white space (line breaks, non-breaking spaces) made one space."""
    text = text.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ")
    for quote in ("\u201e", "\u201c", "\u201d", "\u00ab", "\u00bb"):
        text = text.replace(quote, '"')
    return " ".join(text.split())


def pages(path: Path) -> list[str]:
    with pymupdf.open(str(path)) as doc:
        return [flat(page.get_text()) for page in doc]


def doc_text(path: Path) -> str:
    return " ".join(pages(path))


def component_pages(run_build: Path, paper: str, lang: str, title: str) -> list[str]:
    """The kit's pages of one component, as its print guide lists them (pieces of several components may
    share sheets, so the page footers name the print job, not the component)."""
    texts = pages(run_build / "run" / paper / f"run-kit.{lang}.pdf")
    row = re.search(rf"{re.escape(title)} ((?:\d+(?:–\d+)?(?:, )?)+) ", " ".join(texts[:2]))
    assert row, title
    numbers = []
    for part in row.group(1).split(", "):
        first, _, last = part.partition("–")
        numbers += range(int(first), int(last or first) + 1)
    return [texts[n - 1] for n in numbers]


# ---------------------------------------------------------------------------------------------- maps

@pytest.mark.parametrize("paper", PAPERS)
def test_each_map_face_prints_on_two_pieces_fronts_backed_by_their_backs(run_build, paper):
    names = {"en": "Maps", "fr": "Plans", "de": "Pläne"}
    for path, texts in [("maps.en.pdf", pages(run_build / "run" / paper / "maps.en.pdf"))] + [
            (f"run-kit.{lang}.pdf", component_pages(run_build, paper, lang, names[lang])) for lang in LANGS]:
        assert len(texts) == 8, path  # 4 sheets, fronts and backs
        labels = [[face for face in RATING if f"#{face}" in t] for t in texts]
        found = Counter(face for on_page in labels for face in on_page)
        assert found == {"1A": 2, "1B": 2, "2A": 2, "2B": 2}, (path, found)
        for i, on_page in enumerate(labels):
            for front, back in FACES.items():
                if on_page == [front]:
                    assert labels[i + 1] == [back], (path, i)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_map_face_shows_its_difficulty(run_build, paper):
    for text in pages(run_build / "run" / paper / "maps.en.pdf"):
        (face,) = [f for f in RATING if f"#{f}" in text]
        assert "KIT DIFFICULTY" in text and RATING[face] in text
        assert [r for r in RATING.values() if r in text] == [RATING[face]]
        assert ("needs a gadget" in text) == (face == "2B")


@pytest.mark.parametrize("lang, copies, rating", [
    ("en", "two identical copies of map 1 (#1A/#1B) and of map 2 (#2A/#2B), one of each for each player",
     "#1A beginner, #1B normal, #2A hard, #2B expert"),
    ("fr", "deux exemplaires identiques du plan 1 (#1A/#1B) et du plan 2 (#2A/#2B), un de chaque par joueur",
     "#1A débutant, #1B normal, #2A difficile, #2B expert"),
    ("de", "zwei gleiche Exemplare von Plan 1 (#1A/#1B) und von Plan 2 (#2A/#2B), von jedem eines pro Spieler",
     "#1A Einstieg, #1B normal, #2A schwer, #2B Experte"),
])
def test_the_guide_counts_four_map_pieces_and_says_why(run_build, lang, copies, rating):
    name = {"en": "Maps", "fr": "Plans", "de": "Pläne"}[lang]
    for paper in PAPERS:
        guide = " ".join(pages(run_build / "run" / paper / f"run-kit.{lang}.pdf")[:2])
        assert re.search(rf"{name} \d+–\d+ 4 ", guide), guide[:900]  # the table: a page range, 4 pieces
        assert copies in guide and rating in guide
        summary = " ".join(component_pages(run_build, paper, lang, {"en": "Rules summary", "fr": "Résumé des règles",
                                                                     "de": "Regelübersicht"}[lang]))
        assert rating in summary


# -------------------------------------------------------------------------------- road blocks on the map

@pytest.mark.parametrize("paper", PAPERS)
def test_a_road_block_is_as_long_as_a_map_space(run_build, paper):
    with pdfplumber.open(str(run_build / "run" / paper / "maps.en.pdf")) as pdf:
        squares = Counter((round(r["width"] * PT, 2), round(r["height"] * PT, 2)) for r in pdf.pages[0].rects)
    (space, _), count = max(((size, n) for size, n in squares.items() if size[0] == size[1]), key=lambda e: e[1])
    assert count == 36  # the 6 x 6 spaces of the grid
    with pdfplumber.open(str(run_build / "run" / paper / "road-blocks.pdf")) as pdf:
        page = pdf.pages[0]
        height = page.height * PT
        cuts = sorted({round(line["x0"] * PT, 2) for line in page.lines
                       if abs(line["x0"] - line["x1"]) < 0.01 and 0.5 < (line["bottom"] - line["top"]) * PT < 8
                       and line["bottom"] * PT < height - 15})
    lengths = spans(cuts, space)
    assert len(lengths) == 2 and all(abs(length - space) < 0.05 for length in lengths), (cuts, space)


# --------------------------------------------------------------------------------------------- screens

@pytest.mark.parametrize("paper", PAPERS)
def test_screens_are_as_large_as_a_landscape_sheet_allows(run_build, paper):
    for stem in ("screen-runner", "screen-dispatch"):
        with pdfplumber.open(str(run_build / "run" / paper / f"{stem}.en.pdf")) as pdf:
            front = pdf.pages[0]
            assert front.width > front.height
            assert len(piece_rects(front, 258 + 6.35, 184 + 6.35)) == 1  # 3 panels of 86 mm, 184 mm tall, 1/8 in bleed


def test_the_runner_screen_lists_the_runners_duties_for_backup_tokens(run_build):
    text = doc_text(run_build / "run" / "a4" / "screen-runner.en.pdf")
    assert "Copy each motion detector, road block and car the Dispatcher places onto your map, at the same position" in text
    assert 'say "triggered" (not which); then remove it' in text
    assert "Road block: cross it only with the Jetpack or Hook" in text
    assert "the closest witness or safe-house is the one the fewest steps away" in text


def test_closest_is_defined_wherever_it_is_used(run_build):
    dispatch = doc_text(run_build / "run" / "a4" / "screen-dispatch.en.pdf")
    assert "closest X" not in dispatch
    assert "the card names the X, a witness or a safe-house; the closest is the one the fewest steps from the Runner" \
           in dispatch
    cards = doc_text(run_build / "run" / "a4" / "backup-cards.en.pdf")
    assert cards.count("closest") == 2
    assert "closest witness (the one the fewest steps away)" in cards
    assert "closest safe-house (the one the fewest steps away)" in cards
    wanted = {"en": "The Runner discloses their distance to the closest one, the one the fewest steps away",
              "fr": "Le Fugitif indique sa distance jusqu'au plus proche, celui qui est au plus petit nombre de pas",
              "de": "Der Flüchtige nennt seine Entfernung zum nächstgelegenen, dem mit den wenigsten Schritten"}
    for lang, phrase in wanted.items():
        assert phrase in doc_text(run_build / "run" / "letter" / f"rules-summary.{lang}.pdf")


# ----------------------------------------------------------------------------------------- backup cards

BACKUP_WORDS = {"en": ("DISPATCH", "RANK"), "fr": ("CARTE", "RANG"), "de": ("VERSTÄRKUNGSKARTE", "RANG")}


def backup_fronts(path: Path, lang: str = "en") -> list[tuple[int, tuple[int, ...]]]:
    """(spawn, ranks) of every card: the circled number left of the title (its first word), the numbers
    after the rank label ('RANK', 'RANG')."""
    title_word, rank_word = BACKUP_WORDS[lang]
    out = []
    with pymupdf.open(str(path)) as doc:
        for page in doc:
            words = [(w[0] * PT, w[1] * PT, w[2] * PT, w[3] * PT, w[4]) for w in page.get_text("words")]
            titles = [w for w in words if w[4] == title_word]
            for rank in (w for w in words if w[4] == rank_word):
                mid = (rank[1] + rank[3]) / 2
                ranks = tuple(int(w[4]) for w in sorted(words) if w[4].isdigit()
                              and abs((w[1] + w[3]) / 2 - mid) < 2 and rank[2] < w[0] < rank[2] + 20)
                title = min(titles, key=lambda t: abs(t[0] - rank[0]) + abs(rank[1] - t[1] - 77.5))
                (spawn,) = [int(w[4]) for w in words if w[4].isdigit() and title[0] - 12 < w[0] < title[0]
                            and abs(w[1] - title[1]) < 5]
                out.append((spawn, ranks))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", PAPERS)
def test_backup_decks_per_rank_reach_six_discards_and_even_spawn_odds_where_they_can(run_build, paper, lang):
    cards = backup_fronts(run_build / "run" / paper / f"backup-cards.{lang}.pdf", lang)
    assert len(cards) == 8
    decks = {rank: [spawn for spawn, ranks in cards if rank in ranks] for rank in (1, 2, 3)}
    assert {rank: len(deck) for rank, deck in decks.items()} == {1: 8, 2: 8, 3: 7}
    # 6 cards in the discard pile (the bottom action) happen before any deck runs out
    assert all(len(deck) > 6 for deck in decks.values())
    assert Counter(decks[1]) == Counter(decks[2]) == {1: 2, 2: 2, 3: 2, 4: 2}
    assert sorted(Counter(decks[3]).values()) == [1, 2, 2, 2]  # 7 cards: the closest to even
    # the card with the cardboard-token actions is not used at rank 3 (SETUP caption)
    assert [ranks for _, ranks in cards if ranks != (1, 2, 3)] == [(1, 2)]


def test_the_empty_deck_ruling_is_on_the_card_backs_the_dispatch_screen_and_the_summary(run_build):
    with pymupdf.open(str(run_build / "run" / "a4" / "backup-cards.en.pdf")) as doc:
        back = flat(doc[1].get_text())
    assert back.count("Empty deck? Kit ruling: shuffle the discard pile into a new deck.") == 8
    assert back.count("The count carries on, so from then on middle and bottom are always available.") == 8
    dispatch = doc_text(run_build / "run" / "a4" / "screen-dispatch.en.pdf")
    assert "EMPTY DECK (KIT RULING) Shuffle your discard pile into a new face-down deck. The count carries on" in dispatch
    wanted = {"en": "Empty deck (kit ruling): shuffle the discard pile into a new face-down deck. The count carries on",
              "fr": "Pioche vide (règle du kit) : mélangez la défausse pour former une nouvelle pioche face cachée. "
                    "Le compte continue",
              "de": "Leerer Stapel (Kit-Regel): Mische den Ablagestapel zu einem neuen verdeckten Stapel. "
                    "Die Zählung läuft weiter"}
    for lang, phrase in wanted.items():
        for paper in PAPERS:
            assert phrase in doc_text(run_build / "run" / paper / f"rules-summary.{lang}.pdf")


# ---------------------------------------------------------------------------------------------- ranks

def test_the_rank_board_keeps_one_rank_per_role_as_in_the_rulebooks_example(run_build):
    text = doc_text(run_build / "run" / "a4" / "rank-board.en.pdf")
    assert "Kit ruling: each role has its own rank." in text
    assert "Jo's first win as Runner completes Runner rank 1, so Jo plays the Runner at rank 2 next" in text
    wanted = {"en": "Kit ruling: each role has its own rank",
              "fr": "Règle du kit : chaque rôle a son propre rang",
              "de": "Kit-Regel: Jede Rolle hat ihren eigenen Rang"}
    for lang, phrase in wanted.items():
        assert phrase in doc_text(run_build / "run" / "a4" / f"rules-summary.{lang}.pdf")


@pytest.mark.parametrize("lang, new, old", [
    ("en", ["Dispatcher at rank 1 or 2: before the spawn point is drawn, the Dispatcher places 2 surveillance cars",
            "Runner at rank 1: the Runner adds the diagonal joker, whatever the Dispatcher's rank"],
     "both place 2 surveillance cars"),
    ("fr", ["Répartiteur au rang 1 ou 2 : avant de tirer le point de départ, le Répartiteur place 2 voitures",
            "Fugitif au rang 1 : le Fugitif ajoute le joker diagonal, quel que soit le rang du Répartiteur"],
     "les deux joueurs placent 2 voitures"),
    ("de", ["Einsatzleitung auf Rang 1 oder 2: Bevor der Startpunkt gezogen wird, stellt die Einsatzleitung 2",
            "Flüchtiger auf Rang 1: Der Flüchtige nimmt den diagonalen Joker dazu, egal auf welchem Rang"],
     "stellen beide 2 Überwachungswagen"),
])
def test_the_summary_sets_up_by_each_players_own_rank(run_build, lang, new, old):
    for paper in PAPERS:
        text = doc_text(run_build / "run" / paper / f"rules-summary.{lang}.pdf")
        assert all(phrase in text for phrase in new) and old not in text


# --------------------------------------------------------------------------- table set-up, evidence example

@pytest.mark.parametrize("lang, title, labels", [
    ("en", "Table set-up", ["RUNNER", "DISPATCHER", "Evidence board between you, facing the Dispatcher",
                            "5 action tiles, face up", "23 tracking discs (1 on the spawn point)", "Backup cards of your rank, face down"]),
    ("fr", "Mise en place de la table", ["FUGITIF", "RÉPARTITEUR", "Tableau des indices entre vous",
                                         "5 tuiles d'action, face visible", "23 disques de pistage (1 sur le point de départ)"]),
    ("de", "Tischaufbau", ["FLÜCHTIGER", "EINSATZLEITUNG", "Beweistafel zwischen euch", "5 Aktionsplättchen, offen",
                           "23 Suchscheiben (1 auf dem Startpunkt)"]),
])
def test_one_page_shows_the_table_set_up(run_build, lang, title, labels):
    for paper in PAPERS:
        (page,) = component_pages(run_build, paper, lang, title)
        assert all(label in page for label in labels), page
        with pymupdf.open(str(run_build / "run" / paper / f"run-kit.{lang}.pdf")) as doc:
            (index,) = [i for i, p in enumerate(doc) if f"· {title} ·" in flat(p.get_text())]
            ids = [(tuple(round(v) for v in line["dir"]), span["text"])
                     for block in doc[index].get_text("dict")["blocks"] for line in block.get("lines", [])
                     for span in line["spans"] if span["text"].strip() == "#1A"]
        # both players' maps, the same map, each turned so that its number is top left for its player
        assert sorted(ids) == [((-1, 0), "#1A"), ((1, 0), "#1A")], ids
        guide = " ".join(pages(run_build / "run" / paper / f"run-kit.{lang}.pdf")[:2])
        assert title in guide


@pytest.mark.parametrize("lang, caption", [
    ("en", "Evidence board example: its first 2 of 6 columns"),
    ("fr", "Exemple de tableau des indices : ses 2 premières colonnes sur 6"),
    ("de", "Beispiel Beweistafel: ihre ersten 2 von 6 Spalten"),
])
def test_the_summary_shows_an_evidence_board_example(run_build, lang, caption):
    with pymupdf.open(str(run_build / "run" / "a4" / f"rules-summary.{lang}.pdf")) as doc:
        text = " ".join(flat(page.get_text()) for page in doc)
        drawn = sum(len(page.get_drawings()) for page in doc)
    assert caption in text and drawn > 20
    assert all(f"{n} " in text for n in range(1, 6))


# ------------------------------------------------------------------------ rules in game.yaml broken on purpose

def position(lines: list[str], rule: str, key: str) -> tuple[int, int]:
    """Line and column of the value of `key` in the rule with this id (game.yaml)."""
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {rule}")
    i = next(i for i in range(start + 1, len(lines)) if lines[i].strip().startswith(f"{key}:"))
    return i + 1, lines[i].index(f"{key}:") + len(key) + 3


def test_rules_broken_on_purpose_name_the_copies_the_decks_the_ranks_and_the_road_block(tmp_path):
    content = game_copy(tmp_path, "run")
    run = content / "run"

    def edit(name: str, old: str, new: str) -> None:
        path = run / name
        text = path.read_text()
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new))

    edit("maps.yaml", "  - title: Map 2\n    qty: 2\n", "  - title: Map 2\n    qty: 1\n")
    edit("backup-cards.yaml", "  - title: Frank\n    spawn: 2\n    ranks: [1, 2, 3]\n",
         "  - title: Frank\n    spawn: 2\n    ranks: [1, 2]\n")
    edit("backup-cards.yaml", "gadgets: 2, discards: 6}", "gadgets: 2, discards: 7}")
    edit("rank-board.yaml", "    - {rank: 1, circles: 1}", "    - {rank: 1, circles: 2}")
    edit("road-blocks.yaml", "size: [26, 8]", "size: [30, 8]")
    result = subprocess.run([sys.executable, "-m", "printkit", "validate", "run", "--content", str(content)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    got = result.stderr.splitlines()
    lines = (run / "game.yaml").read_text().splitlines()
    blocks = (run / "road-blocks.yaml").read_text().splitlines()
    size_line = next(i for i, line in enumerate(blocks, 1) if line.startswith("size:"))

    def at(rule: str, key: str = "expect") -> str:
        line, col = position(lines, rule, key)
        return f"content/run/game.yaml:{line}:{col}:"

    for wanted in [
        f"{at('map-copies')} expected 2 pieces for front_face.id 2A, back_face.id 2B (rule map-copies), found 1",
        f"{at('maps')} expected 4 pieces (rule maps), found 3",
        f"{at('backup-deck-rank-3')} expected 7 pieces (rule backup-deck-rank-3), found 6",
        f"{at('backup-deck-covers-bottom', 'min')} expected 7.. pieces (rule backup-deck-covers-bottom), found 6",
        f"{at('backup-tiers')} expected [3, 6] (rule backup-tiers), found [3, 7]",
        f"{at('rank-1-one-win')} expected [1] (rule rank-1-one-win), found [2]",
        f"content/run/road-blocks.yaml:{size_line}:7: expected a road block as long as a map space's side (26 mm, "
        "maps.yaml data.space), found 30 mm",
    ]:
        assert wanted in got, (wanted, got)


@pytest.mark.parametrize("lang, adrenaline, token", [
    ("en", "On adrenaline (those 2 consecutive turns only)", "already on the map moves it there (the Runner moves theirs)"),
    ("fr", "Sous adrénaline (ces 2 tours consécutifs seulement)", "déjà posé le déplace à ce nouvel endroit (le Fugitif déplace le sien)"),
    ("de", "Unter Adrenalin (nur in diesen 2 Zügen hintereinander)", "wird das Plättchen dorthin versetzt (der Flüchtige versetzt seines ebenso)"),
])
def test_adrenaline_lasts_two_turns_and_a_reshuffled_token_card_moves_the_token(run_build, lang, adrenaline, token):
    summary = doc_text(run_build / "run" / "a4" / f"rules-summary.{lang}.pdf")
    assert adrenaline in summary and token in summary


def test_the_tile_and_the_screens_say_how_long_adrenaline_lasts_and_what_a_reshuffle_moves(run_build):
    folder = run_build / "run" / "a4"
    assert "no winning on a safe-house during those 2 turns" in doc_text(folder / "status-tile.en.pdf")
    assert "On adrenaline (those 2 turns only)" in doc_text(folder / "screen-runner.en.pdf")
    assert "A road block or detector already out is moved (the Runner moves theirs)" in doc_text(folder / "screen-dispatch.en.pdf")


# ------------------------------------------------------------------------------ pieces in every language

# a phrase each piece with words prints in each language, in the rules summary's terms
PIECES = {
    "screen-runner": {"en": "Pick up 3 stashes and end a turn on any safe-house: you win at once",
                      "fr": "Récupérez 3 planques et finissez un tour sur n'importe quel refuge : vous gagnez aussitôt",
                      "de": "Sammle 3 Verstecke ein und beende einen Zug auf einem beliebigen Unterschlupf: Du gewinnst sofort"},
    "screen-dispatch": {"en": "EMPTY DECK (KIT RULING) Shuffle your discard pile into a new face-down deck",
                        "fr": "PIOCHE VIDE (RÈGLE DU KIT) Mélangez votre défausse pour former une nouvelle pioche face cachée",
                        "de": "LEERER STAPEL (KIT-REGEL) Mische deinen Ablagestapel zu einem neuen verdeckten Stapel"},
    "backup-cards": {"en": "closest safe-house (the one the fewest steps away)",
                     "fr": "le refuge le plus proche (celui au plus petit nombre de pas)",
                     "de": "zum nächstgelegenen Unterschlupf nennen (dem mit den wenigsten Schritten)"},
    "rank-cards": {"en": "ADDITIONAL RULES", "fr": "RÈGLES SUPPLÉMENTAIRES", "de": "ZUSATZREGELN"},
    "status-tile": {"en": "Flip this tile when you take your first hit", "fr": "Retournez cette tuile à votre première touche",
                    "de": "Drehe dieses Plättchen bei deinem ersten Treffer um"},
    "dispatch-tiles": {"en": "FLARE GUN", "fr": "PISTOLET LANCE-FUSÉES", "de": "LEUCHTPISTOLE"},
    "gadget-tokens": {"en": "SMOKE BOMB", "fr": "FUMIGÈNE", "de": "RAUCHBOMBE"},
    "action-tokens": {"en": "LOUD SPRINT", "fr": "SPRINT BRUYANT", "de": "LAUTER SPRINT"},
    "action-board": {"en": "RUNNER ACTION BOARD", "fr": "PLATEAU D'ACTIONS DU FUGITIF", "de": "AKTIONSTABLEAU DES FLÜCHTIGEN"},
    "evidence-board": {"en": "MAP KEY", "fr": "LÉGENDE DU PLAN", "de": "PLANLEGENDE"},
    "rank-board": {"en": "Kit ruling: each role has its own rank.", "fr": "Règle du kit : chaque rôle a son propre rang.",
                   "de": "Kit-Regel: Jede Rolle hat ihren eigenen Rang."},
    "maps": {"en": "KIT DIFFICULTY", "fr": "DIFFICULTÉ (KIT)", "de": "KIT-SCHWIERIGKEIT"},
    "figures": {"en": "DISPATCH", "fr": "RÉPARTITEUR", "de": "EINSATZLEITUNG"},
}
# the pieces' English words for the game's terms, which the French and German pieces must not print
ENGLISH_TERMS = re.compile(r"\b(Runner|RUNNER|Dispatch\w*|DISPATCH|stash\w*|safe-house|backup|BACKUP|LOUD|SILENT|"
                           r"RANK|rank|Hit|HIT|Scan|Illuminate|Smoke Bomb|Hook|Crowbar|the|your)\b")


@pytest.mark.parametrize("stem", sorted(PIECES))
def test_every_piece_with_words_prints_once_per_language_in_that_language(run_build, stem):
    for paper in PAPERS:
        for lang, phrase in PIECES[stem].items():
            text = doc_text(run_build / "run" / paper / f"{stem}.{lang}.pdf")
            assert phrase in text, (stem, lang, paper)
            assert not any(other in text for other_lang, other in PIECES[stem].items() if other_lang != lang
                           and other not in phrase), (stem, lang, paper)
            if lang != "en":
                assert ENGLISH_TERMS.findall(text) == [], (stem, lang, paper)
        assert not (run_build / "run" / paper / f"{stem}.pdf").exists()


@pytest.mark.parametrize("lang, words", [
    ("fr", ["Fugitif", "Répartiteur", "planque", "refuge", "renfort", "touche", "Éclairer", "Balayer", "échec"]),
    ("de", ["Flüchtige", "Einsatzleitung", "Versteck", "Unterschlupf", "Verstärkungskarte", "Treffer", "Ausleuchten",
            "Scannen", "Fehlschlag"]),
])
def test_the_screens_use_the_summarys_terms_and_the_summary_no_longer_names_english_pieces(run_build, lang, words):
    screens = doc_text(run_build / "run" / "a4" / f"screen-runner.{lang}.pdf") + " " + \
        doc_text(run_build / "run" / "a4" / f"screen-dispatch.{lang}.pdf")
    summary = doc_text(run_build / "run" / "a4" / f"rules-summary.{lang}.pdf")
    for word in words:
        assert word in screens and word in summary, word
    for english in ("(Runner)", "(Dispatcher)", "(stashes)", "(safe-house)", "(backup cards)", "(Smoke Bomb)",
                    "(Scan row)", "(Hit)", "(Motion Detector)", "(Rangefinder)", "(status tile)"):
        assert english not in summary, english
    guide = " ".join(pages(run_build / "run" / "a4" / f"run-kit.{lang}.pdf")[:2])
    assert "(Runner screen)" not in guide and "(Backup cards)" not in guide


@pytest.mark.parametrize("lang, start, hit", [("en", "START", "HIT"), ("fr", "DÉPART", "TOUCHÉ"), ("de", "START", "TREFFER")])
def test_the_status_tile_sides_are_named_as_in_the_summary_and_the_guide(run_build, lang, start, hit):
    tile = pages(run_build / "run" / "a4" / f"status-tile.{lang}.pdf")
    assert start in tile[0] and hit in tile[1]
    guide = " ".join(pages(run_build / "run" / "a4" / f"run-kit.{lang}.pdf")[:2])
    assert start in guide and hit in guide
