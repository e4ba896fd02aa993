"""Tokens: outlines at their exact size, backs registered to fronts, no margin marks for outlined shapes."""
from __future__ import annotations

import json

import pdfplumber
import pytest

from pdfcheck import PAPERS_MM, PT, blank_border_mm, mark_positions


def outlines(page, w: float, h: float, tol: float = 0.1) -> list[tuple[float, float]]:
    """Centres of the drawn paths (curves) whose box is w x h mm: the cut outlines."""
    found = []
    for curve in page.curves:
        cw, ch = (curve["x1"] - curve["x0"]) * PT, (curve["bottom"] - curve["top"]) * PT
        if abs(cw - w) <= tol and abs(ch - h) <= tol and curve.get("stroke"):
            found.append(((curve["x0"] + curve["x1"]) / 2 * PT, (curve["top"] + curve["bottom"]) / 2 * PT))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_round_tokens_have_exact_outlines_and_registered_backs(mini_build, paper):
    path = mini_build / "mini" / paper / "discs.pdf"
    with pdfplumber.open(str(path)) as pdf:
        fronts, backs = outlines(pdf.pages[0], 20, 20), outlines(pdf.pages[1], 20, 20)
        assert mark_positions(pdf.pages[0], *PAPERS_MM[paper]) == ([], [])
    assert len(fronts) == len(backs) == 12
    width = PAPERS_MM[paper][0]
    for bx, by in backs:
        assert min(((bx - (width - fx)) ** 2 + (by - fy) ** 2) ** 0.5 for fx, fy in fronts) <= 0.2
    assert min(blank_border_mm(path)) >= 5.0 - 0.26


def test_hexagonal_tokens_are_outlined_one_sided(mini_build):
    path = mini_build / "mini" / "a4" / "hexes.pdf"
    with pdfplumber.open(str(path)) as pdf:
        assert len(pdf.pages) == 1
        assert len(outlines(pdf.pages[0], 30, 26)) == 4


def test_manifest_counts_tokens(mini_build):
    files = {f["path"]: f for f in json.loads((mini_build / "manifest.json").read_text())["files"]}
    assert files["mini/a4/discs.pdf"]["items"] == 12 and files["mini/a4/discs.pdf"]["kind"] == "tokens"
    assert files["mini/a4/hexes.pdf"]["items"] == 4
    assert "mini/a4/discs-gutterfold.pdf" in files and "mini/a4/hexes-gutterfold.pdf" not in files


def test_a_board_that_fits_a_sheet_is_one_double_sided_piece_without_poster(mini_build):
    from pdfcheck import piece_rects

    files = {f["path"]: f for f in json.loads((mini_build / "manifest.json").read_text())["files"]}
    board = files["mini/letter/player-board.pdf"]
    assert (board["kind"], board["items"], board["pages"]) == ("board", 1, 2)
    assert not any("player-board-poster" in p for p in files)
    assert "mini/poster/board-poster.pdf" in files  # the 300 x 200 mm graph board does not fit a sheet
    size = (180 + 6.35, 120 + 6.35)  # the template paints 1/8 in past the trim
    width = PAPERS_MM["letter"][0]
    with pdfplumber.open(str(mini_build / "mini" / "letter" / "player-board.pdf")) as pdf:
        (fx, fy), = piece_rects(pdf.pages[0], *size)
        (bx, by), = piece_rects(pdf.pages[1], *size)
    assert abs(bx - (width - fx)) <= 0.2 and abs(by - fy) <= 0.2


def test_the_gutterfold_copy_of_round_tokens_puts_each_back_opposite_its_front(mini_build):
    path = mini_build / "mini" / "a4" / "discs-gutterfold.pdf"
    with pdfplumber.open(str(path)) as pdf:
        circles = [c for page in pdf.pages for c in outlines(page, 20, 20)]
        width = pdf.pages[0].width * PT
        folds = [line for line in pdf.pages[0].lines if abs(line["x0"] - line["x1"]) < 0.01
                 and abs(line["x0"] * PT - width / 2) < 0.5]
    assert len(circles) == 24  # 12 fronts and their 12 backs, on one side of the paper
    assert folds  # the dashed fold line down the middle
    left = sorted((x, y) for x, y in circles if x < width / 2)
    right = sorted((width - x, y) for x, y in circles if x > width / 2)
    assert len(left) == len(right) == 12
    assert all(abs(a[0] - b[0]) <= 0.2 and abs(a[1] - b[1]) <= 0.2 for a, b in zip(left, right))


def test_a_standee_is_written_as_svgwrite_wrote_it():
    """Standees were drawn with svgwrite; written with ElementTree now (no ~40 ms import), byte for byte the same:
    attributes sorted, numbers as str() writes them, the face nested twice (once upside down)."""
    from printkit.draw.pieces import standee_svg

    face = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="2" height="3"/></svg>'
    nested = '<ns0:rect width="2" height="3" /></svg>'
    line = '<line stroke="#000000" stroke-dasharray="1.2 0.8" stroke-width="0.2" x1="0" x2="20" y1="{0}" y2="{0}" />'
    assert standee_svg(face, 20, 30.5, 8.0, "#c62828") == (
        '<svg xmlns:ns0="http://www.w3.org/2000/svg" baseProfile="full" height="77mm" version="1.1" viewBox="0 0 20 77" '
        'width="20mm" xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" '
        'xmlns:xlink="http://www.w3.org/1999/xlink"><defs /><rect fill="#c62828" height="83.0" width="26" x="-3" y="-3" />'
        '<rect fill="#ffffff" fill-opacity="0.55" height="8.0" width="20" x="0" y="0" />'
        '<rect fill="#ffffff" fill-opacity="0.55" height="8.0" width="20" x="0" y="69.0" />'
        f'<g transform="rotate(180 10 23.25)"><svg x="0" y="8" width="20" height="30.5" viewBox="0 0 20 30.5">{nested}</g>'
        f'<svg x="0" y="38.5" width="20" height="30.5" viewBox="0 0 20 30.5">{nested}'
        + "".join(line.format(y) for y in ("8.0", "38.5", "69.0")) + "</svg>")
