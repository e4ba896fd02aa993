"""Replicants, end to end: pieces once, aids and rulebook per language, measured in the PDFs; the soul
patterns and the rulebook's example scenes checked against the rules, with exact errors."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import fitz
import pytest

from pdfcheck import PT, blank_border_mm, fonts, is_paper, page_sizes_mm, text
from printkit.build import Settings, build
from printkit.content.paths import Roots
from conftest import game_copy
from test_errors import problems

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("fr", "en", "de")


@pytest.fixture(scope="session")
def replicants_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replicants-out")
    build(Settings(roots=Roots.default(), out=out, poster=False), ["replicants"])
    return out


@pytest.fixture()
def replicants_copy(tmp_path: Path) -> Path:
    return game_copy(tmp_path, "replicants")


def manifest(out: Path) -> dict[str, dict]:
    return {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["files"]}


def outlines(page: fitz.Page, w: float, h: float, tol: float = 0.1) -> int:
    return sum(1 for d in page.get_drawings() if d.get("color") is not None
               and abs(d["rect"].width * PT - w) <= tol and abs(d["rect"].height * PT - h) <= tol)


def count_outlines(path: Path, w: float, h: float) -> int:
    with fitz.open(path) as doc:
        return sum(outlines(page, w, h) for page in doc)


def test_pieces_print_once_and_aids_and_rulebook_once_per_language(replicants_build):
    files = manifest(replicants_build)
    for paper in ("a4", "letter"):
        for stem in ("souls", "hearts", "energy-markers", "energy-bars"):  # no words: printed once, shared
            assert files[f"replicants/{paper}/{stem}.pdf"]["lang"] is None
        for lang in LANGS:
            assert files[f"replicants/{paper}/arena.{lang}.pdf"]["lang"] == lang  # its diagrams have words
            assert files[f"replicants/{paper}/player-aids.{lang}.pdf"]["items"] == 4
            assert files[f"replicants/{paper}/rulebook.{lang}.pdf"]["lang"] == lang
            kit = replicants_build / "replicants" / paper / f"replicants-kit.{lang}.pdf"
            assert all(is_paper(size, paper) for size in page_sizes_mm(kit))
            assert all(embedded for _, embedded in fonts(kit))
    counts = {stem: files[f"replicants/a4/{stem}.pdf"]["items"]
              for stem in ("souls", "hearts", "energy-markers", "energy-bars")}
    counts["arena"] = files["replicants/a4/arena.fr.pdf"]["items"]  # its diagrams are in each language
    assert counts == {"souls": 60, "hearts": 36, "energy-markers": 4, "energy-bars": 4, "arena": 18}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hex_pieces_are_cut_at_their_exact_size(replicants_build, paper):
    folder = replicants_build / "replicants" / paper
    assert count_outlines(folder / "souls.pdf", 26 / math.sqrt(3) * 2, 26) == 60
    assert count_outlines(folder / "hearts.pdf", 28 / math.sqrt(3) * 2, 28) == 36
    size = 17.3205  # arena hexes, centre to corner: a rosette is 5 sizes wide and 3 flats high
    assert count_outlines(folder / "arena.en.pdf", 5 * size, 3 * math.sqrt(3) * size) == 18
    assert min(blank_border_mm(folder / "souls.pdf")) >= 5.0 - 0.26


@pytest.mark.parametrize("lang, players", [("fr", "joueurs"), ("en", "players"), ("de", "Spieler")])
def test_arena_diagrams_one_per_player_count_in_the_kits_language(replicants_build, lang, players):
    with fitz.open(replicants_build / "replicants" / "a4" / f"arena.{lang}.pdf") as doc:
        titles = [page.get_text() for page in doc if players in page.get_text()]
    assert [t.split("\n")[0] for t in titles] == [f"2 {players}", f"3 {players}", f"4 {players}"]
    # the 4-player diagram: 24 start hexes (4 players x Matrix, three 2s, two 3s), each its value in its hex;
    # beside them the legend's sample piece (M) and the "M = Matrix" line
    assert titles[2].split().count("M") == 4 + 2  # the four Matrices, exactly


def test_rulebook_numbers_and_quotes_follow_each_language(replicants_build):
    folder = replicants_build / "replicants" / "a4"
    fr, en, de = (text(folder / f"rulebook.{lang}.pdf") for lang in LANGS)
    assert "0,5 point" in fr and "0.5 points" in en and "0,5 Punkte" in de
    assert "«" in fr and "„" in de and "œ" in fr and "ß" in de
    # the rulebook's own words in each language
    assert "Chargez votre matrice" in fr and "Charge your Matrix" in en and "Laden Sie Ihre Matrix" in de


def test_player_aids_in_each_language(replicants_build):
    folder = replicants_build / "replicants" / "a4"
    for lang, word in zip(LANGS, ("matrice", "Matrix", "Matrix")):
        assert word in text(folder / f"player-aids.{lang}.pdf")


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, capture_output=True, text=True)


def line_col(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_a_broken_soul_pattern_is_an_exact_error(replicants_copy, tmp_path):
    souls = replicants_copy / "replicants" / "souls.yaml"
    body = souls.read_text()
    old = "      walk: [[0, -1], [0, -2], [1, -1], [-1, 0], [0, 1]]\n      leap: [[-1, -1]"
    assert old in body
    souls.write_text(body.replace(old, "      walk: [[0, -1], [0, -2], [1, -1], [-1, 0]]\n      leap: [[-1, -1]"))
    result = run_cli("validate", "replicants", "--content", str(replicants_copy), cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    line, col = line_col(souls, "&soul6")  # the pattern, written once and shared by the four colours
    lines = result.stderr.splitlines()
    assert f"content/replicants/souls.yaml:{line}:{col}: expected 5 entries in pattern.walk (rule soul-6-walk), " \
           f"found 4" in lines
    # the rulebook's Replicant 6 example no longer matches the pattern either
    assert any(l.startswith("content/replicants/rulebook.yaml:") and "scene 'soul-6'" in l for l in lines)


def test_a_walk_hex_off_its_line_and_a_hex_in_two_lists_are_errors(replicants_copy):
    souls = replicants_copy / "replicants" / "souls.yaml"
    body = souls.read_text()
    old = "      walk: [[0, -1], [0, -2], [1, 0], [-1, 1]]"
    assert old in body
    souls.write_text(body.replace(old, "      walk: [[0, -1], [1, -2], [1, 0], [-1, 1], [1, 0]]"))
    found = problems(replicants_copy, "replicants")
    line, col = line_col(souls, "&soul3")
    at = f"content/replicants/souls.yaml:{line}:{col}"
    assert f"{at}: expected walk hexes two away on a straight line, so the hex walked over is defined (soul 3), " \
           f"found [1, -2]" in found
    assert f"{at}: expected each hex in one list only (soul 3), found [1, 0] in walk and walk" in found


def test_a_scene_mark_that_the_patterns_contradict_is_an_error(replicants_copy):
    sheet = replicants_copy / "replicants" / "rulebook.yaml"
    body = sheet.read_text()
    old = "marks: {cross: [[2, -2]]"
    assert old in body
    sheet.write_text(body.replace(old, "marks: {cross: [[-2, 0]]"))
    line, col = line_col(sheet, "    soul-5:")
    assert problems(replicants_copy, "replicants") == [
        f"content/replicants/rulebook.yaml:{line}:5: expected scene 'soul-5' to mark cross on [2, -2] "
        f"(from the soul patterns), found [-2, 0]"]


def test_start_positions_off_the_arena_are_errors(replicants_copy):
    arena = replicants_copy / "replicants" / "arena.yaml"
    body = arena.read_text()
    old = '      - {player: 1, piece: "M", at: [0, 3]}'
    assert old in body
    arena.write_text(body.replace(old, '      - {player: 1, piece: "M", at: [0, 9]}', 1))
    line, _ = line_col(arena, "at: [0, 9]")
    assert problems(replicants_copy, "replicants") == [
        f"content/replicants/arena.yaml:{line}:9: expected a start hex on layout '2-players', found [0, 9]"]
