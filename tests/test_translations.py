"""Per-item translations on the fixture game: a localised field prints in each kit language, and a missing or
stray translation is a positioned error naming the item and the language."""
from __future__ import annotations

from pathlib import Path

from conftest import mini_roots
from pdfcheck import text
from printkit.build import Settings, build
from test_errors import line_of, problems, replace

TRANSLATIONS = {
    "fr": 'items:\n  deck:\n    Ada: {text: "Avancez de **deux** cases."}\n    Bob: {text: "Piochez une carte."}\n'
          '    Cy: {text: "Regardez une main."}\n',
    "de": 'items:\n  deck:\n    Ada: {text: "Zieh **zwei** Felder weit."}\n    Bob: {text: "Zieh eine Karte."}\n'
          '    Cy: {text: "Sieh dir eine Hand an."}\n',
}


def localise_deck(content: Path) -> None:
    replace(content / "mini" / "deck.yaml", 'text: {type: text, doc: "game text"}',
            'text: {type: text, localised: true, doc: "game text"}')
    for lang, body in TRANSLATIONS.items():
        (content / "mini" / "i18n" / lang).mkdir(exist_ok=True)
        (content / "mini" / "i18n" / lang / "deck.yaml").write_text(body)


def test_a_localised_field_prints_in_each_language(mini_copy, tmp_path):
    localise_deck(mini_copy)
    out = tmp_path / "out"
    build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",), kits=False, gutterfold=False), ["mini"])
    en, fr, de = (text(out / "mini" / "a4" / f"deck.{lang}.pdf") for lang in ("en", "fr", "de"))
    assert "Draw a card." in en and "Piochez une carte." not in en
    assert "Piochez une carte." in fr and "Regardez une main." in fr and "Draw a card." not in fr
    assert "Zieh eine Karte." in de and "Sieh dir eine Hand an." in de and "Look at a hand." not in de
    assert "Ada" in fr and "Ada" in de  # a field that is not localised prints as written


def test_a_missing_translation_names_the_item_field_and_language(mini_copy):
    localise_deck(mini_copy)
    replace(mini_copy / "mini" / "i18n" / "de" / "deck.yaml", '    Bob: {text: "Zieh eine Karte."}\n', "")
    deck = mini_copy / "mini" / "deck.yaml"
    line = line_of(deck, "title: Bob")
    col = deck.read_text().splitlines()[line - 1].index('"Draw a card."') + 1
    assert problems(mini_copy) == [
        f"content/mini/deck.yaml:{line}:{col}: expected the de text of 'text' for deck item 'Bob' "
        f"(catalog key 'items.deck.Bob.text' in i18n/de), found none"]


def test_a_translation_of_no_item_is_an_error(mini_copy):
    localise_deck(mini_copy)
    replace(mini_copy / "mini" / "i18n" / "fr" / "deck.yaml", "    Cy:", "    Cyd:")
    found = problems(mini_copy)
    assert any(p.startswith("content/mini/i18n/fr/deck.yaml:5:11: expected a translation of a localised field of an "
                            "item, found 'items.deck.Cyd.text'") for p in found), found
    assert any("expected the fr text of 'text' for deck item 'Cy'" in p for p in found), found


BOARD_FR = ('items:\n  board:\n    h1: {name: Maison 1}\n    h2: {name: Maison 2}\n    h3: {name: Maison 3}\n'
            '    h4: {name: Maison 4}\n    a: {name: Alpha-fr}\n    b: {name: Bêta}\n')
BOARD_DE = BOARD_FR.replace("Maison", "Haus").replace("Alpha-fr", "Alpha-de").replace("Bêta", "Beta-de")


def localise_board(content: Path) -> Path:
    board = content / "mini" / "board.yaml"
    replace(board, 'data: {skills: [Speed], box_label: "Box"}',
            'localised: true\ndata: {skills: [{en: Speed, fr: Vitesse, de: Tempo}], box_label: {en: Box, fr: Case, de: Feld}}')
    for lang, body in (("fr", BOARD_FR), ("de", BOARD_DE)):
        (content / "mini" / "i18n" / lang).mkdir(exist_ok=True)
        (content / "mini" / "i18n" / lang / "board.yaml").write_text(body)
    return board


def test_a_localised_board_prints_its_names_and_data_in_each_language(mini_copy, tmp_path):
    localise_board(mini_copy)
    out = tmp_path / "out"
    build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",), kits=False, gutterfold=False, poster=False),
          ["mini"])
    fr = text(out / "mini" / "a4" / "board.fr.pdf")
    de = text(out / "mini" / "a4" / "board.de.pdf")
    en = text(out / "mini" / "a4" / "board.en.pdf")
    assert "ALPHA-FR" in fr.upper() and "BÊTA" in fr.upper() and "ALPHA-DE" in de.upper() and "BETA-DE" in de.upper()
    assert "ALPHA-FR" not in en.upper() and "BETA" in en.upper()


def test_a_board_name_or_a_data_text_missing_in_a_language_is_an_error(mini_copy):
    board = localise_board(mini_copy)
    replace(mini_copy / "mini" / "i18n" / "de" / "board.yaml", "    b: {name: Beta-de}\n", "")
    replace(board, "box_label: {en: Box, fr: Case, de: Feld}", "box_label: {en: Box, fr: Case}")
    found = problems(mini_copy)
    line = line_of(board, "id: b,")
    col = board.read_text().splitlines()[line - 1].index("Beta") + 1
    assert (f"content/mini/board.yaml:{line}:{col}: expected the de text of 'name' for board 'b' "
            f"(catalog key 'items.board.b.name' in i18n/de), found none") in found
    data = line_of(board, "box_label: {en: Box, fr: Case}")
    assert any(p.startswith(f"content/mini/board.yaml:{data}:") and
               p.endswith("expected text in every language (en, fr, de), found de missing") for p in found), found
