"""Print quality measured in the written PDFs of the real Rep-Detect build and the fixture game."""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
import yaml

from pdfcheck import (PAPERS_MM, blank_border_mm, boxes, fonts, is_paper, mark_positions, page_sizes_mm,
                      piece_rects, registered_pieces, spans, text)

CONTENT = Path(__file__).resolve().parents[1] / "content" / "rep-detect"
POKER = (63.5, 88.9)
DRAWN_BLEED = 3.175  # card templates paint their background 1/8 in past the trim
LANGS = ("en", "fr", "de")


def pdfs(out: Path) -> list[Path]:
    return sorted(out.rglob("*.pdf"))


def test_every_page_is_exactly_its_paper(repdetect_build):
    manifest = json.loads((repdetect_build / "manifest.json").read_text())
    assert manifest["files"]
    for entry in manifest["files"]:
        sizes = page_sizes_mm(repdetect_build / entry["path"])
        assert len(sizes) == entry["pages"]
        assert all(is_paper(s, entry["paper"]) for s in sizes), (entry["path"], sizes[:2])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_is_printed_within_5_mm_of_the_sheet_edge(repdetect_build, paper):
    for path in (repdetect_build / "rep-detect" / paper).glob("*.pdf"):
        nearest = min(blank_border_mm(path))
        assert nearest >= 5.0 - 0.26, (path.name, nearest)  # one pixel at 100 dpi


@pytest.mark.parametrize("paper, across, down", [("a4", 3, 3), ("letter", 4, 2)])
def test_cut_marks_give_exact_poker_card_sizes(repdetect_build, paper, across, down):
    # 9 poker cards with 1 mm of bleed cannot fit inside a quarter inch on Letter: 4 x 2 on a landscape sheet
    path = repdetect_build / "rep-detect" / paper / "draw-deck.en.pdf"
    w, h = PAPERS_MM[paper]
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        xs, ys = mark_positions(page, w, h)
    widths, heights = spans(xs, POKER[0]), spans(ys, POKER[1])
    assert len(widths) == across and len(heights) == down, (xs, ys)
    assert all(abs(v - POKER[0]) <= 0.1 for v in widths), widths
    assert all(abs(v - POKER[1]) <= 0.1 for v in heights), heights


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_register_with_their_mirrored_fronts(repdetect_build, paper):
    path = repdetect_build / "rep-detect" / paper / "draw-deck.en.pdf"
    assert registered_pieces(path, POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED, paper) == 55


@pytest.mark.parametrize("lang", LANGS)
def test_deck_piece_counts_match_the_rulebook(repdetect_build, lang):
    size = (POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED)
    counts = {}
    for name in ("draw-deck", "replicant-deck", "reference-cards"):
        with pdfplumber.open(str(repdetect_build / "rep-detect" / "a4" / f"{name}.{lang}.pdf")) as pdf:
            counts[name] = sum(len(piece_rects(p, *size)) for p in pdf.pages[0::2])
    assert counts == {"draw-deck": 55, "replicant-deck": 5, "reference-cards": 2}


def test_fonts_are_embedded_and_no_base14_font_is_used(repdetect_build):
    for path in pdfs(repdetect_build):
        used = fonts(path)
        assert used, path
        assert all(embedded for _, embedded in used), (path.name, used)
        assert not any("Helvetica" in name or "Times" in name or "Courier" in name for name, _ in used), used


def test_text_is_searchable_card_titles_and_rules(repdetect_build):
    cards = yaml.safe_load((CONTENT / "draw-deck.yaml").read_text())["cards"]
    found = text(repdetect_build / "rep-detect" / "a4" / "draw-deck.en.pdf")
    for card in cards:
        assert card["title"] in found, card["title"]
    replicants = text(repdetect_build / "rep-detect" / "letter" / "replicant-deck.en.pdf")
    for name in ("Batty", "Leon", "Pris", "Rachael", "Zhora"):
        assert name in replicants


def catalog_items(lang: str) -> dict:
    return yaml.safe_load((CONTENT / "i18n" / lang / "cards.yaml").read_text(encoding="utf-8"))["items"]


def flat(words: str) -> str:
    """Extracted text on one line, with the typography's narrow spaces and quotes made plain."""
    for fancy, plain in (("\u202f", " "), ("\u00a0", " "), ("\u00ab ", '"'), (" \u00bb", '"'),
                         ("\u201e", '"'), ("\u201c", '"'), ("\u2013", "-"), ("\u2212", "-")):
        words = words.replace(fancy, plain)
    return " ".join(words.split())


@pytest.mark.parametrize("lang, type_words, not_english", [
    ("fr", ("INDICE", "EMBROUILLE", "AIDE", "SUSPECT", "DISSIMULATION"), "Enhance. Stop."),
    ("de", ("HINWEIS", "ÄRGERNIS", "HILFE", "VERDÄCHTIGER", "TARNUNG"), "Enhance. Stop."),
])
def test_french_and_german_cards_carry_their_own_titles_texts_and_quotes(repdetect_build, lang, type_words, not_english):
    items = catalog_items(lang)
    deck = flat(text(repdetect_build / "rep-detect" / "a4" / f"draw-deck.{lang}.pdf"))
    english = yaml.safe_load((CONTENT / "draw-deck.yaml").read_text())["cards"]
    assert len(items["draw-deck"]) == len({c["title"] for c in english})
    for title, card in items["draw-deck"].items():
        assert card["title"] in deck, (lang, card["title"])
        assert " ".join(card["quote"].split()) in deck, (lang, card["quote"])
        if "{" not in card["text"]:
            assert card["text"] in deck, (lang, card["text"])
    for word in type_words:
        assert word in deck, word
    assert not_english not in deck and "Investigation at" not in deck
    replicants = flat(text(repdetect_build / "rep-detect" / "a4" / f"replicant-deck.{lang}.pdf"))
    for name, card in items["replicant-deck"].items():
        assert name in replicants and card["text"] in replicants, (lang, name)
    reference = flat(text(repdetect_build / "rep-detect" / "a4" / f"reference-cards.{lang}.pdf"))
    for card in items["reference-cards"].values():
        assert card["title"] in reference and card["back_title"] in reference
    assert "Phases of a Turn" not in reference and "Becoming a Sympathizer" not in reference
    counters = text(repdetect_build / "rep-detect" / "a4" / f"counters.{lang}.pdf")
    assert all(c["name"].upper() in counters for c in items["counters"].values())
    assert "RED" not in counters and "YELLOW" not in counters


def test_page_boxes_are_set_and_nested(repdetect_build):
    for page in boxes(repdetect_build / "rep-detect" / "a4" / "draw-deck.en.pdf"):
        media, trim, bleed = page["/MediaBox"], page["/TrimBox"], page["/BleedBox"]
        assert trim and bleed
        assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
        assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3]
        # one to three poker cards across, with gutters of at most 3 mm
        assert POKER[0] - 0.01 <= trim[2] - trim[0] <= 3 * POKER[0] + 2 * 3.0 + 0.01


@pytest.mark.parametrize("lang", LANGS)
def test_text_stays_in_each_cards_safe_zone(repdetect_build, lang):
    size = (POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED)
    safe = 3.0
    with pdfplumber.open(str(repdetect_build / "rep-detect" / "a4" / f"draw-deck.{lang}.pdf")) as pdf:
        for page in pdf.pages:
            cards = piece_rects(page, *size)
            for ch in page.chars:
                x0, x1 = ch["x0"] * 25.4 / 72, ch["x1"] * 25.4 / 72
                top, bottom = ch["top"] * 25.4 / 72, ch["bottom"] * 25.4 / 72
                cx, cy = (x0 + x1) / 2, (top + bottom) / 2
                for mx, my in cards:
                    if abs(cx - mx) < POKER[0] / 2 and abs(cy - my) < POKER[1] / 2:
                        assert mx - POKER[0] / 2 + safe - 0.3 <= x0 and x1 <= mx + POKER[0] / 2 - safe + 0.3, ch["text"]
                        assert my - POKER[1] / 2 + safe - 0.5 <= top and bottom <= my + POKER[1] / 2 - safe + 0.5, ch["text"]


def test_ruler_and_footer_on_every_sheet(repdetect_build):
    import pymupdf as fitz

    for paper in ("a4", "letter"):
        for path in (repdetect_build / "rep-detect" / paper).glob("*.pdf"):
            with fitz.open(str(path)) as doc:
                for page in doc:
                    words = page.get_text()
                    assert "100 mm" in words and "4 in" in words and "100 %" in words, (path.name, page.number)


def test_kit_starts_with_the_print_guide_in_its_language(repdetect_build):
    first = {lang: text(repdetect_build / "rep-detect" / "a4" / f"rep-detect-kit.{lang}.pdf").split("\n")[:60]
             for lang in ("en", "fr", "de")}
    assert any("Print-and-play guide" in line for line in first["en"])
    assert any("100 %" in line for line in first["en"])
    assert not any("Print-and-play guide" in line for line in first["fr"])
    assert not any("Print-and-play guide" in line for line in first["de"])


def test_print_dialog_presets(repdetect_build):
    from pypdf import PdfReader

    reader = PdfReader(str(repdetect_build / "rep-detect" / "a4" / "draw-deck.en.pdf"))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_rules_summary_in_three_languages_uses_locale_numbers_and_typography(repdetect_build):
    en = text(repdetect_build / "rep-detect" / "a4" / "rules-summary.en.pdf")
    fr = text(repdetect_build / "rep-detect" / "a4" / "rules-summary.fr.pdf")
    de = text(repdetect_build / "rep-detect" / "a4" / "rules-summary.de.pdf")
    assert len({en, fr, de}) == 3  # three different texts, en and de included
    assert "Rules summary" in en and "Résumé des règles" in fr and "Regelübersicht" in de
    assert "Blade Runner : Rep-Detect" in fr and "Blade Runner: Rep-Detect" in en
    # the space before French high punctuation is non-breaking: no line ever starts with it
    with pdfplumber.open(str(repdetect_build / "rep-detect" / "a4" / "rules-summary.fr.pdf")) as pdf:
        lines = [line for page in pdf.pages for line in (page.extract_text() or "").split("\n")]
    assert lines and not [line for line in lines if line[:1] in ":;!?"]
    assert any(" :" in line for line in lines)


@pytest.mark.parametrize("lang", LANGS)
def test_poster_is_one_standard_page_with_the_board_as_trim(repdetect_build, lang):
    path = repdetect_build / "rep-detect" / "poster" / f"board-poster.{lang}.pdf"
    sizes = page_sizes_mm(path)
    # a 560 x 400 mm board with 25 mm for marks all round needs A1 (A2 is 594 x 420)
    assert len(sizes) == 1 and is_paper(sizes[0], "a1")
    assert min(blank_border_mm(path, dpi=30)) >= 5.0 - 0.9
    trim = boxes(path)[0]["/TrimBox"]
    assert abs((trim[2] - trim[0]) - 560) <= 0.1 and abs((trim[3] - trim[1]) - 400) <= 0.1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_tiles_cover_the_board_with_overlap(repdetect_build, paper):
    path = repdetect_build / "rep-detect" / paper / "board.en.pdf"
    trims = [b["/TrimBox"] for b in boxes(path)[1:]]  # page 1 is the assembly diagram
    widths = [t[2] - t[0] for t in trims]
    assert len(trims) >= 4
    words = text(path)
    assert "A1" in words and "B2" in words
    # the tiles' widths in one row, less the overlaps, add up to the board width
    row_a = [w for w, t in zip(widths, trims)][: len(trims) // 2]
    assert abs(sum(row_a) - 12.0 * (len(row_a) - 1) - 560) <= 0.1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_kit_puts_every_card_front_on_an_odd_page_and_its_back_on_the_next(repdetect_build, paper):
    import pymupdf as fitz

    size = (POKER[0] + 2 * DRAWN_BLEED, POKER[1] + 2 * DRAWN_BLEED)
    path = repdetect_build / "rep-detect" / paper / "rep-detect-kit.en.pdf"
    with fitz.open(str(path)) as doc:
        texts = [page.get_text().replace("\u2019", "'") for page in doc]
    with pdfplumber.open(str(path)) as pdf:
        counts = [len(piece_rects(page, *size)) for page in pdf.pages]
    card_pages = [i + 1 for i, n in enumerate(counts) if n]
    backs = [p for p in card_pages if any(k in texts[p - 1] for k in ("REP-DETECT", "REPLICANTS SPACE", "Becoming a Sympathizer"))]
    fronts = [p for p in card_pages if p not in backs]
    assert fronts and len(fronts) == len(backs)
    assert all(p % 2 == 1 for p in fronts), fronts
    assert [p + 1 for p in fronts] == backs
    assert sum(counts[p - 1] for p in fronts) == 62  # 55 + 5 + 2 double-sided pieces


def test_gutterfold_files_ship_for_every_double_sided_part(repdetect_build):
    manifest = json.loads((repdetect_build / "manifest.json").read_text())
    folds = sorted(f["path"] for f in manifest["files"] if "-gutterfold." in f["path"])
    assert folds == sorted(f"rep-detect/{p}/{c}-gutterfold.{lang}.pdf" for p in ("a4", "letter")
                           for c in ("draw-deck", "replicant-deck", "reference-cards") for lang in LANGS)


def ink(path, page: int) -> float:
    """Mean darkness (0 white .. 1 black) of a rendered page: the ink a printer lays down."""
    import numpy as np
    import pymupdf

    with pymupdf.open(str(path)) as doc:
        pix = doc[page].get_pixmap(dpi=30, colorspace=pymupdf.csGRAY)
    return 1 - float(np.frombuffer(pix.samples, dtype=np.uint8).mean()) / 255


def test_ink_saver_cuts_the_ink_of_backs_and_board(repdetect_build, tmp_path):
    from printkit.build import Settings, build
    from printkit.content.paths import Roots

    out = tmp_path / "ink"
    build(Settings(roots=Roots.default(), out=out, papers=("a4",), langs=("en",), theme="ink-saver", kits=False,
                   poster=False, gutterfold=False), ["rep-detect"])
    standard, light = repdetect_build / "rep-detect" / "a4", out / "rep-detect" / "a4"
    assert ink(light / "draw-deck.en.pdf", 1) < ink(standard / "draw-deck.en.pdf", 1) / 3  # the card backs
    assert ink(light / "board.en.pdf", 1) < ink(standard / "board.en.pdf", 1) / 3  # a board tile
    assert ink(light / "draw-deck.en.pdf", 0) < ink(standard / "draw-deck.en.pdf", 0)


def test_kits_in_another_language_no_longer_say_the_pieces_are_english(repdetect_build):
    """Every piece with words now prints in the kit's language, so no kit warns that pieces are English."""
    from pdfcheck import text as pdf_text

    fr = pdf_text(repdetect_build / "rep-detect" / "a4" / "rep-detect-kit.fr.pdf")
    de = pdf_text(repdetect_build / "rep-detect" / "a4" / "rep-detect-kit.de.pdf")
    en = pdf_text(repdetect_build / "rep-detect" / "a4" / "rep-detect-kit.en.pdf")
    assert "Les pièces sont imprimées en anglais" not in fr
    assert "Pas du poisson... du serpent !" in " ".join(fr.replace("\u202f", " ").split())
    assert "Kein Fisch... Schlangenschuppe!" in de
    assert "The pieces are printed in" not in en
