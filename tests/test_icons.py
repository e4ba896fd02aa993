"""Inline icons: `:name:` in text draws the game's icons/<name>.svg or .png at the text's cap height, standing on
the baseline, wrapped and fitted with the text like a word; an unknown icon is a problem at the item's field;
colons that do not make an icon name stay text."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pymupdf as fitz
import pytest
from PIL import Image

from printkit.build import Settings, build
from printkit.content.paths import Roots

MM = 25.4 / 72
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">\n'
FRONT = HEAD + """  <rect width="{{ w }}" height="{{ h }}" fill="#ffffff"/>
  <text x="5" y="10" font-size="11pt" data-w="{{ w - 10 }}" data-field="title">{{ card.title }}</text>
  <text x="5" y="20" data-w="{{ box }}" data-h="50" font-size="10pt" data-min="7" data-field="text">{{ card.text }}</text>
</svg>
"""
GAME = """id: icons
title: Icons
credits: "Made for printkit's tests."
players: "2"
languages: [en]
components: [deck]
"""
COIN = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="5" fill="#e0a000"/></svg>')


def make_game(tmp_path: Path, cards: list[tuple[str, str]], box: float = 53.0) -> Roots:
    game = tmp_path / "content" / "icons"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    rows = "\n".join(f'  - {{title: "{title}", text: "{text}"}}' for title, text in cards)
    (game / "deck.yaml").write_text("kind: deck\ntitle: Cards\nsize: poker\nfront: front.svg.j2\nback: back.svg.j2\n"
                                    "fields:\n  text: {type: text, doc: \"game text\"}\ncards:\n" + rows + "\n")
    folder = tmp_path / "templates" / "icons"
    (folder / "icons").mkdir(parents=True)
    (folder / "front.svg.j2").write_text(FRONT.replace("{{ box }}", str(box)))
    (folder / "back.svg.j2").write_text(HEAD + '  <rect width="{{ w }}" height="{{ h }}" fill="#888888"/>\n</svg>\n')
    Image.new("RGB", (200, 200), (0, 160, 0)).save(folder / "icons" / "gem.png")
    (folder / "icons" / "coin.svg").write_text(COIN)
    return Roots.default(tmp_path / "content", tmp_path / "templates")


def build_deck(tmp_path: Path, roots: Roots) -> Path:
    out = tmp_path / "out"
    build(Settings(roots=roots, out=out, papers=("a4",), kits=False, gutterfold=False, poster=False), ["icons"])
    return out / "icons" / "a4" / "deck.pdf"


def words(page: fitz.Page) -> dict[str, fitz.Rect]:
    return {w[4]: fitz.Rect(w[:4]) for w in page.get_text("words")}


def test_an_icon_stands_between_its_words_on_the_baseline(tmp_path):
    pdf = build_deck(tmp_path, make_game(tmp_path, [("A", "Pay 2 :gem: to draw")]))
    with fitz.open(str(pdf)) as doc:
        page = doc[0]
        found = words(page)
        images = [fitz.Rect(i["bbox"]) for i in page.get_image_info()]
        spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]
                 if s["text"].strip().startswith(("Pay", "to"))]
    assert len(images) == 1
    icon, two, to = images[0], found["2"], found["to"]
    assert two.x1 < icon.x0 < icon.x1 < to.x0  # between the words, with a space either side
    baseline = spans[0]["origin"][1]
    assert icon.y1 == pytest.approx(baseline, abs=0.2 / MM)  # standing on the baseline
    size_pt = spans[0]["size"]
    assert icon.height == pytest.approx(0.7 * size_pt, abs=0.05)  # cap high
    assert icon.width == pytest.approx(icon.height, abs=0.05)  # a square icon stays square


def test_an_svg_icon_is_drawn_and_wraps_with_the_text(tmp_path):
    text = "Pay 2 :coin: then draw a card and keep :coin: and :gem: for later"
    pdf = build_deck(tmp_path, make_game(tmp_path, [("A", text)], box=20.0))
    with fitz.open(str(pdf)) as doc:
        page = doc[0]
        coins = [d["rect"] for d in page.get_drawings() if d.get("fill") and
                 all(abs(a - b) < 0.02 for a, b in zip(d["fill"], (0xE0 / 255, 0xA0 / 255, 0)))]
        gem = fitz.Rect(page.get_image_info()[0]["bbox"])
        left = words(page)["Pay"].x0  # the box's left edge
        lines = [fitz.Rect(line["bbox"]) for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
                 if abs(line["bbox"][0] - left) < 1]
    assert len(coins) == 2
    assert coins[0].y0 < coins[1].y0 - 1  # on different lines: the text wrapped round them
    for icon in (*coins, gem):
        assert left < icon.x0 and icon.x1 <= left + 20 / MM + 0.5  # inside the box's width
        assert any(line.y0 - 1 <= icon.y0 and icon.y1 <= line.y1 + 1 for line in lines)  # in a line's band


def test_colons_that_are_not_an_icon_name_stay_text(tmp_path):
    pdf = build_deck(tmp_path, make_game(tmp_path, [("A", "Note: x :: y :Big: 10 : 30")]))
    with fitz.open(str(pdf)) as doc:
        text = doc[0].get_text()
        assert doc[0].get_image_info() == []
    assert "Note: x :: y :Big: 10 : 30" in text


def test_an_icon_in_a_one_line_title(tmp_path):
    pdf = build_deck(tmp_path, make_game(tmp_path, [(":gem: Jewel", "Text")]))
    with fitz.open(str(pdf)) as doc:
        icon = fitz.Rect(doc[0].get_image_info()[0]["bbox"])
        jewel = words(doc[0])["Jewel"]
    assert icon.x1 < jewel.x0 and icon.y1 == pytest.approx(jewel.y1 - (jewel.y1 - jewel.y0) * 0.2, abs=1.5)


def test_an_unknown_icon_is_a_problem_at_the_items_field(tmp_path):
    make_game(tmp_path, [("A", "Pay 2 :coin: to draw"), ("B", "Take :ruby: now")])
    result = subprocess.run([sys.executable, "-m", "printkit", "build", "icons", "--paper", "a4", "--no-kit",
                             "--no-poster", "--no-gutterfold", "--content", str(tmp_path / "content"),
                             "--templates", str(tmp_path / "templates"), "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[:-1] == [
        "content/icons/deck.yaml:10:24: expected an icon icons/ruby.svg or icons/ruby.png in the template folders, "
        "found ':ruby:' (deck 'B', field text)"]


def test_a_title_with_an_icon_that_cannot_fit_is_quoted_as_written(tmp_path):
    make_game(tmp_path, [(":gem: " + "W" * 40, "Text")])
    result = subprocess.run([sys.executable, "-m", "printkit", "build", "icons", "--paper", "a4", "--no-kit",
                             "--no-poster", "--no-gutterfold", "--content", str(tmp_path / "content"),
                             "--templates", str(tmp_path / "templates"), "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert f"expected ':gem: {'W' * 40}' to fit" in result.stderr
