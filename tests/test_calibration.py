"""Printer calibration: a duplex offset moves every back page by exactly that much, the calibration sheet puts
its back cross behind the front's scales, and printer profiles save and name an offset."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pdfplumber

from conftest import FIXTURES, mini_roots
from pdfcheck import PAPERS_MM, PT, piece_rects
from printkit.build import Settings, build

CARD = (63.5 + 6.35, 88.9 + 6.35)  # the fixture deck's faces with their drawn bleed (1/8 in each side)


def centres(path: Path) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    with pdfplumber.open(str(path)) as pdf:
        return piece_rects(pdf.pages[0], *CARD), piece_rects(pdf.pages[1], *CARD)


def test_a_duplex_offset_moves_every_back_by_exactly_that_much(tmp_path):
    for name, offset in (("plain", (0.0, 0.0)), ("shifted", (1.5, -2.0))):
        build(Settings(roots=mini_roots(), out=tmp_path / name, papers=("a4",), langs=("en",), kits=False,
                       poster=False, gutterfold=False, duplex_offset=offset), ["mini"])
    fronts, backs = centres(tmp_path / "plain" / "mini" / "a4" / "deck.pdf")
    moved_fronts, moved_backs = centres(tmp_path / "shifted" / "mini" / "a4" / "deck.pdf")
    assert len(backs) == len(moved_backs) == 5 and moved_fronts == fronts  # fronts never move
    width = PAPERS_MM["a4"][0]
    for (bx, by), (mx, my) in zip(sorted(backs), sorted(moved_backs)):
        assert abs(mx - bx - 1.5) <= 0.05 and abs(my - by + 2.0) <= 0.05
    # unshifted, each back sits behind its front (mirrored across the sheet)
    assert all(min(abs(bx - (width - fx)) + abs(by - fy) for fx, fy in fronts) <= 0.1 for bx, by in backs)


def run(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **env})


def cross_centre(path: Path, page: int) -> tuple[float, float]:
    """The centre of the calibration cross: the crossing of its two 28 mm arms."""
    with pdfplumber.open(str(path)) as pdf:
        arms = [ln for ln in pdf.pages[page].lines
                if abs(((ln["x1"] - ln["x0"]) ** 2 + (ln["bottom"] - ln["top"]) ** 2) ** 0.5 * PT - 28) < 0.1]
    level = next(ln for ln in arms if abs(ln["top"] - ln["bottom"]) < 0.01)
    upright = next(ln for ln in arms if abs(ln["x0"] - ln["x1"]) < 0.01)
    return upright["x0"] * PT, level["top"] * PT


def test_the_calibration_sheet_puts_its_back_cross_behind_the_scales_and_shows_a_correction(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    assert run("calibrate", "--paper", "letter", "--lang", "de", "--out", "plain", env=env, cwd=tmp_path).returncode == 0
    assert run("calibrate", "--paper", "letter", "--lang", "de", "--out", "fixed", "--duplex-offset", "0.5,-1",
               env=env, cwd=tmp_path).returncode == 0
    plain = tmp_path / "plain" / "calibration.letter.de.pdf"
    with pdfplumber.open(str(plain)) as pdf:
        assert len(pdf.pages) == 2 and "Duplex-Kalibrierung" in pdf.pages[0].extract_text()
    w, h = PAPERS_MM["letter"]
    x, y = cross_centre(plain, 1)
    assert abs(x - (w - w / 2)) <= 0.05 and abs(y - h / 2) <= 0.05  # behind the front's centre
    fx, fy = cross_centre(tmp_path / "fixed" / "calibration.letter.de.pdf", 1)
    assert abs(fx - x - 0.5) <= 0.05 and abs(fy - y + 1.0) <= 0.05


def test_a_printer_profile_saves_an_offset_and_names_it_on_a_build(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    saved = run("printer", "office", "--duplex-offset", "0.5,-1", env=env, cwd=tmp_path)
    assert saved.returncode == 0 and (tmp_path / "config" / "printkit" / "printers.yaml").is_file()
    content = ["--content", str(FIXTURES / "content"), "--templates", str(FIXTURES / "templates")]
    ok = run("build", "mini", "--paper", "a4", "--lang", "en", "--no-kit", "--no-poster", "--no-gutterfold",
             "--printer", "office", "--out", "out", *content, env=env, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    unknown = run("build", "mini", "--printer", "attic", *content, env=env, cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown printer 'attic'; printers: office" in unknown.stderr
    bad = run("printer", "office", "--duplex-offset", "left", env=env, cwd=tmp_path)
    assert bad.returncode == 2 and "expected --duplex-offset DX,DY in mm" in bad.stderr
    assert "Traceback" not in unknown.stderr + bad.stderr
