"""Draw once (issue 17): a face drawn for one file is replayed in the others, a sheet's figures are rendered
once and its pages counted once per paper, and the files are byte for byte those drawn the long way."""
from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pymupdf
from pypdf import PdfReader

from printkit.build import Settings, build
from printkit.content import Roots
from printkit.draw import Context, Face
from printkit.geometry import PAPERS
from printkit.layout import parts
from printkit.write import pdf as pdf_module
from printkit.write import Writer


def _shas(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*.pdf"))}


def _chase(out: Path) -> None:
    build(Settings(roots=Roots.default(), out=out, papers=("a4", "letter"), langs=("en",), jobs=1),
          ["bladerunner-chase"])


def test_faces_are_drawn_once_and_replayed_as_the_same_bytes(tmp_path, monkeypatch):
    calls: Counter[str] = Counter()
    replay, record = pdf_module.replay, pdf_module.record

    def counted_replay(*args):
        done = replay(*args)
        calls["replayed" if done else "refused"] += 1
        return done

    def counted_record(*args):
        calls["recorded"] += 1
        return record(*args)

    monkeypatch.setattr(pdf_module, "replay", counted_replay)
    monkeypatch.setattr(pdf_module, "record", counted_record)
    _chase(tmp_path / "once")
    monkeypatch.setattr(pdf_module, "replay", lambda *args: False)  # every face drawn wherever it prints
    _chase(tmp_path / "always")
    once, always = _shas(tmp_path / "once"), _shas(tmp_path / "always")
    assert len(once) >= 6 and once == always
    # the character cards print in their part, its gutterfold copy and the kit, on two papers: 5 more times
    assert calls["replayed"] >= 4 * calls["recorded"] > 0, calls


def _transparent_face() -> Face:
    return Face('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40mm" height="40mm">'
                '<rect x="0" y="0" width="40" height="40" fill="#cc0000" fill-opacity="0.5"/>'
                '<text x="4" y="20" font-size="10pt">Roy Batty</text></svg>', None)


def test_a_replayed_face_names_its_transparency_and_fonts_in_its_own_document(tmp_path):
    face, a4 = _transparent_face(), PAPERS["a4"]
    first = Writer(tmp_path / "first.pdf", "t", "s", duplex=False)
    first.begin(a4)
    first.canvas.setFillAlpha(0.3)  # the first document names another state first: gRLs0 is 0.3 there
    first.piece(face, 10, 10, 40, 40, (0, 0), Context("en", None), lambda href: None)
    first.end()
    first.finish()
    second = Writer(tmp_path / "second.pdf", "t", "s", duplex=False)
    second.begin(a4)
    second.piece(face, 10, 10, 40, 40, (0, 0), Context("en", None), lambda href: None)
    second.end()
    second.finish()
    assert face.recordings, "the face was not recorded"
    doc = pymupdf.open(tmp_path / "second.pdf")
    page = doc[0]
    assert "Roy Batty" in page.get_text()
    assert b"/gRLs0 gs" in page.read_contents()
    states = PdfReader(tmp_path / "second.pdf").pages[0]["/Resources"]["/ExtGState"]
    assert float(states["/gRLs0"]["/ca"]) == 0.5
    assert (tmp_path / "second.pdf").read_bytes().startswith(b"%PDF-1.4")  # transparency needs PDF 1.4
    fonts = [f[3] for f in page.get_fonts()]
    assert fonts and all("+" in name for name in fonts)  # embedded subsets of this document


def test_a_sheet_renders_each_figure_once_and_counts_its_pages_once_per_paper(tmp_path, monkeypatch):
    figures: Counter[tuple] = Counter()
    counted: Counter[tuple] = Counter()
    figure_svg = parts._figure_svg

    def counted_figure(content, comp, name, size, lang, theme):
        figures[(comp.stem, name, lang)] += 1
        return figure_svg(content, comp, name, size, lang, theme)

    from printkit.layout import flow
    count_pages = flow.count_pages

    def counted_pages(paper, f):
        counted[(f.header, paper.name)] += 1
        return count_pages(paper, f)

    monkeypatch.setattr(parts, "_figure_svg", counted_figure)
    monkeypatch.setattr(flow, "count_pages", counted_pages)
    build(Settings(roots=Roots.default(), out=tmp_path, langs=("fr",), jobs=1), ["run"])
    assert figures and set(figures.values()) == {1}, figures
    sheets = {k: n for k, n in counted.items() if "RUN" in k[0][0] and k[0][1] != "Guide d'impression"}
    assert sheets and max(sheets.values()) == 1, counted
    assert pymupdf.open(tmp_path / "run" / "a4" / "run-kit.fr.pdf").page_count > 10


def test_a_sheet_drawn_once_prints_its_figures_in_its_part_and_its_kit(tmp_path):
    build(Settings(roots=Roots.default(), out=tmp_path, papers=("a4",), langs=("en",), jobs=1), ["run"])
    part = pymupdf.open(tmp_path / "run" / "a4" / "rules-summary.en.pdf")
    kit = pymupdf.open(tmp_path / "run" / "a4" / "run-kit.en.pdf")
    drawn = [len(page.get_drawings()) for page in part]
    # a page with a figure has its paths (counting pages skips figures; a page of text has 2: ruler and rule)
    assert max(drawn) >= 20, drawn
    kit_drawn = [len(page.get_drawings()) for page in kit]
    assert all(n in kit_drawn for n in drawn), (drawn, kit_drawn)
