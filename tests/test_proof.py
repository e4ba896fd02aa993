"""`printkit proof GAME`: a contact sheet of every distinct piece, labelled with its id and source file:line,
measured in the written PDF with independent readers (pdfplumber, PyMuPDF, pypdf)."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pdfplumber
import pymupdf as fitz
import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from pdfcheck import PT, fonts
from printkit.cli import app
from printkit.starter import new_game

runner = CliRunner()
PAPER_PT = {"a4": (595.276, 841.89), "letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The starter game (a deck from a CSV, tokens, a board, a rules sheet) in a folder of its own."""
    root = tmp_path_factory.mktemp("proof")
    new_game("demo", root)
    return root


def proof(root: Path, *args: str, out: str = "output"):
    """Run `printkit proof` in `root`, as a designer would from their project folder."""
    import os

    here = os.getcwd()
    os.chdir(root)
    try:
        return runner.invoke(app, ["proof", *args, "--out", out])
    finally:
        os.chdir(here)


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of a file where `needle` first occurs."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def expected_labels(root: Path) -> list[tuple[str, str, int]]:
    """(id, source file:line, copies) of every distinct piece of the starter game, read from its files."""
    game = root / "content" / "demo"
    out = []
    with (game / "cards.csv").open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        starts, rows = [], []
        for row in reader:  # a card's place is the line of the file its row starts on
            starts.append(reader.line_num - sum(cell.count("\n") for cell in row))
            rows.append(row)
    for n, row in enumerate(rows[1:], 1):
        out.append((f"deck #{n} · {row[0]}", f"content/demo/cards.csv:{starts[n]}", int(row[3])))
    tokens = game / "tokens.yaml"
    body = tokens.read_text(encoding="utf-8")
    for n, label in enumerate(re.findall(r'\{label: "(\w+)"', body), 1):
        qty = int(re.search(rf'label: "{label}".*qty: (\d+)', body).group(1))
        line = line_of(tokens, 'label: "' + label + '"')
        out.append((f"tokens #{n} · {label}", f"content/demo/tokens.yaml:{line}", qty))
    board = game / "board.yaml"
    out.append(("board · Score track", f"content/demo/board.yaml:{line_of(board, 'template:')}", 1))
    return out


@pytest.fixture(scope="module")
def written(demo: Path) -> Path:
    result = proof(demo, "demo", "--content", "content", "--lang", "en")
    assert result.exit_code == 0, result.output
    return demo / "output" / "demo" / "proof" / "demo-proof.a4.en.pdf"


def test_every_piece_is_labelled_with_its_id_copies_and_source_line(demo, written):
    with pdfplumber.open(str(written)) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    labels = expected_labels(demo)
    for ident, source, copies in labels:
        assert f"{ident} ×{copies}" in text, ident
        assert source in text.split(), source
    # one label per distinct piece, and the copies add up to what the content prints
    assert len(re.findall(r"×\d+", text)) == len(labels) + 1  # and the deck's shared back, once
    assert "deck back ×12" in text and sum(c for i, _, c in labels if i.startswith("deck")) == 12
    assert sum(c for i, _, c in labels if i.startswith("tokens")) == 20
    assert "rules" not in re.findall(r"\((\w+)\)", text)  # a text sheet has no pieces to show


def test_each_piece_is_drawn_reduced_just_above_its_label(demo, written):
    with fitz.open(str(written)) as doc:
        page = doc[0]
        pix = page.get_pixmap(dpi=72)
        for ident, source, _ in expected_labels(demo):
            hits = page.search_for(source)
            assert len(hits) == 1, source
            label = hits[0]
            # ink in the 4 mm above the label's first line (the source is its second), beside its left edge:
            # the piece drawn there; and none in the gap of 1 mm between the piece and its label
            top = label.y0 - 2.9 / PT
            area = fitz.IRect(int(label.x0), int(top - 5 / PT), int(label.x0 + 8 / PT), int(top - 1 / PT))
            ink = sum(1 for y in range(area.y0, area.y1) for x in range(area.x0, area.x1)
                      if min(pix.pixel(x, y)) < 230)
            assert ink > 0.1 * area.width * area.height, (ident, ink, area)
    # the cards' trim frames are half their real width (63.5 mm), one per distinct card and the shared back
    with pdfplumber.open(str(written)) as pdf:
        widths = [round((line["x1"] - line["x0"]) * PT, 2) for line in pdf.pages[0].lines]
    assert widths.count(31.75) == 2 * 6


def test_labels_are_real_text_in_embedded_fonts_on_exact_pages(written):
    assert fonts(written) and all(embedded for _, embedded in fonts(written))
    with pdfplumber.open(str(written)) as pdf:
        for page in pdf.pages:
            assert (round(page.width, 2), round(page.height, 2)) == (round(PAPER_PT["a4"][0], 2), round(PAPER_PT["a4"][1], 2))
            words = page.extract_words(extra_attrs=["size", "fontname"])
            sources = [w for w in words if re.fullmatch(r"content/demo/\S+:\d+", w["text"])]
            assert sources and all(w["size"] >= 6 for w in sources)
            assert all("Barlow" in w["fontname"] for w in sources)
        header = pdf.pages[0].extract_text()
    assert "page 1 of 1" in header and "language en" in header


def test_proof_is_deterministic_and_leaves_the_manifest_alone(demo, written):
    again = proof(demo, "demo", "--content", "content", "--lang", "en", out="again")
    assert again.exit_code == 0, again.output
    assert (demo / "again" / "demo" / "proof" / "demo-proof.a4.en.pdf").read_bytes() == written.read_bytes()
    assert not (demo / "again" / "manifest.json").exists()


def test_letter_and_a_board_larger_than_the_page_scaled_to_fit(tmp_path):
    content = FIXTURES / "content"
    result = proof(tmp_path, "mini", "--content", str(content), "--templates", str(FIXTURES / "templates"),
                   "--paper", "LETTER", "--lang", "FR", "--scale", "100")
    assert result.exit_code == 0, result.output
    path = tmp_path / "output" / "mini" / "proof" / "mini-proof.letter.fr.pdf"
    with pdfplumber.open(str(path)) as pdf:
        assert all((p.width, p.height) == PAPER_PT["letter"] for p in pdf.pages)
        text = "\n".join(p.extract_text() for p in pdf.pages)
        shown = dict(re.findall(r"mini/(\w+(?:-\w+)?)\.yaml · [\w-]+ · .* à (\d+) %", text))  # in French: --lang FR
        total = len(pdf.pages)
        longest = max((line["x1"] - line["x0"]) * PT for p in pdf.pages for line in p.lines
                      if line["top"] * PT > 25)  # below the header's rule: the pieces' trim frames
    # the board is 300 mm wide: shrunk to the page's width within its margins, and no further
    assert shown["board"] != "100" and 0.9 * (215.9 - 24) < longest <= 215.9 - 24 + 0.01
    assert shown["deck"] == "100"
    assert f"page {total} sur {total}" in text  # the proof speaks the language asked for
    assert "non montré (pas de pièces ; voir le kit) : sheet" in text.replace("\u00a0", " ")  # a text sheet, named


def test_bad_content_exits_2_at_its_position_and_writes_nothing(tmp_path):
    new_game("demo", tmp_path)
    tokens = tmp_path / "content" / "demo" / "tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace('"#c62828"', '"red"'), encoding="utf-8")
    result = proof(tmp_path, "demo", "--content", "content")
    assert result.exit_code == 2
    line = line_of(tokens, '"red"')
    assert re.search(rf"^content/demo/tokens\.yaml:{line}:\d+: expected a colour #rrggbb, found 'red'$",
                     result.output, re.M), result.output
    assert not (tmp_path / "output").exists()
    assert proof(tmp_path, "dmeo", "--content", "content").exit_code == 2


def test_an_unknown_language_is_refused(demo):
    result = proof(demo, "demo", "--content", "content", "--lang", "xx", out="xx")
    assert result.exit_code == 2 and "expected a language of demo (en, fr), found 'xx'" in result.output
    assert not (demo / "xx" / "demo").exists()


def test_cells_stay_inside_the_page_and_never_overlap():
    from conftest import mini_roots
    from printkit.build import validate
    from printkit.geometry import PAPERS
    from printkit.layout import Options, Sink
    from printkit.proof import SIDE, TOP, layout, sections

    content = validate(mini_roots(), ["mini"])[0]
    for paper in (PAPERS["a4"], PAPERS["letter"]):
        for scale in (0.25, 0.5, 1.0):
            secs = sections(content, "en", scale, paper, Options(), Sink({}))
            pages = layout(secs, paper)
            placed = [(n, p) for n, page in enumerate(pages) for p in page if p.cell is not None]
            assert len(placed) == sum(len(s.cells) for s in secs) == 4 + 2 + 2 + 1 + 1 + 1  # every cell once: a back, 3 cards, …
            boxes = [(n, p.x, p.y, p.x + p.cell.size[0], p.y + p.cell.size[1]) for n, p in placed]
            for n, x0, y0, x1, y1 in boxes:
                assert SIDE - 1e-6 <= x0 and x1 <= paper.width - SIDE + 1e-6, (paper.name, scale, x0, x1)
                assert TOP - 1e-6 <= y0 and y1 <= paper.height - SIDE + 1e-6, (paper.name, scale, y0, y1)
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    apart = a[0] != b[0] or a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
                    assert apart, (paper.name, scale, a, b)
            for page in pages:  # a heading is never the last thing on a page
                assert page[-1].cell is not None


def test_a_text_that_overflows_its_piece_is_a_problem_at_its_cell(tmp_path):
    new_game("demo", tmp_path)
    cards = tmp_path / "content" / "demo" / "cards.csv"
    body = cards.read_text(encoding="utf-8")
    cards.write_text(body.replace("Swap a token with another player.", " ".join(["Swap a token."] * 120)),
                     encoding="utf-8")
    result = proof(tmp_path, "demo", "--content", "content", "--lang", "en")
    assert result.exit_code == 2
    row = next(n for n, line in enumerate(cards.read_text(encoding="utf-8").splitlines(), 1) if line.startswith("Trade,"))
    assert re.search(rf"^content/demo/cards\.csv:{row}:2: expected the text to fit .* \(deck 'Trade', field text\)$",
                     result.output, re.M), result.output
    # drawing starts in a stage folder of the output folder (made, as a build makes it): nothing is left in it
    assert not [p for p in (tmp_path / "output").rglob("*")]


def test_hex_board_pieces_are_labelled_at_their_entry_in_pieces():
    from conftest import mini_roots
    from printkit.build import validate
    from printkit.geometry import PAPERS
    from printkit.layout import Options, Sink
    from printkit.proof import sections

    content = validate(mini_roots(), ["hexmini"])[0]
    tiles = FIXTURES / "content" / "hexmini" / "tiles.yaml"
    secs = {s.stem: s for s in sections(content, "en", 0.5, PAPERS["a4"], Options(), Sink({}))}
    labels = [cell.labels for cell in secs["tiles"].cells]
    assert labels == [("tiles #1 · wedge  ×2", f"content/hexmini/tiles.yaml:{line_of(tiles, '- id: wedge')}"),
                      ("tiles #2 · single  ×1", f"content/hexmini/tiles.yaml:{line_of(tiles, '- id: single')}")]
    assert "guide-sheet" not in secs  # a text sheet has no pieces
