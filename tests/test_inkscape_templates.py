"""Templates drawn in Inkscape (issue 16, item 9): a card template saved from Inkscape 1.x (layers, tspan
lines, a rotated text, font sizes in px, pt and mm, text flowed into a shape) builds, and its text lands
where the drawing puts it, measured in the PDF with PyMuPDF."""
from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import fitz
import pytest

from conftest import FIXTURES
from printkit.build import Settings, build
from printkit.content.paths import Roots
from printkit.draw import text
from printkit.draw.templates import TemplateProblem, TemplateSet
from test_errors import col_of, line_of, replace
from test_svg_reading import render_page

MM = 72 / 25.4  # PDF points in a millimetre
RULES_BOX = (7.5, 25.0, 55.5, 63.0)  # the flowed-into rect of the drawing (defs rect234, px, under scale(0.26458333))
FLAVOUR_BOX = (7.5 + 1.5, 65.0 + 1.5, 55.5 - 1.5, 81.0 - 1.5)  # rect300 after translate(0,1), less shape-padding 1.5
FRAME = (48 * MM, 16 * MM)


def copy(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "inkscape", tmp_path / "inky")
    return tmp_path / "inky"


def run_cli(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", "build", "inky", "--paper", "a4", "--lang", "en", "--no-kit",
                           "--no-poster", "--no-gutterfold", "--content", str(root / "content"), "--templates",
                           str(root / "templates"), "--out", str(root / "out")], capture_output=True, text=True,
                          cwd=root, timeout=120)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> fitz.Page:
    root = copy(tmp_path_factory.mktemp("inkscape"))
    try:
        build(Settings(roots=Roots.default(root / "content", root / "templates"), out=root / "out", papers=("a4",),
                       langs=("en",), kits=False, gutterfold=False, poster=False), ["inky"])
    finally:
        text.forget_game_fonts()  # the fixture's font_map is the inky game's only
    return fitz.open(root / "out" / "inky" / "a4" / "deck.pdf")[0]


def cards(page: fitz.Page) -> list[fitz.Point]:
    """Each card's top-left corner on the page, from its flavour frame (a 48 x 16 mm rect at 7.5, 65 mm)."""
    frames = [d["rect"] for d in page.get_drawings()
              if d.get("color") and abs(d["rect"].width - FRAME[0]) < 1 and abs(d["rect"].height - FRAME[1]) < 1]
    return sorted({(round(r.x0 - 7.5 * MM, 1), round(r.y0 - 65 * MM, 1)) for r in frames})


def lines_in(page: fitz.Page, origin: tuple[float, float]) -> list[dict]:
    x, y = origin
    card = fitz.Rect(x, y, x + 63 * MM, y + 88 * MM)
    return [line for block in page.get_text("dict")["blocks"] for line in block.get("lines", [])
            if card.contains(fitz.Rect(line["bbox"]).tl)]


def in_mm(bbox: tuple, origin: tuple[float, float]) -> tuple[float, ...]:
    return tuple((v - origin[i % 2]) / MM for i, v in enumerate(bbox))


def ink(span: dict, origin: tuple[float, float]) -> tuple[float, ...]:
    """A span's box in card mm, from its baseline: cap height above (0.75 em, more than Barlow's), descenders below."""
    x0, _, x1, _ = span["bbox"]
    base, size = span["origin"][1], span["size"]
    return in_mm((x0, base - 0.75 * size, x1, base + 0.25 * size), origin)


def inside(bbox: tuple[float, ...], box: tuple[float, ...], tol: float = 0.5) -> bool:
    return box[0] - tol <= bbox[0] and box[1] - tol <= bbox[1] and bbox[2] <= box[2] + tol and bbox[3] <= box[3] + tol


def test_the_flowed_text_wraps_inside_the_shape_it_flows_into(page):
    origins = cards(page)
    assert len(origins) == 3, origins
    for origin in origins:
        spans = [(ink(s, origin), s) for line in lines_in(page, origin) for s in line["spans"]]
        rules = [(b, s) for b, s in spans if s["size"] == pytest.approx(10, abs=0.05)]  # 13.3333px under scale(0.2646)
        flavour = [(b, s) for b, s in spans if "Italic" in s["font"]]
        assert len(rules) >= 1 and len(flavour) >= 1
        assert all(inside(b, RULES_BOX) for b, _ in rules), [(b, s["text"]) for b, s in rules]
        assert all(inside(b, FLAVOUR_BOX) for b, _ in flavour), [(b, s["text"]) for b, s in flavour]
        assert rules[0][1]["text"].startswith("Power ") and "Bold" in rules[0][1]["font"]  # the bold nested tspan
        assert any("Bold" not in s["font"] for _, s in rules)  # the rest of the text in the text's own weight
    words = " ".join(s["text"] for origin in origins for line in lines_in(page, origin) for s in line["spans"])
    assert "nobody ever learned who." in " ".join(words.split())  # the long flavour text wrapped, all of it printed


def test_a_rotated_text_and_font_sizes_in_px_pt_and_mm_print_as_drawn(page):
    origin = cards(page)[0]
    lines = lines_in(page, origin)
    by_text = {s["text"]: (line, s) for line in lines for s in line["spans"]}
    title_line, title = by_text["Lantern"]
    assert title["size"] == pytest.approx(16, abs=0.05)  # font-size:5.64444px, px = user unit = mm
    assert title["font"].endswith("Barlow-Bold")  # sans-serif → Barlow, bold from the style
    assert in_mm(title["origin"], origin) == pytest.approx((7.5, 14), abs=0.1)  # the tspan line's x, y
    type_line, kind = by_text["Tool"]
    # font-size:2.25pt as SVG reads it in a file Inkscape saved: 3 px, 3 user units, 3 mm on this mm page
    assert kind["size"] == pytest.approx(3 * MM, abs=0.05)
    assert math.degrees(math.atan2(-type_line["dir"][1], type_line["dir"][0])) == pytest.approx(90, abs=0.1)  # rotate(-90)
    assert in_mm(kind["origin"], origin) == pytest.approx((58, 60), abs=0.1)  # (-60, 58) turned by rotate(-90)
    _, power = by_text["3"]
    assert power["size"] == pytest.approx(1.5 * 96 / 25.4 * MM, abs=0.05)  # font-size:1.5mm: 5.67 px, 5.67 mm here
    assert power["font"].endswith("BarlowCondensed-Bold")  # Arial, mapped by game.yaml's font_map
    assert in_mm(power["bbox"], origin)[2] == pytest.approx(55.5, abs=0.3)  # text-anchor:end at x 55.5


def test_a_family_without_a_mapping_is_an_error_at_its_place(tmp_path):
    root = copy(tmp_path)
    card = root / "templates" / "inky" / "card.svg.j2"
    replace(card, "font-size:5.64444px;line-height:1.25;font-family:sans-serif;", "font-size:5.64444px;line-height:1.25;font-family:serif;")
    result = run_cli(root)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    found = re.match(r"templates/inky/card\.svg\.j2:(\d+):(\d+): expected a font family printkit has \(Barlow Condensed, "
                     r"Barlow\) or one game\.yaml's font_map maps in style font-family of <text>, found 'serif'$", first)
    assert found and int(found.group(1)) == line_of(card, "font-family:serif"), first


def test_a_problem_of_a_card_shows_its_text_never_a_placeholder(tmp_path):
    root = copy(tmp_path)
    card = root / "templates" / "inky" / "card.svg.j2"
    replace(card, 'x="55.5"\n         y="14.5">', 'x="68"\n         y="14.5">')  # the power figure off the card
    result = run_cli(root)
    assert result.returncode == 2 and "\ue000" not in result.stderr and "\ue001" not in result.stderr
    assert "expected text inside the safe zone, found '7' outside it (deck 'Signal Beacon', field power)" in result.stderr


INKSCAPE_ROOT = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
                 'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" inkscape:version="1.2.2" '
                 'width="63mm" height="88mm" viewBox="{box}">\n{body}\n</svg>')


def drawn(svg: str) -> tuple[fitz.Page, list]:
    """A template drawn alone on a 63 x 88 mm page (mm, y down, as pieces are drawn), and its problems."""
    text.register_fonts()
    return render_page(svg, 63, 88)


def test_a_page_drawn_in_px_is_scaled_to_its_size_in_mm_and_percentages_are_of_the_page():
    body = ('<rect x="50%" y="25%" width="10%" height="10%" style="fill:#ff0000"/>'
            '<text x="28.346457" y="56.692913" style="font-size:13.3333px;font-family:sans-serif">'
            '<tspan sodipodi:role="line" x="28.346457" y="56.692913">Hi</tspan></text>')
    page, problems = drawn(INKSCAPE_ROOT.format(box="0 0 238.11024 332.59843", body=body))
    assert problems == []
    span = page.get_text("dict")["blocks"][0]["lines"][0]["spans"][0]
    assert span["size"] == pytest.approx(10, abs=0.05)  # 13.3333 px on a page of 96 px to the inch
    assert (span["origin"][0] / MM, span["origin"][1] / MM) == pytest.approx((7.5, 15), abs=0.05)
    square = next(d["rect"] for d in page.get_drawings() if d.get("fill"))
    assert (square.x0 / MM, square.y0 / MM, square.width / MM, square.height / MM) == pytest.approx((31.5, 22, 6.3, 8.8), abs=0.05)


def test_lines_of_a_text_are_drawn_where_their_tspans_say():
    body = ('<text x="5" y="10" style="font-size:4px;font-family:\'Barlow Condensed\'" transform="translate(2,0)">'
            '<tspan sodipodi:role="line" x="5" y="10">One <tspan style="font-size:4px">line</tspan></tspan>'
            '<tspan sodipodi:role="line" x="5" dy="6">Two</tspan></text>')
    page, problems = drawn(INKSCAPE_ROOT.format(box="0 0 63 88", body=body))
    assert problems == []
    spans = [s for b in page.get_text("dict")["blocks"] for line in b["lines"] for s in line["spans"]]
    assert [(s["text"], round(s["origin"][0] / MM, 2), round(s["origin"][1] / MM, 2)) for s in spans] == [
        ("One line", 7, 10), ("Two", 7, 16)]


@pytest.mark.parametrize(("body", "expected"), [
    ('<text x="5" y="10" style="font-size:4px"><tspan sodipodi:role="line" x="5" y="10">One '
     '<tspan style="font-size:6px">big</tspan></tspan></text>',
     "expected one font-size in a text (bold and italic words in flowed text only), found \"'big' in 6px\""),
    ('<text style="font-size:4px;shape-inside:url(#nowhere)"><tspan x="0" y="0">Words</tspan></text>',
     "expected shape-inside: url(#id) of a shape in this SVG, found 'url(#nowhere)'"),
    ('<defs><rect id="r" x="5" y="5" width="40" height="20"/></defs><text style="font-size:4px;shape-inside:url(#r);'
     'text-align:justify"><tspan x="5" y="9">Words</tspan></text>',
     "expected one of (start, left, center, middle, end, right) in style text-align of <text>, found 'justify'"),
    ('<text x="5" y="10" style="font-size:4px;inline-size:40px">Words</text>',
     "expected a style property printkit draws on <text>, found 'inline-size'"),
])
def test_what_an_inkscape_text_cannot_keep_is_refused_at_the_text(tmp_path, body, expected):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "t.svg.j2").write_text(INKSCAPE_ROOT.format(box="0 0 63 88", body=body))
    with pytest.raises(TemplateProblem) as info:
        TemplateSet((folder,)).render("t.svg.j2")
    assert [str(p).split(": ", 1)[1] for p in info.value.problems][-1:] == [expected]
    assert all(re.match(r"tpl/t\.svg\.j2:2:\d+: ", str(p)) for p in info.value.problems)


def test_a_scaled_text_is_held_to_the_least_size_as_printed():
    body = '<text transform="scale(0.1)" x="100" y="100" style="font-size:20px"><tspan x="100" y="100">Tiny</tspan></text>'
    _, problems = drawn(INKSCAPE_ROOT.format(box="0 0 63 88", body=body))
    assert [p.message for p in problems] == ["expected text of at least 6 pt, found 'Tiny' at 5.7 pt"]


def test_a_font_map_to_a_family_printkit_lacks_is_an_error_at_its_entry(tmp_path):
    root = copy(tmp_path)
    game = root / "content" / "inky" / "game.yaml"
    replace(game, "Arial: Barlow Condensed", "Arial: Helvetica")
    result = run_cli(root)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == (f"content/inky/game.yaml:{line_of(game, 'Helvetica')}:{col_of(game, 'Helvetica')}: expected a family "
                                             "printkit has (Barlow Condensed, Barlow), found 'Helvetica'")


def test_a_paragraph_break_in_flowed_text_is_kept():
    """paragraphs.svg: flowed text as Inkscape 1.2.2 saved it, its first paragraph ending in a newline."""
    page, problems = drawn((FIXTURES / "inkscape" / "paragraphs.svg").read_text())
    assert problems == []
    lines = [line for b in page.get_text("dict")["blocks"] for line in b["lines"]]
    assert [line["spans"][0]["text"] for line in lines][-2:] == ["around.", "Second one."]
    assert all(inside(ink(s, (0, 0)), (5, 5, 45, 65)) for line in lines for s in line["spans"])
