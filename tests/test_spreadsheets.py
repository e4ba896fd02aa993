"""Items from spreadsheets (.csv, .xlsx, .ods): headers mapped to fields, cells typed by the fields,
every problem at `file:row:column` with its header. Each test writes its small files itself."""
from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from conftest import mini_roots
from printkit.content import load_game
from printkit.errors import ContentError

DECK = """kind: deck
title: Mini deck
size: poker
front: front.svg.j2
back: back.svg.j2
fields:
  type: {type: enum, values: [red, blue], doc: "card type"}
  text: {type: text, doc: "game text"}
  power: {type: int, min: 1, max: 6, doc: "power"}
"""
COLUMNS = """cards:
  file: cards.{ext}
  columns: {"Card Name": title, "Colour": type, "Rules text": text, "Power": power, "Copies": qty}
"""
# the mini game's deck: Ada, Bob, Cy x3 (its rules count 5 cards, 2 red ones, named Ada and Bob)
ROWS = [["Card Name", "Colour", "Rules text", "Power", "Copies", "Designer's note"],
        ["Ada", "red", "Move **two** spaces,\nthen stop.", 3, 1, "first card"],
        ["Bob", "red", "Draw a card, then discard one.", 2, None, None],
        ["Cy", "blue", "Look at a hand.", 1, 3, None]]


def write_csv(path: Path, rows: list[list], bom: bool = True) -> None:
    import csv
    import io

    text = io.StringIO()
    csv.writer(text, lineterminator="\r\n").writerows([["" if c is None else c for c in row] for row in rows])
    path.write_bytes((codecs.BOM_UTF8 if bom else b"") + text.getvalue().encode("utf-8"))


def deck_from(content: Path, ext: str, rows: list[list] = ROWS, cards: str = COLUMNS) -> None:
    game = content / "mini"
    (game / "deck.yaml").write_text(DECK + cards.replace("{ext}", ext), encoding="utf-8")
    if ext == "csv":
        write_csv(game / "cards.csv", rows)
    elif ext == "xlsx":
        from openpyxl import Workbook

        book = Workbook()
        book.active.title = "Cards"
        for row in rows:
            book.active.append(row)
        book.save(game / "cards.xlsx")
    else:
        from odf.opendocument import OpenDocumentSpreadsheet
        from odf.table import Table, TableCell, TableRow
        from odf.text import P

        doc = OpenDocumentSpreadsheet()
        table = Table(name="Cards")
        for row in rows:
            tr = TableRow()
            for value in row:
                if value is None:
                    tr.addElement(TableCell())
                elif isinstance(value, int):
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value)))
                    tr.addElement(cell)
                else:
                    cell = TableCell(valuetype="string")
                    for line in value.split("\n"):
                        cell.addElement(P(text=line))
                    tr.addElement(cell)
            table.addElement(tr)
        table.addElement(TableRow(numberrowsrepeated=1048000))  # how spreadsheet programs pad a sheet
        doc.spreadsheet.addElement(table)
        doc.save(str(game / "cards.ods"))


def problems(content: Path) -> list[str]:
    with pytest.raises(ContentError) as exc:
        load_game(mini_roots(content), "mini")
    return [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("ext", ["csv", "xlsx", "ods"])
def test_rows_become_the_items_of_the_deck(mini_copy, ext):
    deck_from(mini_copy, ext)
    comp = load_game(mini_roots(mini_copy), "mini").components["deck"]
    assert [(i.get("title"), i.get("type"), i.get("power"), i.qty) for i in comp.items] == [
        ("Ada", "red", 3, 1), ("Bob", "red", 2, 1), ("Cy", "blue", 1, 3)]
    assert comp.items[0].get("text") == "Move **two** spaces,\nthen stop."  # a multi-line cell with a comma
    assert comp.items[1].get("text") == "Draw a card, then discard one."
    # a CSV row is placed at the line of the file it starts on (Ada's text takes two), a workbook's at its row
    row = 5 if ext == "csv" else 4
    assert str(comp.items[2].value_pos["qty"]) == f"content/mini/cards.{ext}:{row}:5"
    assert str(comp.items[2].pos) == f"content/mini/cards.{ext}:{row}:1"


def test_a_csv_without_columns_names_the_fields_in_its_headers(mini_copy):
    rows = [["title", "type", "text", "power", "qty"], ["Ada", "red", "Go.", "3", ""], ["Bob", "red", "Stop.", "2", ""],
            ["Cy", "blue", "Look.", "1", "3"]]
    deck_from(mini_copy, "csv", rows, cards="cards: cards.{ext}\n")
    write_csv(mini_copy / "mini" / "cards.csv", rows, bom=False)
    comp = load_game(mini_roots(mini_copy), "mini").components["deck"]
    assert [i.get("title") for i in comp.items] == ["Ada", "Bob", "Cy"] and comp.count() == 5


def test_a_bad_cell_is_a_problem_at_its_row_and_column_naming_its_header(mini_copy):
    rows = [list(r) for r in ROWS]
    rows[3][4] = "two"
    rows[2][1] = "green"
    rows[1][0] = None
    rows[2][3] = "9"
    deck_from(mini_copy, "csv", rows)
    lines = (mini_copy / "mini" / "cards.csv").read_text(encoding="utf-8-sig").splitlines()
    bob, cy = (next(n for n, line in enumerate(lines, 1) if line.startswith(name)) for name in ("Bob,", "Cy,"))
    assert (bob, cy) == (4, 5)  # the lines an editor shows: the first card's text takes two
    assert problems(mini_copy) == [
        "content/mini/cards.csv:2:1: expected field 'title' (column 'Card Name'), found nothing",
        f"content/mini/cards.csv:{bob}:2: expected one of 'red', 'blue' for 'Colour' (type), found 'green'",
        f"content/mini/cards.csv:{bob}:4: expected a number in 1..6 for 'Power' (power), found 9",
        f"content/mini/cards.csv:{cy}:5: expected a quantity from 0 (left out) to 1,000 for 'Copies' (qty), found 'two'",
    ]


def test_columns_name_headers_the_sheet_has_and_fields_the_deck_declares(mini_copy):
    cards = ('cards:\n  file: cards.{ext}\n  columns: {"Card name": title, "Colour": type, "Rules text": text,'
             ' "Power": strength, "Copies": qty}\n')
    deck_from(mini_copy, "csv", cards=cards)
    found = problems(mini_copy)
    assert found[0] == ("content/mini/deck.yaml:12:13: expected a header of content/mini/cards.csv ('Card Name', "
                        "'Colour', 'Rules text', 'Power', 'Copies', \"Designer's note\") (did you mean 'Card Name'?), "
                        "found 'Card name'")
    assert found[1].startswith("content/mini/deck.yaml:12:78: expected a declared field (qty, power, text, title, type)")


def test_the_file_stays_in_the_game_folder_and_is_a_spreadsheet(mini_copy, tmp_path):
    write_csv(tmp_path / "outside.csv", ROWS)
    for name in ("../../outside.csv", "deck.yaml", "missing.csv"):
        (mini_copy / "mini" / "deck.yaml").write_text(DECK + f"cards: {{file: '{name}'}}\n", encoding="utf-8")
        assert problems(mini_copy)[0].startswith("content/mini/deck.yaml:10:")
        assert "expected a spreadsheet (.csv, .xlsx, .ods) in content/mini, found" in problems(mini_copy)[0]


def test_broken_csv_and_bad_encodings_are_positioned(mini_copy):
    deck_from(mini_copy, "csv")
    (mini_copy / "mini" / "cards.csv").write_bytes(b"Card Name,Colour\nAda,r\xe9d\n")
    assert problems(mini_copy) == ["content/mini/cards.csv:2:6: expected UTF-8 text, found the byte 0xE9 (save the file as UTF-8)"]
    (mini_copy / "mini" / "cards.csv").write_text('Card Name,Colour\nAda,"red\n', encoding="utf-8")
    assert problems(mini_copy)[0].startswith("content/mini/cards.csv:2:1: expected CSV (a quoted cell closed by its quote)")


def test_a_damaged_workbook_and_a_missing_sheet_are_problems(mini_copy):
    deck_from(mini_copy, "xlsx")
    (mini_copy / "mini" / "cards.xlsx").write_bytes(b"not a zip")
    assert problems(mini_copy) == ["content/mini/cards.xlsx:1:1: expected an .xlsx workbook, found a file that "
                                   "is not one (not a zip file)"]
    deck_from(mini_copy, "ods", cards="cards: {file: cards.{ext}, sheet: Tokens}\n")
    assert problems(mini_copy)[0] == "content/mini/cards.ods:1:1: expected a sheet named 'Tokens' (the file has 'Cards'), found none"


def test_tokens_from_a_sheet_whose_headers_are_field_names(mini_copy):
    discs = mini_copy / "mini" / "discs.yaml"
    yaml = discs.read_text(encoding="utf-8")
    discs.write_text(yaml[: yaml.index("items:")] + "items: discs.csv\n", encoding="utf-8")
    write_csv(mini_copy / "mini" / "discs.csv", [["n", "qty"], [1, 7], [None, None], [" 2 ", 5]])
    comp = load_game(mini_roots(mini_copy), "mini").components["discs"]
    assert [(i.get("n"), i.qty, str(i.pos)) for i in comp.items] == [(1, 7, "content/mini/discs.csv:2:1"),
                                                                      (2, 5, "content/mini/discs.csv:4:1")]
    write_csv(mini_copy / "mini" / "discs.csv", [["n", "Copies"], [1, 7]])
    assert problems(mini_copy) == ["content/mini/discs.csv:1:2: expected a header naming a field (qty, n) or a "
                                   "'columns:' mapping from headers to fields, found 'Copies'"]


def test_a_workbook_that_unpacks_too_large_is_refused_unread(mini_copy):
    import zipfile

    deck_from(mini_copy, "xlsx")
    with zipfile.ZipFile(mini_copy / "mini" / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/bomb.xml", b"\0" * (65 << 20))
    assert problems(mini_copy) == ["content/mini/cards.xlsx:1:1: expected an .xlsx workbook of at most 64 MiB "
                                   "unpacked, found 65 MiB"]


def test_a_csv_saved_with_semicolons_is_read_as_such(mini_copy):
    """Excel saves "CSV" with semicolons where the decimal mark is a comma (most of Europe)."""
    import csv
    import io

    deck_from(mini_copy, "csv")
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=";").writerows([["" if c is None else c for c in row] for row in ROWS])
    (mini_copy / "mini" / "cards.csv").write_text(buffer.getvalue(), encoding="utf-8")
    comp = load_game(mini_roots(mini_copy), "mini").components["deck"]
    assert [(i.get("title"), i.get("text"), i.qty) for i in comp.items] == [
        ("Ada", "Move **two** spaces,\nthen stop.", 1), ("Bob", "Draw a card, then discard one.", 1),
        ("Cy", "Look at a hand.", 3)]


def test_a_row_with_no_copies_is_left_out(mini_copy):
    """0 copies sets a card aside, as in Squib and nanDECK; it is not checked either."""
    rows = [list(r) for r in ROWS]
    rows[2][4] = 0
    rows[2][3] = "unchecked"
    deck_from(mini_copy, "csv", rows)
    comp = load_game(mini_roots(mini_copy), "mini").components["deck"]
    assert [(i.get("title"), i.qty) for i in comp.items] == [("Ada", 1), ("Cy", 3)]


def test_translation_columns_give_a_localised_fields_other_languages(mini_copy, tmp_path):
    """`"Rules text (fr)": text.fr`: a designer keeps every language of a card on its row."""
    from printkit.content import translated

    rows = [r + [f"fr:{r[2]}" if n else "Texte", f"de:{r[2]}" if n else "Text"] for n, r in enumerate(ROWS)]
    rows[3][-1] = None  # Cy has no German text
    cards = COLUMNS.replace('"Copies": qty}', '"Copies": qty, "Texte": text.fr, "Text": text.de}')
    deck_from(mini_copy, "csv", rows, cards=cards)
    deck = mini_copy / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace('text: {type: text, doc: "game text"}',
                                             'text: {type: text, localised: true, doc: "game text"}'))
    found = problems(mini_copy)
    lines = (mini_copy / "mini" / "cards.csv").read_text(encoding="utf-8-sig").splitlines()
    cy = next(n for n, line in enumerate(lines, 1) if line.startswith("Cy,"))
    assert len(found) == 1 and found[0].startswith(f"content/mini/cards.csv:{cy}:3: expected the de text of 'text' for "
                                                   "deck item 'Cy'"), found
    rows[3][-1] = "de:Sieh dir eine Hand an."
    deck_from(mini_copy, "csv", rows, cards=cards)
    deck.write_text(deck.read_text().replace('text: {type: text, doc: "game text"}',
                                             'text: {type: text, localised: true, doc: "game text"}'))
    content = load_game(mini_roots(mini_copy), "mini")
    bob = content.components["deck"].items[1]
    assert translated(content, bob, bob.values, "fr")["text"] == "fr:Draw a card, then discard one."
    assert translated(content, bob, bob.values, "en")["text"] == "Draw a card, then discard one."
