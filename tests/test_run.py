"""RUN: its maps validate under the movement rules, a broken map names the space, every piece
prints by the rules, double-sided pieces register on portrait and landscape sheets."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest

from pdfcheck import PAPERS_MM, blank_border_mm, piece_rects
from printkit.build import Settings, build, validate
from printkit.content.paths import Roots

REPO = Path(__file__).resolve().parents[1]


def test_run_validates_with_its_map_check():
    (content,) = validate(Roots.default(), ["run"])
    assert content.game.checks == ["run-maps"]
    faces = sorted(face["id"] for item in content.components["maps"].items
                   for face in (item.get("front_face"), item.get("back_face")))
    assert faces == ["1A", "1B", "2A", "2B"]


def test_a_map_broken_on_purpose_names_the_unreachable_space(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(REPO / "content" / "run", content / "run")
    maps = content / "run" / "maps.yaml"
    lines = maps.read_text().splitlines()
    # take every fire escape off map 1A: its roof-level features can no longer be reached from the ground
    start = next(i for i, line in enumerate(lines) if "id: 1A" in line)
    end = next(i for i, line in enumerate(lines) if i > start and line.strip().startswith("back_face:"))
    kept = [line for i, line in enumerate(lines) if not (start < i < end and "{at:" in line)]
    maps.write_text("\n".join(kept).replace("      fire_escapes:\n      stashes:", "      fire_escapes: []\n      stashes:")
                    + "\n")
    result = subprocess.run([sys.executable, "-m", "printkit", "validate", "run", "--content", str(content)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    # 1A's roofs all connect by diagonal jumps, so roof stash B3 stays reachable from the roof spawns
    # (2 on F1, 4 on A6) but not from the ground spawns 1 (A1) and 3 (F6)
    text = maps.read_text().splitlines()
    line = next(i for i, l in enumerate(text, 1) if i > start and l.strip().startswith("stashes:"))
    col = text[line - 1].index("B3") + 1
    assert result.stderr.splitlines()[:2] == [
        f"content/run/maps.yaml:{line}:{col}: expected stash B3 (map 1A) reachable from spawn {n}, found no path"
        for n in (1, 3)]
    assert result.stderr.splitlines()[2] == "2 problem(s)."  # validate writes nothing, ever


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_maps_print_as_registered_double_sided_squares(tmp_path, paper):
    out = tmp_path / "out"
    build(Settings(roots=Roots.default(), out=out, papers=(paper,), langs=("en",), kits=False, poster=False,
                   gutterfold=False), ["run"])
    path = out / "run" / paper / "maps.en.pdf"  # localised: one file per language
    size = (180 + 6.35, 180 + 6.35)  # the face paints 1/8 in past the trim
    width = PAPERS_MM[paper][0]
    with pdfplumber.open(str(path)) as pdf:
        assert len(pdf.pages) == 8  # one map per sheet, each followed by its back; 2 copies of each map
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            (fx, fy), = piece_rects(front, *size)
            (bx, by), = piece_rects(back, *size)
            assert abs(bx - (width - fx)) <= 0.2 and abs(by - fy) <= 0.2
        text = "".join(page.extract_text() or "" for page in pdf.pages)
    assert all(f"#{face}" in text for face in ("1A", "1B", "2A", "2B"))
    assert min(blank_border_mm(path)) >= 5.0 - 0.26


def test_landscape_screens_back_up_top_to_bottom(tmp_path):
    out = tmp_path / "out"
    build(Settings(roots=Roots.default(), out=out, papers=("letter",), langs=("en",), kits=False, poster=False,
                   gutterfold=False), ["run"])
    path = out / "run" / "letter" / "screen-runner.en.pdf"
    with pdfplumber.open(str(path)) as pdf:
        front, back = pdf.pages
        assert front.width > front.height  # a tri-fold screen needs a landscape sheet
        height = front.height * 25.4 / 72
        (fx, fy), = piece_rects(front, 258 + 6.35, 184 + 6.35)
        (bx, by), = piece_rects(back, 258 + 6.35, 184 + 6.35)
    assert abs(bx - fx) <= 0.2 and abs(by - (height - fy)) <= 0.2


def test_every_run_file_meets_the_print_rules(run_build):
    """Paper sizes, the 5 mm border, embedded fonts, page boxes, on every file of the RUN build."""
    import json

    from pdfcheck import boxes, fonts, is_paper, page_sizes_mm

    manifest = json.loads((run_build / "manifest.json").read_text())
    assert {f["lang"] for f in manifest["files"] if f["component"] == "kit"} == {"en", "fr", "de"}
    for entry in manifest["files"]:
        path = run_build / entry["path"]
        sizes = page_sizes_mm(path)
        assert len(sizes) == entry["pages"] and all(is_paper(s, entry["paper"]) for s in sizes), entry["path"]
        used = fonts(path)
        assert used and all(embedded for _, embedded in used), (entry["path"], used)
        if entry["paper"] in ("a4", "letter"):
            assert min(blank_border_mm(path, dpi=50)) >= 5.0 - 0.51, entry["path"]
        if entry["kind"] not in ("kit", "sheet"):
            assert all(page["/TrimBox"] for page in boxes(path)), entry["path"]


def test_run_kit_guide_gives_duplex_ranges_and_folding(run_build):
    import pymupdf

    with pymupdf.open(str(run_build / "run" / "a4" / "run-kit.en.pdf")) as doc:
        guide = doc[0].get_text() + doc[1].get_text()
    assert "double-sided (flip on the long edge)" in guide
    assert "Runner screen" in guide and "three-panel screen" in guide


def test_screen_outsides_read_upright_when_the_standing_screen_is_seen_from_behind(run_build):
    """On a landscape sheet turned over top to bottom, the back is printed half a turn round."""
    import pymupdf

    with pymupdf.open(str(run_build / "run" / "a4" / "screen-runner.en.pdf")) as doc:
        def directions(page):
            return {tuple(round(v) for v in line["dir"]) for block in page.get_text("dict")["blocks"]
                    for line in block.get("lines", []) if 45 < line["bbox"][1] and line["bbox"][3] < page.rect.height - 45}
        assert directions(doc[0]) == {(1, 0)}
        assert directions(doc[1]) == {(-1, 0)}
