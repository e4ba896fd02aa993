"""Ganged sheets: pieces of several components share a kit's sheets by stock and sidedness, and the
guide gives the print jobs by stock. Packing numbers checked by hand; kits measured in the written PDFs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
import pytest
import yaml

from printkit.geometry import EDGE, PAPERS
from printkit.layout.kit import gang

BACKS = re.compile("\u00b7\\s+(back|verso|R\u00fcckseite)\\s+\u00b7")  # the footer of a page of backs
BLANK = ("Intentionally blank", "Page laissée blanche", "Absichtlich leer")  # the back of a plain-paper page
POKER = (63.5, 88.9)
GAMES = ("rep-detect", "run", "bladerunner-chase", "replicants", "blakes7-dvorak")


def test_cards_of_one_size_from_several_decks_fill_the_same_grid():
    # 55 + 5 + 2 poker cards, 9 a sheet on A4: 7 sheets, not 7 + 1 + 1
    sheets = gang([POKER] * 62, PAPERS["a4"])
    assert len(sheets) == 7
    assert [sum(len(b.pieces) for b in s.bands) for s in sheets] == [9] * 6 + [8]


def test_small_pieces_of_different_sizes_share_one_sheet_in_bands():
    sizes = [(24, 36)] * 4 + [(18, 18)] * 5 + [(9, 9)] * 12
    (sheet,) = gang(sizes, PAPERS["a4"])
    assert [b.size for b in sheet.bands] == [(24, 36), (18, 18), (9, 9)]
    # bands stack without overlapping, inside the quarter inch and above the ruler band
    top = EDGE
    for band in sheet.bands:
        assert band.top >= top - 1e-9 and band.x.bleed >= 1.0
        top = band.top + band.height
    assert top <= sheet.bottom + 1e-9
    placed = sorted(i for b in sheet.bands for i in b.pieces)
    assert placed == list(range(len(sizes)))


def test_a_piece_larger_than_the_paper_is_an_error_not_a_loop():
    with pytest.raises(ValueError):
        gang([(400, 400)], PAPERS["a4"])


def sheets(path: Path) -> int:
    """Sheets a file prints on, with every page of backs on the back of its front page (and a blank page, the
    back of a plain-paper page, on the back of that page)."""
    with pymupdf.open(path) as doc:
        return sum(1 for page in doc if not BACKS.search(page.get_text()) and not any(b in page.get_text() for b in BLANK))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_kit_takes_fewer_sheets_than_its_parts_printed_alone(full_build, game, paper):
    manifest = json.loads((full_build / "manifest.json").read_text())["files"]
    mine = [f for f in manifest if f["game"] == game and f["paper"] == paper and f["lang"] in (None, "en")
            and "-gutterfold" not in f["path"]]
    kit = next(full_build / f["path"] for f in mine if f["component"] == "kit")
    parts = sum(sheets(full_build / f["path"]) for f in mine if f["component"] != "kit")
    with pymupdf.open(kit) as doc:
        guide = sum(1 for page in doc if re.search(r"·\s+Print-and-play guide\s+·", page.get_text())
                    and not any(b in page.get_text() for b in BLANK))
        text = "".join(page.get_text() for page in doc)
    saved = re.search(r"Sheets saved: (\d+)", text)
    ganged = sheets(kit) - guide
    if game == "blakes7-dvorak":  # two decks of one size and a tiled mat: nothing small to gang
        assert ganged <= parts and not saved
    else:
        assert ganged < parts and saved and int(saved.group(1)) == parts - ganged, (ganged, parts)


def test_the_draw_decks_last_card_shares_its_sheet_with_the_replicants(repdetect_build):
    deck = yaml.safe_load((Path(__file__).resolve().parents[1] / "content/rep-detect/draw-deck.yaml").read_text())
    titles = [item["title"] for item in deck["cards"]]
    with pymupdf.open(repdetect_build / "rep-detect" / "a4" / "rep-detect-kit.en.pdf") as doc:
        page = next(p for p in doc if "Batty" in p.get_text() and "Leon" in p.get_text() and "sheet" in p.get_text())
        text = page.get_text()
    assert any(t in text for t in titles) and "Phases of a Turn" in text  # deck, Replicants, reference cards


@pytest.mark.parametrize("lang, words", [("en", ("Card stock, double-sided", "Card stock, one-sided", "Plain paper")),
                                         ("fr", ("Papier cartonné, recto verso", "Papier cartonné, recto seul",
                                                 "Papier ordinaire")),
                                         ("de", ("Karton, beidseitig", "Karton, einseitig", "Normalpapier"))])
@pytest.mark.parametrize("game", GAMES)
def test_the_guide_gives_one_print_job_per_stock_covering_every_page_once(full_build, game, lang, words):
    for paper in ("a4", "letter"):
        with pymupdf.open(full_build / game / paper / f"{game}-kit.{lang}.pdf") as doc:
            guide = " ".join(doc[i].get_text() for i in range(2)).replace("\n", " ")
            total = len(doc)
            blanks = [n + 1 for n, page in enumerate(doc) if any(b in page.get_text() for b in BLANK)]
        pages: list[int] = []
        jobs = []
        for word in words:
            job = re.search(re.escape(word) + r"[^:]*:\s*pages?\s*(\d[\d–]*(?:, \d[\d–]*)*)\s*;",
                            guide.replace("Seiten", "pages"))
            assert job, (game, paper, word)
            listed: list[int] = []
            for part in job.group(1).split(", "):
                first, _, last = part.strip().partition("–")
                listed += range(int(first), int(last or first) + 1)
            pages += listed
            jobs.append(listed)
        assert sorted(pages) == list(range(1, total + 1)), (game, paper, lang)
        # a blank page is only ever the back of a plain-paper page, so each document starts on a sheet
        paper_pages = jobs[2]
        assert all(p in paper_pages and paper_pages.index(p) % 2 == 1 for p in blanks), (game, paper, blanks)
