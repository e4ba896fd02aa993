"""Reprint only what changed: every build keeps a fingerprint of each piece's faces; `--changed-since last`
or `--changed-since GIT_REV` adds one PDF with only the pieces whose faces changed, every copy of each,
ganged, and names them by piece id."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pymupdf as fitz
import pytest

from pdfcheck import is_paper, page_sizes_mm


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def build(root: Path, *extra: str) -> subprocess.CompletedProcess:
    return cli("build", "demo", "--content", "content", "--out", "out", "--paper", "a4", "--no-gutterfold", *extra,
               cwd=root)


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("starter")
    assert cli("new", "demo", cwd=root).returncode == 0
    return root


@pytest.fixture()
def demo(starter: Path, tmp_path: Path) -> Path:
    shutil.copytree(starter / "content", tmp_path / "content")
    first = build(tmp_path)
    assert first.returncode == 0, first.stderr
    return tmp_path


def words(pdf: Path) -> list[str]:
    return [w[4] for page in fitz.open(str(pdf)) for w in page.get_text("words")]


def csv_rows(root: Path) -> list[str]:
    return (root / "content" / "demo" / "cards.csv").read_text(encoding="utf-8").splitlines()


def test_one_edited_card_is_the_only_piece_on_the_reprint_sheet(demo):
    cards = demo / "content" / "demo" / "cards.csv"
    rows = csv_rows(demo)
    edited = next(r for r in rows[1:] if r.startswith("Run,"))
    copies = int(edited.split(",")[-2])
    cards.write_text(cards.read_text(encoding="utf-8").replace("Run,", "Sprint,", 1), encoding="utf-8")
    result = build(demo, "--changed-since", "last")
    assert result.returncode == 0, result.stderr
    assert "demo: 1 piece(s) changed since last: deck/001-sprint" in result.stderr
    sheet = demo / "out" / "demo" / "a4" / "demo-changed.pdf"  # the deck prints the same in every language: one file
    assert sheet.is_file() and not (demo / "out" / "demo" / "a4" / "demo-changed.en.pdf").exists()
    found = words(sheet)
    assert found.count("Sprint") == copies
    others = [r.split(",")[0] for r in rows[1:] if r and not r.startswith(("Run,", " ", '"')) and "," in r]
    assert others and not any(name in found for name in others)
    assert all(is_paper(size, "a4") for size in page_sizes_mm(sheet)) and len(page_sizes_mm(sheet)) == 2  # front, back
    kit_words = words(demo / "out" / "demo" / "a4" / "demo-kit.en.pdf")
    assert kit_words.count("Sprint") == copies  # the kit has it too, of course


def test_a_build_with_nothing_changed_lists_nothing_and_keeps_the_fingerprints_file(demo):
    kept = demo / "out" / "demo" / ".printkit-faces.json"
    before = kept.stat().st_mtime_ns
    result = build(demo, "--changed-since", "last")
    assert result.returncode == 0, result.stderr
    assert "demo: 0 piece(s) changed since last" in result.stderr
    assert not any((demo / "out" / "demo" / "a4").glob("demo-changed*"))
    assert kept.stat().st_mtime_ns == before


def test_a_colour_changed_since_a_git_revision_names_those_tokens(demo):
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=demo, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.email=t@t", "-c", "user.name=t", "add", "content")
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "first")
    tokens = demo / "content" / "demo" / "tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("#c62828", "#6a1b9a"), encoding="utf-8")
    result = build(demo, "--changed-since", "HEAD")
    assert result.returncode == 0, result.stderr
    assert "demo: 1 piece(s) changed since HEAD: tokens/002-5" in result.stderr
    sheet = demo / "out" / "demo" / "a4" / "demo-changed.pdf"
    assert words(sheet).count("5") >= 6  # the six "5" tokens, all of them


def test_an_unknown_revision_or_no_earlier_build_is_a_clear_error(demo, tmp_path):
    result = build(demo, "--changed-since", "nosuchrev")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "expected 'last' or a git revision" in result.stderr and "'nosuchrev'" in result.stderr
    fresh = cli("build", "demo", "--content", "content", "--out", "elsewhere", "--paper", "a4", "--changed-since",
                "last", cwd=demo)
    assert fresh.returncode == 2 and "build demo once without --changed-since" in fresh.stderr
    assert not (demo / "elsewhere" / "demo").exists()
