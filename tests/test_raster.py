"""Raster images in templates: PNG, JPEG and WebP drawn where the template puts them, embedded once per PDF
file however many cards show them, transparency kept; an image printed under 150 dpi is refused at the
template's line, one under 300 dpi is a note in the fit report."""
from __future__ import annotations

import math

import subprocess
import sys
from pathlib import Path

import pymupdf as fitz
import pytest
from PIL import Image
from pypdf import PdfReader

from printkit.build import Settings, build
from printkit.content.paths import Roots

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">\n'
GAME = """id: pics
title: Pictures
credits: "Made for printkit's tests."
players: "2"
languages: [en]
components: [deck]
"""


def quadrants(px: int, alpha: bool = False) -> Image.Image:
    """A square image in four solid quadrants: red top left, green top right, blue bottom left, and the
    bottom right yellow (or transparent)."""
    image = Image.new("RGBA", (px, px), (255, 255, 0, 0 if alpha else 255))
    half = px // 2
    image.paste((255, 0, 0, 255), (0, 0, half, half))
    image.paste((0, 255, 0, 255), (half, 0, px, half))
    image.paste((0, 0, 255, 255), (0, half, half, px))
    return image if alpha else image.convert("RGB")


AT_150, AT_300 = (math.ceil(50 / 25.4 * dpi) for dpi in (150, 300))  # pixels a 50 mm picture needs


def make_game(tmp_path: Path, image_line: str, cards: int = 9, files: dict[str, Image.Image] | None = None) -> Roots:
    """A game of one deck whose front draws `image_line` (line 3 of the template) on a white card."""
    game = tmp_path / "content" / "pics"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    rows = "\n".join(f"  - {{title: C{i}}}" for i in range(cards))
    (game / "deck.yaml").write_text(f"kind: deck\ntitle: Cards\nsize: poker\nfront: front.svg.j2\nback: back.svg.j2\n"
                                    f"cards:\n{rows}\n")
    folder = tmp_path / "templates" / "pics"
    (folder / "art").mkdir(parents=True)
    (folder / "front.svg.j2").write_text(HEAD + '  <rect width="{{ w }}" height="{{ h }}" fill="#ffffff"/>\n'
                                         + image_line + "\n</svg>\n")
    (folder / "back.svg.j2").write_text(HEAD + '  <rect width="{{ w }}" height="{{ h }}" fill="#888888"/>\n</svg>\n')
    for name, image in (files or {}).items():
        image.save(folder / name)
    return Roots.default(tmp_path / "content", tmp_path / "templates")


def pics_cli(tmp_path: Path, command: str) -> subprocess.CompletedProcess:
    """`printkit build` (A4, the parts alone) or `printkit validate` of the game make_game wrote, as a user runs it."""
    extra = ["--paper", "a4", "--no-kit", "--no-poster", "--no-gutterfold", "--out", str(tmp_path / "out")] \
        if command == "build" else []
    return subprocess.run([sys.executable, "-m", "printkit", command, "pics", "--content", str(tmp_path / "content"),
                           "--templates", str(tmp_path / "templates"), *extra], capture_output=True, text=True,
                          cwd=tmp_path)


def build_pics(tmp_path: Path, roots: Roots) -> Path:
    out = tmp_path / "out"
    build(Settings(roots=roots, out=out, papers=("a4",), kits=False, gutterfold=False, poster=False), ["pics"])
    return out


def image_xobjects(pdf: Path) -> int:
    """Image XObjects in the whole file (every object pypdf finds in its cross-reference table)."""
    reader = PdfReader(str(pdf))
    numbers = {n for table in reader.xref.values() for n in table}
    objects = (reader.get_object(n) for n in sorted(numbers))
    return sum(1 for obj in objects if hasattr(obj, "get") and obj.get("/Subtype") == "/Image")


def colour_at(pdf: Path, page: int, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    with fitz.open(str(pdf)) as doc:
        pix = doc[page].get_pixmap(dpi=150)
        px = 150 / 25.4
        return pix.pixel(int(x_mm * px), int(y_mm * px))[:3]


def art_deck(tmp_path: Path, files: dict[str, Image.Image], cards: list[tuple[str, str]]) -> Roots:
    """The game of make_game whose cards each name their picture in an `art` field: (title, art) per card."""
    roots = make_game(tmp_path, '  <image href="art/{{ card.art }}.png" x="5" y="5" width="50" height="50"/>', cards=0,
                      files=files)
    deck = tmp_path / "content" / "pics" / "deck.yaml"
    deck.write_text(deck.read_text().replace("cards:\n", 'fields:\n  art: {type: str, doc: "picture"}\ncards:\n')
                    + "".join(f"  - {{title: {title}, art: {art}}}\n" for title, art in cards))
    return roots


def test_a_png_on_nine_cards_is_embedded_once_and_drawn_in_place(tmp_path):
    roots = make_game(tmp_path, '  <image href="art/fire.png" x="10" y="10" width="40" height="40"/>',
                      files={"art/fire.png": quadrants(600, alpha=True)})
    out = build_pics(tmp_path, roots)
    pdf = out / "pics" / "a4" / "deck.pdf"
    assert image_xobjects(pdf) == 2  # the picture and its transparency mask, once for the file
    with fitz.open(str(pdf)) as doc:
        boxes = [fitz.Rect(i["bbox"]) for i in doc[0].get_image_info()]
    assert len(boxes) == 9
    box = boxes[0]
    x0, y0 = box.x0 * 25.4 / 72, box.y0 * 25.4 / 72
    assert box.width * 25.4 / 72 == pytest.approx(40, abs=0.05)
    assert colour_at(pdf, 0, x0 + 10, y0 + 10) == (255, 0, 0)
    assert colour_at(pdf, 0, x0 + 30, y0 + 10) == (0, 255, 0)
    assert colour_at(pdf, 0, x0 + 10, y0 + 30) == (0, 0, 255)
    assert colour_at(pdf, 0, x0 + 30, y0 + 30) == (255, 255, 255)  # transparent: the card's white shows
    assert "Images printed under 300 dpi" not in (out / "fit-report.md").read_text()


@pytest.mark.parametrize("name", ["art/fire.jpg", "art/fire.webp"])
def test_jpeg_and_webp_draw(tmp_path, name):
    roots = make_game(tmp_path, f'  <image href="{name}" x="10" y="10" width="40" height="40"/>', cards=2,
                      files={name: quadrants(600)})
    pdf = build_pics(tmp_path, roots) / "pics" / "a4" / "deck.pdf"
    assert image_xobjects(pdf) == 1
    with fitz.open(str(pdf)) as doc:
        box = fitz.Rect(doc[0].get_image_info()[0]["bbox"])
    x0, y0 = box.x0 * 25.4 / 72, box.y0 * 25.4 / 72
    red = colour_at(pdf, 0, x0 + 10, y0 + 10)
    yellow = colour_at(pdf, 0, x0 + 30, y0 + 30)
    assert red[0] > 240 and red[1] < 20 and red[2] < 20  # JPEG is lossy: close, not exact
    assert yellow[0] > 240 and yellow[1] > 240 and yellow[2] < 20


def test_slice_covers_the_box_and_is_clipped_to_it(tmp_path):
    wide = Image.new("RGB", (1200, 600), (255, 0, 0))
    wide.paste((0, 0, 255), (0, 0, 300, 600))  # a blue strip on the left, cut off by slice
    roots = make_game(tmp_path, '  <image href="art/wide.png" x="10" y="10" width="30" height="30" '
                                'preserveAspectRatio="xMidYMid slice"/>', cards=1, files={"art/wide.png": wide})
    pdf = build_pics(tmp_path, roots) / "pics" / "a4" / "deck.pdf"
    with fitz.open(str(pdf)) as doc:
        box = fitz.Rect(doc[0].get_image_info()[0]["bbox"])
        assert box.height * 25.4 / 72 == pytest.approx(30, abs=0.05)  # 60 mm wide, 30 high: covers the box
    card_x = box.x0 * 25.4 / 72 + 15 - 10  # the card's left edge: the image overhangs the 30 mm box by 15 mm
    assert colour_at(pdf, 0, card_x + 11, box.y0 * 25.4 / 72 + 15) == (255, 0, 0)
    assert colour_at(pdf, 0, card_x + 5, box.y0 * 25.4 / 72 + 15) == (255, 255, 255)  # clipped: the card's white


def test_an_image_under_150_dpi_is_refused_at_the_template_line(tmp_path):
    make_game(tmp_path, '  <image href="art/small.png" x="5" y="5" width="50" height="50"/>', cards=1,
              files={"art/small.png": quadrants(100)})
    result = pics_cli(tmp_path, "build")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == ("templates/pics/front.svg.j2:3:10: expected an image of at least 150 dpi "
                                             f"at its printed size, {AT_150} x {AT_150} px for 150 dpi, found "
                                             "'art/small.png' at 51 dpi")


def test_a_scaled_group_counts_in_the_dpi(tmp_path):
    """400 px in 25 mm is 406 dpi, but the group doubles it: 203 dpi, a note."""
    roots = make_game(tmp_path, '  <g transform="scale(2)"><image href="art/a.png" width="25" height="25"/></g>',
                      cards=1, files={"art/a.png": quadrants(400)})
    report = (build_pics(tmp_path, roots) / "fit-report.md").read_text()
    assert "templates/pics/front.svg.j2:3:" in report and "art/a.png prints at 203 dpi" in report


def test_the_build_says_how_many_images_print_under_300_dpi(tmp_path):
    make_game(tmp_path, '  <image href="art/mid.png" x="5" y="5" width="50" height="50"/>', cards=1,
              files={"art/mid.png": quadrants(400)})
    result = pics_cli(tmp_path, "build")
    assert result.returncode == 0, result.stderr
    assert "fit report: images printed under 300 dpi: 1 picture(s), at 1 place(s)" in result.stderr


def test_the_build_counts_a_picture_every_card_names_once(tmp_path):
    art_deck(tmp_path, {"art/mid.png": quadrants(400)}, [(f"C{n}", "mid") for n in range(5)])
    result = pics_cli(tmp_path, "build")
    assert result.returncode == 0, result.stderr
    assert "fit report: images printed under 300 dpi: 1 picture(s), at 5 place(s)" in result.stderr


def test_an_image_under_300_dpi_is_a_note_in_the_fit_report(tmp_path):
    roots = make_game(tmp_path, '  <image href="art/mid.png" x="5" y="5" width="50" height="50"/>', cards=3,
                      files={"art/mid.png": quadrants(400)})
    report = (build_pics(tmp_path, roots) / "fit-report.md").read_text()
    section = report.split("# Images printed under 300 dpi\n\n", 1)[1]
    assert section == (f"templates/pics/front.svg.j2:3:10: art/mid.png prints at 203 dpi (under 300 dpi: "
                       f"{AT_300} x {AT_300} px for 300 dpi)\n")


def test_a_coarse_image_an_item_names_is_a_problem_at_its_field(tmp_path):
    """The first card's picture is checked with its template; every other card's when it is drawn."""
    art_deck(tmp_path, {"art/good.png": quadrants(600), "art/small.png": quadrants(100)},
             [("A", "good"), ("B", "small")])
    result = pics_cli(tmp_path, "build")
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[:-1] == [
        f"content/pics/deck.yaml:11:21: expected an image of at least 150 dpi at its printed size, {AT_150} x {AT_150} "
        "px for 150 dpi, found "
        "'art/small.png' at 51 dpi (deck 'B', field art)"]


def test_a_picture_an_item_names_under_300_dpi_is_a_note_at_its_field(tmp_path):
    roots = art_deck(tmp_path, {"art/good.png": quadrants(600), "art/mid.png": quadrants(400)},
                     [("A", "good"), ("B", "mid"), ("C", "mid")])
    report = (build_pics(tmp_path, roots) / "fit-report.md").read_text()
    section = report.split("# Images printed under 300 dpi\n\n", 1)[1]
    assert section.splitlines() == [
        f"content/pics/deck.yaml:11:21: art/mid.png prints at 203 dpi (under 300 dpi: {AT_300} x {AT_300} px for 300 "
        "dpi) (deck 'B', field art)",
        f"content/pics/deck.yaml:12:21: art/mid.png prints at 203 dpi (under 300 dpi: {AT_300} x {AT_300} px for 300 "
        "dpi) (deck 'C', field art)"]


def test_a_shared_back_and_the_fronts_share_one_picture(tmp_path):
    roots = make_game(tmp_path, '  <image href="art/fire.png" x="10" y="10" width="40" height="40"/>', cards=3,
                      files={"art/fire.png": quadrants(600)})
    back = tmp_path / "templates" / "pics" / "back.svg.j2"
    back.write_text(back.read_text().replace("</svg>", '  <image href="art/fire.png" width="40" height="40"/>\n</svg>'))
    pdf = build_pics(tmp_path, roots) / "pics" / "a4" / "deck.pdf"
    assert image_xobjects(pdf) == 1
    with fitz.open(str(pdf)) as doc:
        assert [len(page.get_image_info()) for page in doc] == [3, 3]


def test_a_missing_picture_an_item_names_is_a_problem_at_its_field(tmp_path):
    art_deck(tmp_path, {"art/good.png": quadrants(600)}, [("A", "good"), ("B", "gone")])
    result = pics_cli(tmp_path, "validate")
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[:-1] == [
        "content/pics/deck.yaml:11:21: expected an image file (SVG, PNG, JPEG or WebP) in the template folders, "
        "found 'art/gone.png' (deck 'B', field art)"]


def test_a_missing_template_says_where_it_was_looked_for(tmp_path):
    make_game(tmp_path, "")
    (tmp_path / "templates" / "pics" / "front.svg.j2").unlink()
    result = pics_cli(tmp_path, "validate")
    assert result.returncode == 2, result.stderr
    assert ("expected template 'front.svg.j2' in templates/pics/ (the game's own), or the shared deck/ and common/ "
            "templates, found none") in result.stderr
