"""A game's own fonts: a TTF from its folder or a fontpkg-* package, named by templates, embedded
(subset) in the PDF; an unknown family, a style or a glyph the font lacks is a positioned error."""
from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import fontpkg
import pytest
from pypdf import PdfReader

from conftest import FIXTURES
from printkit.build import Settings, build, validate
from printkit.content.paths import Roots
from printkit.draw import text
from printkit.errors import ContentError
from test_errors import col_of, line_of, replace

TITLE = '<text x="5" y="10" font-size="11pt" font-weight="bold" fill="#ffffff"'


@pytest.fixture()
def fonted(tmp_path: Path) -> Iterator[Path]:
    """The mini game with Barlow Thin copied into its folder as "Test Thin", its cards' titles in it."""
    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    shutil.copytree(FIXTURES / "templates", tmp_path / "templates")
    game = tmp_path / "content" / "mini"
    (game / "fonts").mkdir()
    shutil.copy(fontpkg.path("barlow", 100, "normal"), game / "fonts" / "Thin.ttf")
    replace(game / "game.yaml", "languages: [en, fr, de]\n",
            'languages: [en, fr, de]\nfonts:\n  - {family: "Test Thin", file: fonts/Thin.ttf}\n'
            '  - {package: fontpkg-barlow-condensed, family: "Second Condensed"}\n')
    replace(tmp_path / "templates" / "mini" / "front.svg.j2", TITLE, TITLE.replace('font-weight="bold"', 'font-family="Test Thin"'))
    yield tmp_path
    text.forget_game_fonts()  # other tests' templates see the shipped families only


def run(root: Path) -> Path:
    out = root / "out"
    build(Settings(roots=Roots.default(root / "content", root / "templates"), out=out, papers=("a4",), langs=("en",),
                   kits=False, gutterfold=False, poster=False), ["mini"])
    return out


def fonts_of(pdf: Path) -> set[str]:
    names = set()
    for page in PdfReader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
        for xobject in (page["/Resources"].get("/XObject") or {}).values():
            for font in (xobject.get_object().get("/Resources", {}).get("/Font") or {}).values():
                names.add(str(font.get_object()["/BaseFont"]))
    return names


def test_a_font_from_the_game_folder_is_embedded_as_a_subset(fonted):
    names = fonts_of(run(fonted) / "mini" / "a4" / "deck.pdf")
    assert any(n.endswith("+Barlow-Thin") for n in names), names  # a subset: ABCDEF+ before the name


def test_an_unknown_family_is_refused_at_the_template_line(fonted):
    front = fonted / "templates" / "mini" / "front.svg.j2"
    replace(front, 'font-family="Test Thin"', 'font-family="Arial"')
    result = subprocess.run([sys.executable, "-m", "printkit", "build", "mini", "--paper", "a4", "--lang", "en",
                             "--no-kit", "--no-poster", "--no-gutterfold", "--content", str(fonted / "content"),
                             "--templates", str(fonted / "templates"), "--out", str(fonted / "out")],
                            capture_output=True, text=True, cwd=fonted, timeout=120)
    line, col = line_of(front, "Arial"), col_of(front, "font-family")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == (f"templates/mini/front.svg.j2:{line}:{col}: expected a font family printkit "
                                             "has (Barlow Condensed, Barlow, Test Thin, Second Condensed) or one game.yaml's font_map maps in font-family of <text>, "
                                             "found 'Arial'")


def test_a_glyph_the_font_lacks_is_refused_at_the_text_printed(fonted):
    deck = fonted / "content" / "mini" / "deck.yaml"
    replace(deck, "{title: Cy,", '{title: "Cy ★",')
    with pytest.raises(ContentError) as info:
        run(fonted)
    line = line_of(deck, "Cy ★")
    assert [str(p) for p in info.value.problems] == [
        f"content/mini/deck.yaml:{line}:{col_of(deck, 'Cy ★') - 1}: expected glyphs the font Test Thin has, found '★' "
        "(deck 'Cy ★', field title)"]


def test_a_font_declaration_that_cannot_be_used_is_refused_at_its_place(fonted):
    game = fonted / "content" / "mini" / "game.yaml"
    replace(game, "file: fonts/Thin.ttf}", "file: ../Thin.ttf}")
    replace(game, "package: fontpkg-barlow-condensed,", "package: fontpkg-no-such-font,")
    with pytest.raises(ContentError) as info:
        validate(Roots.default(fonted / "content", fonted / "templates"), ["mini"])
    line = line_of(game, "../Thin.ttf")
    assert [str(p) for p in info.value.problems] == [
        f"content/mini/game.yaml:{line}:{col_of(game, '../Thin')}: expected a font file inside content/mini, found '../Thin.ttf'",
        f"content/mini/game.yaml:{line + 1}:{col_of(game, 'fontpkg-no')}: expected an installed font package "
        "(pip install fontpkg-no-such-font), found none"]


def test_a_file_that_is_no_truetype_font_is_refused_at_its_place(fonted):
    game = fonted / "content" / "mini" / "game.yaml"
    (game.parent / "fonts" / "Thin.ttf").write_bytes(b"not a font")
    with pytest.raises(ContentError) as info:
        validate(Roots.default(fonted / "content", fonted / "templates"), ["mini"])
    assert [str(p) for p in info.value.problems] == [
        f"content/mini/game.yaml:{line_of(game, 'Thin.ttf')}:{col_of(game, 'fonts/Thin')}: expected a TrueType font (TTF, "
        "or OTF with TrueType outlines), found a file that is not one"]


def test_a_style_the_family_lacks_is_refused(fonted):
    front = fonted / "templates" / "mini" / "front.svg.j2"
    replace(front, 'font-family="Test Thin"', 'font-family="Test Thin" font-weight="bold"')
    with pytest.raises(ContentError) as info:
        run(fonted)
    assert all("expected a style the font Test Thin has, found bold (deck '" in str(p) for p in info.value.problems)
