"""Bleed and cut marks as a print shop measures them in the written files: at least 1 mm of printed bleed
round every piece in a gutter, and cut marks at least 3 mm long that a quarter-inch printer margin keeps."""
from __future__ import annotations

import json
from pathlib import Path

import numpy
import pdfplumber
import pymupdf
import pytest

from pdfcheck import PT, boxes, mark_positions

QUARTER_INCH = 6.35
DPI = 300
PX = 25.4 / DPI


def piece_files(out: Path) -> list[Path]:
    """Every file of the build that holds pieces (posters are a print shop's own sheet)."""
    manifest = json.loads((out / "manifest.json").read_text())["files"]
    return [out / f["path"] for f in manifest if f["kind"] != "sheet" and "/poster/" not in f["path"]
            and f["lang"] in (None, "en")]  # other languages print the same sheets


def test_every_piece_page_bleeds_at_least_1_mm(full_build):
    thin = {}
    for path in piece_files(full_build):
        for n, page in enumerate(boxes(path)):
            trim, bleed = page["/TrimBox"], page["/BleedBox"]
            if trim is None or bleed is None or trim == bleed:  # a tile or a diagram: nothing in a gutter
                continue
            least = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
            if least < 1.0 - 1e-3:
                thin[f"{path.relative_to(full_build)} p{n + 1}"] = round(least, 3)
    assert thin == {}


def test_cut_marks_are_3_mm_long_and_clear_a_quarter_inch(full_build):
    # read by MuPDF: every straight stroke in the marks' colour; outside the pieces' area (the TrimBox) it
    # is a cut mark, inside it is the pieces' own art or, on a ganged sheet, the marks between two bands
    found, bad = 0, {}
    for path in piece_files(full_build):
        with pymupdf.open(path) as doc:
            for n, page in enumerate(doc):
                w, h, trim = page.rect.width, page.rect.height, page.trimbox
                for drawing in page.get_drawings():
                    if tuple(round(c, 2) for c in drawing.get("color") or ()) != (0.1, 0.1, 0.1):
                        continue
                    for item in drawing["items"]:
                        if item[0] != "l":
                            continue
                        (x0, y0), (x1, y1) = sorted([(item[1].x, item[1].y), (item[2].x, item[2].y)])
                        y0, y1 = min(y0, y1), max(y0, y1)
                        if abs(x0 - x1) > 0.01 and abs(y0 - y1) > 0.01:
                            continue
                        edge = min(x0, y0, w - x1, h - y1) * PT
                        length = max(x1 - x0, y1 - y0) * PT
                        outside = x1 < trim.x0 or x0 > trim.x1 or y1 < trim.y0 or y0 > trim.y1
                        found += outside
                        if edge < QUARTER_INCH - 1e-3 or (outside and length < 3.0 - 1e-3):
                            bad.setdefault(f"{path.relative_to(full_build)} p{n + 1}", (round(edge, 2), round(length, 2)))
    assert found > 1000 and bad == {}


def _ink(page: pymupdf.Page) -> numpy.ndarray:
    pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    return numpy.frombuffer(pix.samples, numpy.uint8).reshape(pix.height, pix.width) < 200


def _run(line: numpy.ndarray, start: int, step: int) -> float:
    """How far (mm) ink goes on from pixel `start` in direction `step`."""
    i = start
    while 0 <= i + step < len(line) and line[i + step]:
        i += step
    return abs(i - start) * PX


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["draw-deck.en.pdf", "rep-detect-kit.en.pdf"])
def test_card_art_runs_at_least_1_mm_past_every_cut(repdetect_build, paper, name):
    # the Rep-Detect cards are dark to their edges: their printed bleed is seen in the rendered pixels
    path = repdetect_build / "rep-detect" / paper / name
    with pdfplumber.open(str(path)) as pdf, pymupdf.open(path) as doc:
        checked = 0
        for n, page in enumerate(pdf.pages):
            if "Batty" not in (page.extract_text() or "") and name.endswith("kit.en.pdf"):
                continue  # in the kit: the sheet where the Draw Deck's last card meets the Replicants
            xs, ys = mark_positions(page, page.width * PT, page.height * PT)
            if len(xs) < 3 or not ys:
                continue  # a rules page that names a Replicant
            ink = _ink(doc[n])
            mid_y = int((ys[0] + 20) / PX)
            mid_x = int((xs[0] + 20) / PX)
            row, col = ink[mid_y], ink[:, mid_x]
            assert _run(row, int(xs[0] / PX), -1) >= 1.0 - 2 * PX, (n, xs[0])
            assert _run(row, int(xs[-1] / PX), +1) >= 1.0 - 2 * PX, (n, xs[-1])
            assert _run(col, int(ys[0] / PX), -1) >= 1.0 - 2 * PX, (n, ys[0])
            # between two cards the bleeds meet: no white in the gutter
            assert row[int(xs[1] / PX) + 1:int(xs[2] / PX)].all(), (n, xs[1], xs[2])
            checked += 1
            if checked == 2 or name.startswith("draw"):
                break
    assert checked >= 1
