"""Blake's 7 for Dvorak, end to end: two decks with their own backs, the play mat and the rules, all per
language, measured in the PDFs; a broken count gives the exact error."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import fitz
import pdfplumber
import pytest
import yaml

from pdfcheck import blank_border_mm, fonts, is_paper, page_sizes_mm, piece_texts, registered_pieces, text
from printkit.build import Settings, build
from printkit.content.i18n import typography
from printkit.content.paths import Roots
from test_chase import rule_line
from conftest import game_copy
from test_errors import problems, replace
from test_replicants import manifest

ROOT = Path(__file__).resolve().parents[1]
GAME = "blakes7-dvorak"
LANGS = ("en", "fr", "de")
POKER = (63.5, 88.9)
BLEED = 3.175  # templates paint their background 1/8 in past the trim
DECKS = ("blake-deck", "federation-deck")


def deck_size(stem: str) -> int:
    cards = yaml.safe_load((ROOT / "content" / GAME / f"{stem}.yaml").read_text())["cards"]
    return sum(card.get("qty", 1) for card in cards)


def catalog(lang: str) -> dict:
    """The card catalog of a language (i18n/<lang>/cards.yaml): the frame's words and, but in English, the items."""
    return yaml.safe_load((ROOT / "content" / GAME / "i18n" / lang / "cards.yaml").read_text())


def card_titles(stem: str, lang: str = "en") -> list[str]:
    """The deck's titles as printed in `lang` (the English title where the catalog keeps a proper name)."""
    titles = [c["title"] for c in yaml.safe_load((ROOT / "content" / GAME / f"{stem}.yaml").read_text())["cards"]]
    if lang == "en":
        return titles
    items = catalog(lang)["items"][stem]
    return [typography(items[t]["title"], lang) for t in titles]  # as printed: "Traître !"


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
        for lang in LANGS:
            for stem in DECKS:  # the cards are printed once per language
                entry = files[f"{GAME}/{paper}/{stem}.{lang}.pdf"]
                assert entry["lang"] == lang and entry["items"] == deck_size(stem)
                assert 50 <= entry["items"] <= 80
            assert files[f"{GAME}/{paper}/play-mat.{lang}.pdf"]["lang"] == lang
            assert files[f"{GAME}/{paper}/rules.{lang}.pdf"]["lang"] == lang
            kit = dvorak_build / GAME / paper / f"{GAME}-kit.{lang}.pdf"
            assert all(is_paper(size, paper) for size in page_sizes_mm(kit))
            assert all(embedded for _, embedded in fonts(kit))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("stem", DECKS)
def test_cards_are_poker_size_and_backs_register(dvorak_build, paper, stem, lang):
    path = dvorak_build / GAME / paper / f"{stem}.{lang}.pdf"
    assert registered_pieces(path, POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED, paper) == deck_size(stem)
    assert min(blank_border_mm(path)) >= 5.0 - 0.26


def back_page_png(path: Path) -> bytes:
    with fitz.open(path) as doc:
        return doc[1].get_pixmap(dpi=40).tobytes("png")


@pytest.mark.parametrize("lang, federation_word, player", [
    ("en", "FEDERATION", "PLAYER"), ("fr", "FÉDÉRATION", "JOUEUR"), ("de", "FÖDERATION", "SPIELER")])
def test_the_two_decks_have_different_backs_that_hide_the_card(dvorak_build, lang, federation_word, player):
    folder = dvorak_build / GAME / "a4"
    blake, federation = (back_page_png(folder / f"{stem}.{lang}.pdf") for stem in DECKS)
    assert hashlib.sha256(blake).digest() != hashlib.sha256(federation).digest()
    size = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)
    backs = {}
    for stem in DECKS:
        with pdfplumber.open(str(folder / f"{stem}.{lang}.pdf")) as pdf:
            texts = [t for page in pdf.pages[1::2] for t in piece_texts(page, *size, inset=BLEED)]
        assert len(texts) == deck_size(stem) and len(set(texts)) == 1, stem  # every back alike
        backs[stem] = texts[0]
    assert "BLAKE" in backs["blake-deck"].upper() and federation_word in backs["federation-deck"].upper()
    assert all(player in back for back in backs.values())  # the back's words in the kit's language
    assert backs["blake-deck"] != backs["federation-deck"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_shows_its_title(dvorak_build, lang):
    size = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)
    mark = catalog(lang)["cards"]["special"]
    for stem in DECKS:
        titles = [flat(t) for t in card_titles(stem, lang)]
        with pdfplumber.open(str(dvorak_build / GAME / "a4" / f"{stem}.{lang}.pdf")) as pdf:
            fronts = [flat(t) for page in pdf.pages[0::2] for t in piece_texts(page, *size)]
        assert all(any(f.startswith(title) for f in fronts) for title in titles), (stem, lang)
        special = sorted(t for t in set(titles) if any(f.startswith(t + " ") and mark in f for f in fronts))
        assert special == (["Liberator", "Scorpio", "Xenon Base"] if stem == "blake-deck" else []), (stem, lang)


def test_named_and_special_cards_show_what_the_rules_need(dvorak_build):
    blake = text(dvorak_build / GAME / "a4" / "blake-deck.en.pdf").replace("\n", " ")
    federation = text(dvorak_build / GAME / "a4" / "federation-deck.en.pdf").replace("\n", " ")
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
    for lang in ("fr", "de"):  # each location under its own name in that language, the English one gone
        names = yaml.safe_load((ROOT / "content" / GAME / "i18n" / lang / "mat.yaml").read_text(encoding="utf-8"))
        names = names.get("mat", names)
        mat = text(folder / f"play-mat.{lang}.pdf").lower()
        for key, english in (("deep_space", "Deep Space"), ("orbit", "Planetary Orbit"), ("reserve", "Federation Reserve"),
                             ("kill", "Kill pile"), ("special", "Special pile")):
            assert names[key].lower() in mat and english.lower() not in mat, (lang, key)
    # the assembly page names the mat in the kit's language
    assert "Assemblage du plateau : Tapis de jeu" in text(folder / "play-mat.fr.pdf")
    assert "Spielplan zusammensetzen: Spielmatte" in text(folder / "play-mat.de.pdf")


def test_the_mat_poster_is_printed_once_per_language(dvorak_build):
    files = manifest(dvorak_build)
    posters = {lang: files[f"{GAME}/poster/play-mat-poster.{lang}.pdf"] for lang in LANGS}
    assert all(p["lang"] == lang and p["items"] == 1 for lang, p in posters.items())
    words = {lang: text(dvorak_build / p["path"]).lower() for lang, p in posters.items()}
    assert "deep space" in words["en"] and "espace lointain" in words["fr"] and "tiefer weltraum" in words["de"]
    assert "deep space" not in words["fr"] + words["de"]


def test_rules_sheet_in_each_language(dvorak_build):
    folder = dvorak_build / GAME / "a4"
    # the cards are printed in each kit's language, so the French guide no longer warns of English pieces
    assert "Les pièces sont imprimées en anglais" not in text(folder / f"{GAME}-kit.fr.pdf")
    sheets = {lang: text(folder / f"rules.{lang}.pdf") for lang in LANGS}
    assert all("Liberator" in s and "Xenon Base" in s for s in sheets.values())
    assert "Space Combat" in sheets["en"] and "Combat spatial" in sheets["fr"] and "Raumkampf" in sheets["de"]
    # the sheets no longer give the English card term beside their own: the cards use theirs
    assert "(Space Combat)" not in sheets["fr"] and "(Space Combat)" not in sheets["de"]


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


# ---- the review's part (b) and its issue --------------------------------------------------------------
CARD = (POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED)
TRAITOR_ACTION = ("Move, with all attachments, to any Inner or Outer Planet. "
                  "May make an immediate attack on any crew on that planet.")  # the rulebook, verbatim
MM = 72 / 25.4


def flat(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").replace("\u2019", "'").split())


def squash(s: str) -> str:
    """Text without any whitespace: pdfplumber may drop the space between a bold and a regular word."""
    return "".join(flat(s).split())


def card_texts(build_dir: Path, stem: str, lang: str = "en") -> dict[str, list[str]]:
    """Each card front's text (one line), by the title it starts with (as printed in `lang`), from the A4 deck PDF."""
    titles = sorted({flat(t) for t in card_titles(stem, lang)}, key=len, reverse=True)
    out: dict[str, list[str]] = {}
    with pdfplumber.open(str(build_dir / GAME / "a4" / f"{stem}.{lang}.pdf")) as pdf:
        for page in pdf.pages[0::2]:
            for piece in piece_texts(page, *CARD):
                piece = flat(piece)
                title = next(t for t in titles if piece.startswith(t))
                out.setdefault(title, []).append(piece)
    return out


def test_traitor_gives_the_rulebook_action_on_the_card_and_the_sheet(dvorak_build):
    [traitor] = card_texts(dvorak_build, "federation-deck")["Traitor!"]
    assert squash("Action: " + TRAITOR_ACTION) in squash(traitor)
    sheet = flat(text(dvorak_build / GAME / "a4" / "rules.en.pdf"))
    assert "Action: " + TRAITOR_ACTION in sheet


def test_the_traitor_action_is_the_rulebook_text_or_an_exact_error(dvorak_copy):
    replace(dvorak_copy / GAME / "federation-deck.yaml", f'    grants: "{TRAITOR_ACTION}"',
            '    grants: "Move to an Inner or Outer Planet; you may attack there."')
    game = dvorak_copy / GAME / "game.yaml"
    assert problems(dvorak_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'traitor-action')}:13: expected [{TRAITOR_ACTION}] "
        f"(rule traitor-action), found [Move to an Inner or Outer Planet; you may attack there.]"]


def test_no_card_puts_an_adversary_aboard_an_empty_ship(dvorak_build):
    """Capture: a ship with an Adversary but no Crewmember aboard is destroyed at once, so a card that moves
    Adversaries aboard carries Cancer's condition (else one card destroys Scorpio right after the Liberator falls)."""
    cards = card_texts(dvorak_build, "federation-deck")
    assert all(squash("a Crewmember is aboard") in squash(c) for c in cards["Cancer"] + cards["Boarding Party"])
    assert len(cards["Boarding Party"]) == 2


def test_a_captured_blake_does_not_win_on_the_card_the_sheet_and_the_mat(dvorak_build):
    [blake] = card_texts(dvorak_build, "blake-deck")["Blake"]
    assert squash("While Blake is Captured, he does not count for your victory.") in squash(blake)
    expected = {"en": ("This kit's card conventions", "while Blake is Captured, he does not count for the Blake's 7 Player's victory"),
                "fr": ("Conventions des cartes de ce kit", "tant que Blake est capturé, il ne compte pas pour la victoire"),
                "de": ("Kartenkonventionen dieses Sets", "Solange Blake gefangen ist, zählt er nicht für den Sieg")}
    for lang, (heading, ruling) in expected.items():
        for paper in ("a4", "letter"):
            sheet = flat(text(dvorak_build / GAME / paper / f"rules.{lang}.pdf"))
            assert sheet.index(heading) < sheet.index(ruling), (lang, paper)
    mat = {lang: flat(text(dvorak_build / GAME / "poster" / f"play-mat-poster.{lang}.pdf")) for lang in LANGS}
    assert "Blake (uncaptured)" in mat["en"] and "Blake (non capturé)" in mat["fr"] and "Blake (nicht gefangen)" in mat["de"]


def flavoured(stem: str) -> int:
    cards = yaml.safe_load((ROOT / "content" / GAME / f"{stem}.yaml").read_text())["cards"]
    return sum(c.get("qty", 1) for c in cards if c.get("flavour"))


@pytest.mark.parametrize("lang", LANGS)
def test_invented_lines_are_marked_as_kit_flavour(dvorak_build, lang):
    mark = catalog(lang)["cards"]["flavour_mark"]  # KIT FLAVOUR, AMBIANCE DU KIT, STIMMUNGSTEXT DES SETS
    for stem in DECKS:
        pieces = [p for copies in card_texts(dvorak_build, stem, lang).values() for p in copies]
        marked = [p for p in pieces if mark in p]
        assert len(marked) == flavoured(stem) > 20, stem
        # flavour is not printed as a quote (the cards' texts quote a sentence-like title, never the flavour line)
        assert not any(q in p.rsplit(mark, 1)[1] for p in marked for q in '"\u201c\u201d\u201e\u00ab\u00bb'), stem
    # the rules sheet names the mark the cards print
    assert mark in text(dvorak_build / GAME / "a4" / f"rules.{lang}.pdf")


def test_a_quote_without_its_source_is_an_exact_error(dvorak_copy):
    replace(dvorak_copy / GAME / "blake-deck.yaml", '    flavour: "I trust nobody. It saves time."',
            '    quote: "I trust nobody. It saves time."')
    for lang, line in (("fr", "Je ne fais confiance à personne. On gagne du temps."), ("de", "Ich traue niemandem. Das spart Zeit.")):
        replace(dvorak_copy / GAME / "i18n" / lang / "cards.yaml", f'      flavour: "{line}"', f'      quote: "{line}"')
    game = dvorak_copy / GAME / "game.yaml"
    assert problems(dvorak_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'quotes-sourced')}:13: expected 0 pieces (rule quotes-sourced), found 1"]


def label_rects(page: fitz.Page, label: str) -> list[fitz.Rect]:
    return [fitz.Rect(s["bbox"]) for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
            for s in line["spans"] if s["text"].strip() == label]


def zone_room(page: fitz.Page, label: str) -> tuple[float, float]:
    """The room (w, h in mm) for cards in the mat zone titled `label`: the smallest drawn frame taller than
    a card that holds the title, less the title strip (the smallest drawn shape that holds it)."""
    [where] = label_rects(page, label)
    around = sorted((d["rect"] for d in page.get_drawings() if d["rect"].contains(where)), key=lambda r: r.height)
    strip = around[0]
    zone = next(r for r in around if r.height / MM > POKER[1])
    return zone.width / MM, (zone.height - strip.height) / MM


def title_band_mm(build_dir: Path) -> float:
    """How far below a card's top edge its title ends (mm), the most over both decks: what a card has to show
    of itself under the next one of a column for its title to be read."""
    deepest = 0.0
    for stem, lang in ((stem, lang) for stem in DECKS for lang in LANGS):
        with pdfplumber.open(str(build_dir / GAME / "a4" / f"{stem}.{lang}.pdf")) as pdf:
            for page in pdf.pages[0::2]:
                for r in page.rects:
                    if abs(r["width"] * 25.4 / 72 - CARD[0]) < 0.05 and abs(r["height"] * 25.4 / 72 - CARD[1]) < 0.05:
                        words = page.crop((r["x0"], r["top"], r["x1"], r["bottom"])).extract_words()
                        first = min(w["top"] for w in words)
                        bottom = max(w["bottom"] for w in words if w["top"] - first < 1)
                        deepest = max(deepest, (bottom - r["top"]) * 25.4 / 72 - BLEED)
    return deepest


@pytest.mark.parametrize("lang", LANGS)
def test_the_mat_has_room_for_xenon_base_and_a_dozen_reserve_cards(dvorak_build, lang):
    labels = yaml.safe_load((ROOT / "content" / GAME / "i18n" / lang / "mat.yaml").read_text())["mat"]
    step = title_band_mm(dvorak_build)
    assert 8 < step < 14
    with fitz.open(dvorak_build / GAME / "poster" / f"play-mat-poster.{lang}.pdf") as doc:
        page = doc[0]
        w, h = zone_room(page, labels["reserve"].upper())
        columns = int(w // POKER[0])
        per_column = 1 + int((h - POKER[1]) // step)  # overlapping, every title showing
        assert columns * per_column >= 12, (w, h, step)
        w, h = zone_room(page, labels["xenon"].upper())
        assert w >= POKER[0] and h >= POKER[1], (w, h)


def test_the_reserve_size_is_a_rule(dvorak_copy):
    replace(dvorak_copy / GAME / "game.yaml", "  reserve_cards: 12 ", "  reserve_cards: 8 ")
    game = dvorak_copy / GAME / "game.yaml"
    assert problems(dvorak_copy, GAME) == [
        f"content/{GAME}/game.yaml:{rule_line(game, 'reserve-holds-a-dozen')}:13: "
        f"expected reserve_cards = 12 (rule reserve-holds-a-dozen), found 8"]


def test_designed_cards_that_were_weak_now_act(dvorak_build):
    blake, federation = card_texts(dvorak_build, "blake-deck"), card_texts(dvorak_build, "federation-deck")
    [slave] = blake["Slave"]
    assert squash("When discarded to reduce Space Combat Damage, reduces it by 2.") in squash(slave)  # before Scorpio
    troopers = federation["Federation Trooper"]
    assert len(troopers) == 4 and all(squash("Action: Move this Federation Trooper") in squash(t) for t in troopers)
    assert all("already is" not in t for t in troopers)  # no longer the Location rule again
    assert all(squash("You may then start Space Combat.") in squash(t) for t in federation["Pursuit Course"])


def body_lines(build_dir: Path, stem: str, lang: str = "en") -> list[list[tuple[float, str]]]:
    """Per card front, its game text's lines (top, words): the regular-width Barlow text, not titles or flavour."""
    cards = []
    with pdfplumber.open(str(build_dir / GAME / "a4" / f"{stem}.{lang}.pdf")) as pdf:
        for page in pdf.pages[0::2]:
            for r in page.rects:
                if abs(r["width"] * 25.4 / 72 - CARD[0]) < 0.05 and abs(r["height"] * 25.4 / 72 - CARD[1]) < 0.05:
                    words = page.crop((r["x0"], r["top"], r["x1"], r["bottom"])).extract_words(extra_attrs=["fontname"])
                    lines: dict[float, list] = {}
                    for word in words:
                        if "Barlow" in word["fontname"] and "Condensed" not in word["fontname"]:
                            lines.setdefault(round(word["top"], 1), []).append(word)
                    cards.append([(top, " ".join(w["text"] for w in sorted(ws, key=lambda w: w["x0"])))
                                  for top, ws in sorted(lines.items())])
    return cards


@pytest.mark.parametrize("lang", LANGS)
def test_no_card_paragraph_ends_on_a_lone_word(dvorak_build, lang):
    widows = []
    for stem in DECKS:
        for lines in body_lines(dvorak_build, stem, lang):
            pitch = min((b[0] - a[0] for a, b in zip(lines, lines[1:])), default=0)
            for i in range(1, len(lines)):
                same_paragraph = lines[i][0] - lines[i - 1][0] < pitch * 1.3
                ends_paragraph = i == len(lines) - 1 or lines[i + 1][0] - lines[i][0] >= pitch * 1.3
                if same_paragraph and ends_paragraph and len(lines[i][1].split()) == 1:
                    widows.append((stem, lines[i - 1][1], lines[i][1]))
    assert widows == []


def test_running_heads_and_the_german_register(dvorak_build):
    titles = {"en": "Blake's 7 for Dvorak", "fr": "Blake's 7 pour Dvorak", "de": "Blake's 7 für Dvorak"}
    for lang, title in titles.items():
        for paper in ("a4", "letter"):
            kit = flat(text(dvorak_build / GAME / paper / f"{GAME}-kit.{lang}.pdf"))
            assert f"· {title} ·" in kit, (lang, paper)
            if lang != "en":
                assert "Blake's 7 for Dvorak" not in kit, (lang, paper)
    # German: no du/ihr address in the guide page, the mat, the rules or the cards (infinitives, third person)
    with fitz.open(dvorak_build / GAME / "a4" / f"{GAME}-kit.de.pdf") as doc:
        guide = doc[0].get_text()
    german = guide + text(dvorak_build / GAME / "poster" / "play-mat-poster.de.pdf") + text(dvorak_build / GAME / "a4" / "rules.de.pdf")
    german += "".join(text(dvorak_build / GAME / "a4" / f"{stem}.de.pdf") for stem in DECKS)
    assert re.findall(r"\b(du|dein\w*|dich|dir|euch|euer|eure\w*|nehmt|mischt)\b", german, re.I) == []
    assert "verwenden" in flat(guide)


@pytest.mark.parametrize("lang, victory, ruling, column", [
    ("en", "Blake uncaptured (kit ruling", "a kit ruling that adds to the rulebook", "running off the mat toward you"),
    ("fr", "Blake non capturé (règle du kit", "une règle du kit qui s'ajoute aux règles", "quitte à déborder du tapis vers vous"),
    ("de", "Blake nicht gefangen (Set-Regel", "eine Set-Regel, die das Regelheft ergänzt", "bei Bedarf über den Rand zum eigenen Platz hin"),
])
def test_the_captured_blake_ruling_is_marked_as_added_and_crew_columns_may_leave_the_mat(dvorak_build, lang, victory,
                                                                                          ruling, column):
    rules = " ".join(text(dvorak_build / GAME / "a4" / f"rules.{lang}.pdf").split())
    assert victory in rules and ruling in rules
    assert " ".join(text(dvorak_build / GAME / "a4" / f"play-mat.{lang}.pdf").split()).count(column) >= 2


# ---- the cards in the kit's language -------------------------------------------------------------------
FRAME = {  # the card frame's words and the rules' terms, as the French and German cards print them
    "fr": ("CHOSE", "ACTION", "COMBAT RAPPROCHÉ", "COMBAT SPATIAL", "AMBIANCE DU KIT", "SPÉCIALE", "Membre d'équipage principal",
           "Membre d'équipage allié", "Planète centrale", "Vaisseau de poursuite", "Mur de force", "Dégâts", "capturé",
           "Commence en jeu", "Piochez 2 cartes", "votre défausse"),
    "de": ("DING", "AKTION", "NAHKAMPF", "RAUMKAMPF", "STIMMUNGSTEXT DES SETS", "SPEZIAL", "Kern-Crewmitglied",
           "Verbündetes Crewmitglied", "Kernplanet", "Verfolgerschiff", "Kraftfeld", "Schaden", "gefangen",
           "Beginnt im Spiel", "2 Karten ziehen", "Ablagestapel"),
}
ENGLISH = ("THING", "CLOSE COMBAT", "SPACE COMBAT", "KIT FLAVOUR", "SPECIAL", "Crewmember", "Adversary", "Pursuit Ship",
           "Force Wall", "Damage", "Captured", "Starts in play", "Draw 2 cards", "discard pile", "Federation Reserve",
           "Deep Space", "Action:", "PLAYER")


def deck_words(build_dir: Path, lang: str) -> str:
    return " ".join(flat(text(build_dir / GAME / "a4" / f"{stem}.{lang}.pdf")) for stem in DECKS)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_french_and_german_cards_print_their_language(dvorak_build, lang):
    cards = deck_words(dvorak_build, lang)
    missing = [w for w in FRAME[lang] if w not in cards]
    english = [w for w in ENGLISH if w in cards]
    assert missing == [] and english == [], (missing, english)
    # proper names stay as written (game.yaml proper_names), the other titles are translated
    for name in ("Blake", "Avon", "Liberator", "Scorpio", "Xenon Base", "Servalan", "Travis", "Orac", "Cygnus Alpha"):
        assert name in cards, name
    for title in ("Control is Destroyed", "Supreme Commander", "Federation Double Agent", "Traitor!", "Pursuit Ship",
                  "Liberator Handgun", "Emergency Teleport"):
        assert title not in cards, title
    assert {"fr": "Vitesse standard douze", "de": "Standardgeschwindigkeit zwölf"}[lang] in cards


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_cards_use_the_mat_and_rules_terms(dvorak_build, lang):
    """One term per concept: the places the mat names are the ones the cards print."""
    cards = deck_words(dvorak_build, lang).lower()
    mat = yaml.safe_load((ROOT / "content" / GAME / "i18n" / lang / "mat.yaml").read_text())["mat"]
    places = ["reserve", "orbit", "kill", "special"] + (["deep_space"] if lang == "fr" else [])
    assert [mat[k] for k in places if mat[k].lower() not in cards] == []
    if lang == "de":  # "Tiefer Weltraum" on the mat, declined on the cards
        assert mat["deep_space"] == "Tiefer Weltraum" and "im tiefen weltraum" in cards
    rules = flat(text(dvorak_build / GAME / "a4" / f"rules.{lang}.pdf"))
    for key in ("cc", "sc", "flavour_mark"):  # the labels the cards print are the rules' words
        assert catalog(lang)["cards"][key].lower() in rules.lower(), key


@pytest.mark.parametrize("lang, blake, aboard", [
    ("fr", "Tant que Blake est capturé, il ne compte pas pour votre victoire.", "un Membre d'équipage est à bord"),
    ("de", "Solange Blake gefangen ist, zählt er nicht für den Sieg.", "ein Crewmitglied an Bord ist"),
])
def test_translated_cards_keep_the_rulings(dvorak_build, lang, blake, aboard):
    """The rulings the English cards are checked for (Traitor!'s rulebook action, the captured Blake, no Adversary
    aboard an empty ship) hold on the French and German cards too, in the rules sheet's words."""
    [card] = card_texts(dvorak_build, "blake-deck", lang)["Blake"]
    assert squash(blake) in squash(card)
    federation = card_texts(dvorak_build, "federation-deck", lang)
    items = catalog(lang)["items"]["federation-deck"]
    cancer, boarding = (typography(items[t]["title"], lang) for t in ("Cancer", "Boarding Party"))
    assert all(squash(aboard) in squash(c) for c in federation[flat(cancer)] + federation[flat(boarding)])
    [traitor] = federation[flat(typography(items["Traitor!"]["title"], lang))]
    action = flat(typography(catalog(lang)["cards"]["action_mark"] + " " + items["Traitor!"]["grants"], lang))
    assert squash(action) in squash(traitor)
    sheet = flat(text(dvorak_build / GAME / "a4" / f"rules.{lang}.pdf"))
    assert squash(action) in squash(sheet)  # the card gives the Action the rules sheet quotes


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_rules_and_mat_name_the_cards_as_printed(dvorak_build, lang):
    """The French and German sheets and mat name no English card title that the cards no longer print."""
    words = flat(text(dvorak_build / GAME / "a4" / f"rules.{lang}.pdf")) + " " + \
        flat(text(dvorak_build / GAME / "poster" / f"play-mat-poster.{lang}.pdf"))
    stale = []
    for stem in DECKS:
        for english, printed in zip(card_titles(stem), card_titles(stem, lang)):
            if flat(printed) != english and re.search(rf"(?<!\w){re.escape(english)}(?!\w)", words):
                stale.append(english)
    assert stale == []
    assert "Control ist zerstört" in words if lang == "de" else "Control est détruit" in words
    assert ("Verräter" if lang == "de" else "Traître") in words
