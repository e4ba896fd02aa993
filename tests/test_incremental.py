"""Issue 17, both cores and incremental builds: a build on two processes writes the same bytes as one on a
single process; a rebuild with nothing changed writes nothing (every mtime as it was); editing one card
rewrites only the files that print it; a deleted or edited output file is drawn again. Measured on the
files themselves (mtimes, sha256, the text pypdf reads), not on what the build says it did."""
from __future__ import annotations

import hashlib
from dataclasses import replace
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import FIXTURES, mini_roots
from outputcheck import copy_tree, leftovers, manifest_mismatches
from printkit import build as build_module
from printkit.build import Settings, build, stale_files
from printkit.cli import app
from printkit.content import Roots

REPO = Path(__file__).resolve().parents[1]


def mtimes(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in sorted(out.rglob("*")) if p.is_file()}


def shas(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*"))
            if p.is_file()}


def rewritten(before: dict[str, int], out: Path) -> set[str]:
    after = mtimes(out)
    return {p for p in after if before.get(p) != after[p]} | {p for p in before if p not in after}


def text_of(pdf: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


def mini(out: Path, content: Path = FIXTURES / "content", **kw) -> Settings:
    return Settings(roots=mini_roots(content), out=out, **kw)


@pytest.fixture(scope="module")
def two_ways(tmp_path_factory) -> tuple[Path, Path]:
    """The mini game, every paper and language, built on one process and on two."""
    base = tmp_path_factory.mktemp("jobs")
    build(mini(base / "one", jobs=1), ["mini"])
    build(mini(base / "two", jobs=2), ["mini"])
    return base / "one", base / "two"


def test_two_processes_write_the_same_bytes_as_one(two_ways):
    one, two = two_ways
    files = shas(one)
    assert len([p for p in files if p.endswith(".pdf")]) == 31
    assert files == shas(two)  # PDFs, manifest, fit report, fingerprints and the build's records
    assert manifest_mismatches(two) == [] and leftovers(two) == []


def test_a_rebuild_with_nothing_changed_writes_nothing(two_ways, tmp_path, monkeypatch):
    out = copy_tree(two_ways[1], tmp_path / "out")
    before = mtimes(out)
    written = build(mini(out, jobs=2), ["mini"])
    assert rewritten(before, out) == set() and leftovers(out) == []
    assert sorted(p.name for p in out.iterdir()) == [".printkit-cache.json", "fit-report.md", "manifest.json", "mini"]
    assert len(written) == 31 and all(f.kept for f in written)
    assert stale_files(mini(out), ["mini"]) == []
    monkeypatch.setattr(build_module, "load_game", lambda *a: pytest.fail("an unchanged game is loaded"))
    assert all(f.kept for f in build(mini(out, jobs=2), ["mini"]))
    monkeypatch.undo()
    # --force draws every file again; their bytes are those on the disk, so still nothing is written
    assert all(f.kept for f in build(mini(out, jobs=2, force=True), ["mini"])) and rewritten(before, out) == set()


def test_a_rebuild_with_nothing_changed_imports_no_engine(two_ways, tmp_path):
    """Nothing to draw: the build keeps every file without importing ReportLab's drawing, Jinja or layout."""
    out = copy_tree(two_ways[1], tmp_path / "out")
    before = mtimes(out)
    cmd = [sys.executable, "-X", "importtime", "-m", "printkit", "build", "mini", "--out", str(out),
           "--content", str(FIXTURES / "content"), "--templates", str(FIXTURES / "templates")]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "printkit.build" in imported and "printkit.content" in imported
    assert not imported & {"reportlab.pdfgen.canvas", "jinja2", "printkit.draw", "printkit.layout", "printkit.outputs"}
    assert "(31 unchanged)" in result.stderr and rewritten(before, out) == set()
    # the manifest edited by hand: the build stages again (and writes the manifest the build makes)
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "printkit.layout" in result.stderr
    assert (out / "manifest.json").read_bytes() == (two_ways[1] / "manifest.json").read_bytes()


def test_a_deleted_or_edited_output_file_is_drawn_again_and_only_it(two_ways, tmp_path):
    out = copy_tree(two_ways[0], tmp_path / "out")
    good = shas(out)
    (out / "mini/a4/tokens.pdf").unlink()
    (out / "mini/letter/board.pdf").write_bytes(b"%PDF-1.4 edited by hand\n")
    before = mtimes(out)
    assert set(stale_files(mini(out), ["mini"])) == {"mini/a4/tokens.pdf", "mini/letter/board.pdf"}
    build(mini(out, jobs=1), ["mini"])
    assert rewritten(before, out) == {"mini/a4/tokens.pdf", "mini/letter/board.pdf"}
    assert shas(out) == good


def test_editing_one_card_rewrites_only_the_files_that_print_it(two_ways, tmp_path):
    content = copy_tree(FIXTURES / "content", tmp_path / "content")
    out = copy_tree(two_ways[1], tmp_path / "out")
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace("Draw a card.", "Draw two cards."))
    before = mtimes(out)
    stale = set(stale_files(mini(out, content), ["mini"]))
    build(mini(out, content, jobs=2), ["mini"])
    entries = json.loads((out / "manifest.json").read_text())["files"]
    printing = {e["path"] for e in entries if e["component"] in ("deck", "kit")}
    assert len(printing) == 10  # deck and its gutterfold copy, three kits, per paper
    assert stale == printing  # drawn again: only those; the other 21 files are not even drawn
    assert rewritten(before, out) == printing | {"manifest.json", ".printkit-cache.json", "mini/.printkit-faces.json"}
    assert all("Draw two cards." in text_of(out / p) for p in printing if "/deck" in p)
    assert manifest_mismatches(out) == [] and leftovers(out) == []
    build(mini(tmp_path / "cold", content, jobs=1), ["mini"])
    assert shas(tmp_path / "cold") == shas(out)  # the same bytes as a first build of the edited game, every file


def test_a_problem_found_in_a_worker_is_a_positioned_line_and_exit_2(tmp_path):
    content = copy_tree(FIXTURES / "content", tmp_path / "content")
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace('text: "Draw a card."', 'text: "' + " ".join(["overflowing"] * 120) + '"'))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", "mini", "--out", str(out), "--jobs", "2", "--paper", "a4",
                                      "--content", str(content), "--templates", str(FIXTURES / "templates")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert re.fullmatch(r"\d+ problem\(s\); nothing was written\.", lines[-1])
    assert lines[:-1] and all(line.startswith("content/mini/deck.yaml:") for line in lines[:-1]), lines
    assert not out.exists() or [p for p in out.rglob("*") if p.is_file()] == []


def test_editing_one_rep_detect_card_rebuilds_only_the_files_containing_that_card(tmp_path):
    """The shipped Rep-Detect, one paper and language, no gutterfold copies: one card of the draw deck reworded."""
    content = tmp_path / "content"
    shutil.copytree(REPO / "content" / "rep-detect", content / "rep-detect")
    settings = Settings(roots=Roots.default(content, REPO / "templates"), out=tmp_path / "out", papers=("a4",),
                        langs=("en",), gutterfold=False, jobs=2)
    build(settings, ["rep-detect"])
    deck = content / "rep-detect" / "draw-deck.yaml"
    text = deck.read_text(encoding="utf-8")
    assert 'text: "+1 Investigation at The Snake Pit."' in text
    deck.write_text(text.replace('text: "+1 Investigation at The Snake Pit."', 'text: "+1 Investigation at the Pit."'),
                    encoding="utf-8")
    before = mtimes(settings.out)
    stale = set(stale_files(settings, ["rep-detect"]))
    build(settings, ["rep-detect"])
    entries = json.loads((settings.out / "manifest.json").read_text())["files"]
    printing = {e["path"] for e in entries if e["component"] in ("draw-deck", "kit")}
    assert printing == {"rep-detect/a4/draw-deck.en.pdf", "rep-detect/a4/rep-detect-kit.en.pdf"}
    assert stale == printing
    assert len(entries) > 8  # the board, the other decks and markers, the rules: all left as they were
    ours = {"manifest.json", ".printkit-cache.json", "rep-detect/.printkit-faces.json", "fit-report.md"}
    assert rewritten(before, settings.out) - ours == printing
    assert all("Investigation at the Pit." in text_of(settings.out / p) for p in printing)


def test_piece_images_are_kept_while_their_game_is_unchanged(tmp_path, monkeypatch):
    """--images: a second build with nothing changed rasterises nothing and rewrites no image; an edited card
    draws the game's images again."""
    from printkit.layout import export

    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", content)
    out = tmp_path / "out"
    settings = mini(out, content, papers=("a4",), langs=("en",), images=True)
    first = build(settings, ["mini"])
    images = {f.path for f in first if f.kind in ("image", "images-zip") or f.path.split("/")[1] == "tts"}
    assert len(images) > 10
    before = mtimes(out)
    rasterise = export.rasterise
    monkeypatch.setattr(export, "rasterise", lambda *a: pytest.fail("an unchanged game's images are drawn again"))
    second = build(settings, ["mini"])
    assert all(f.kept for f in second) and {f.path for f in second} >= images
    assert rewritten(before, out) == set()
    monkeypatch.setattr(export, "rasterise", rasterise)
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Draw a card.", "Draw two cards."), encoding="utf-8")
    third = {f.path: f for f in build(settings, ["mini"])}
    redrawn = {p for p, f in third.items() if not f.kept}
    assert "mini/images/deck/002-bob-front.png" in redrawn and "mini/images/mini-images.zip" in redrawn
    assert "mini/images/deck/001-ada-front.png" not in redrawn  # drawn again, the same bytes: not rewritten
    called = []
    monkeypatch.setattr(export, "rasterise", lambda *a: called.append(1) or rasterise(*a))
    build(replace(settings, force=True), ["mini"])
    assert called  # --force draws the images again too


def test_a_build_that_keeps_everything_still_removes_an_old_reprint(tmp_path):
    """Nothing to draw, but the reprint of an earlier --changed-since build is no longer made: it goes."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", content)
    out = tmp_path / "out"
    settings = mini(out, content, papers=("a4",), langs=("en",))
    build(settings, ["mini"])
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Draw a card.", "Draw two cards."), encoding="utf-8")
    build(replace(settings, changed_since="last"), ["mini"])
    assert (out / "mini" / "a4" / "mini-changed.pdf").is_file()
    removed: list[str] = []
    build(settings, ["mini"], removed=removed)
    assert removed == ["mini/a4/mini-changed.pdf"] and not (out / "mini" / "a4" / "mini-changed.pdf").exists()
    before = mtimes(out)
    assert all(f.kept for f in build(settings, ["mini"])) and rewritten(before, out) == set()


def test_a_failed_commit_leaves_the_output_folder_free(tmp_path, monkeypatch):
    """A disk that fails while the manifest is staged: the build stops, nothing is left staged, and the next build
    (a watch's, in the same process) is let in."""
    from printkit import staging

    out = tmp_path / "out"
    real = staging.Stage._stage_text

    def full(self, rel, text):
        if rel == "manifest.json":
            raise OSError(28, "No space left on device")
        return real(self, rel, text)

    monkeypatch.setattr(staging.Stage, "_stage_text", full)
    with pytest.raises(OSError):
        build(mini(out, papers=("a4",), langs=("en",)), ["mini"])
    assert not any(p.name.startswith(".printkit-stage-") for p in out.iterdir())
    monkeypatch.undo()
    assert build(mini(out, papers=("a4",), langs=("en",)), ["mini"])


def test_a_build_of_fewer_games_writes_their_own_fit_report(tmp_path):
    """The fit report is the last build's: after both fixture games, a build of one reports that one only (it
    keeps every file, but it is not the build that wrote the report on the disk)."""
    out = tmp_path / "out"
    build(mini(out, papers=("a4",), langs=("en",)), ["hexmini", "mini"])
    assert json.loads((out / ".printkit-cache.json").read_text())["built"] == ["hexmini", "mini"]
    assert all(f.kept for f in build(mini(out, papers=("a4",), langs=("en",)), ["mini"]))
    assert json.loads((out / ".printkit-cache.json").read_text())["built"] == ["mini"]
    assert "hexmini" not in (out / "fit-report.md").read_text(encoding="utf-8")


def test_many_games_draw_one_unit_each_and_few_one_per_language_with_the_same_bytes(tmp_path, monkeypatch):
    names: list[list[str]] = []
    run_units = build_module.run_units

    def watched(units, *args, **kwargs):
        names.append([u.name for u in units if not u.changes])
        return run_units(units, *args, **kwargs)

    monkeypatch.setattr(build_module, "run_units", watched)
    games = ["mini", "hexmini"]
    build(mini(tmp_path / "whole", papers=("a4",), jobs=1), games)  # 2 games >= 2 x 1 core: a unit per game
    build(mini(tmp_path / "split", papers=("a4",), jobs=2), games)  # 2 games < 2 x 2 cores: a unit per language
    whole, split = names
    assert [n.split(":")[:2] for n in whole] == [["mini", "*"], ["hexmini", "*"]]
    assert {n.split(":")[1] for n in split} >= {"en", "fr", "de"} and len(split) > len(whole)
    assert shas(tmp_path / "whole") == shas(tmp_path / "split")


def _waits_to_be_heard(unit: str) -> bool:
    """A unit that tells the building process it started, and runs until that was heard (or 20 s pass)."""
    import time

    from printkit.incremental import context, tell

    marker = context() / f"heard-{unit}"
    tell(unit)
    for _ in range(400):
        if marker.exists():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("jobs", [1, 2])
def test_what_a_running_unit_tells_is_heard_before_it_ends(tmp_path, jobs):
    from printkit.incremental import run_units

    heard: list[str] = []

    def hear(unit: str) -> None:
        heard.append(unit)
        (tmp_path / f"heard-{unit}").touch()

    ended = run_units(["a", "b", "c"], _waits_to_be_heard, jobs, tmp_path, lambda i, r: None, heard=hear)
    assert ended == [True, True, True] and sorted(heard) == ["a", "b", "c"]


def test_the_progress_bar_hears_every_file_once(tmp_path):
    heard: list[str] = []
    planned: list[int | None] = []
    written = build(mini(tmp_path / "out", jobs=2), ["mini"], heard.append, planned=planned.append)
    assert len(heard) == len(set(heard)) == planned[0] == len(written) > 20
