"""The output folder, caches and environment (issue 15, "Hardened", output half): every failure is a
positioned problem line and exit 2, an internal error one line and exit 3, and the output folder holds
the whole previous build or the whole new one whenever a build stops, killed or not.

The tests run as any user, root included: an unwritable folder or a full disk is simulated by making
the operating system's call fail the way it would, not by permissions root ignores.
"""
from __future__ import annotations

import errno
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from typer.testing import CliRunner

from conftest import FIXTURES, mini_roots
from outputcheck import PROBLEM, copy_tree, killed_at, leftovers, manifest_mismatches, snapshot
from printkit import outputs
from printkit import staging
from printkit.build import Settings, build
from printkit.cli import app
from printkit.write import Writer

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = FIXTURES / "templates"
NARROW = ["--paper", "a4", "--lang", "en", "--no-kit", "--no-poster", "--no-gutterfold"]


def cli(*args: str, content: Path = FIXTURES / "content") -> object:
    return CliRunner().invoke(app, [*args, "--content", str(content), "--templates", str(TEMPLATES)])


def build_cli(out: Path, *extra: str, content: Path = FIXTURES / "content") -> object:
    return cli("build", "mini", "--out", str(out), *NARROW, *extra, content=content)


def refused(result) -> list[str]:
    """The problem lines of a command that failed with exit 2 and no traceback."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert re.fullmatch(r"\d+ problem\(s\); nothing was written\.", lines[-1]), lines
    assert all(PROBLEM.match(line) for line in lines[:-1]), lines
    return lines[:-1]


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A good earlier build, copied by each test that lets a later one fail on top of it."""
    out = tmp_path_factory.mktemp("good") / "out"
    assert build_cli(out).exit_code == 0
    return out


# ---------------------------------------------------------------- the output folder

def test_an_out_that_is_a_file_is_a_problem_at_it(tmp_path):
    out = tmp_path / "out"
    out.write_text("not a folder")
    assert refused(build_cli(out)) == [f"{out}:1:1: expected a folder for the output, found a file"]
    assert out.read_text() == "not a folder"


def test_an_out_below_a_file_is_a_problem_at_it(tmp_path):
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "out"
    assert refused(build_cli(out)) == [f"{out}:1:1: expected a folder we can write for the output, "
                                       "found a file where a folder belongs"]


def test_a_read_only_out_is_a_problem_and_leaves_it_as_it_was(tmp_path, good, monkeypatch):
    out = copy_tree(good, tmp_path / "out")
    before = snapshot(out)
    real = os.mkdir

    def read_only(path, *args, **kwargs):
        if str(path).startswith(str(out)):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", read_only)
    # with nothing changed the build writes nothing and succeeds; a build with files to write stops
    assert build_cli(out).exit_code == 0
    assert refused(build_cli(out, "--force")) == [
        f"{out}:1:1: expected a folder we can write for the output, found permission denied"]
    monkeypatch.undo()
    assert snapshot(out) == before


def test_a_full_disk_is_a_problem_at_the_file_and_leaves_the_earlier_build(tmp_path, good, monkeypatch):
    out = copy_tree(good, tmp_path / "out")
    before = snapshot(out)
    finished = []
    real = Writer.finish

    def full(self):
        if len(finished) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        finished.append(self)
        return real(self)

    monkeypatch.setattr(Writer, "finish", full)
    lines = refused(build_cli(out, "--force", "--jobs", "1"))  # drawn again, in this process (its third file fails)
    assert len(lines) == 1 and re.fullmatch(
        rf"{re.escape(str(out))}/mini/a4/[\w.-]+\.pdf:1:1: expected a file we can write, found no space left on the disk",
        lines[0]), lines
    assert snapshot(out) == before and leftovers(out) == []


def test_a_folder_where_the_fifth_file_belongs_stops_the_build_before_anything_moves(tmp_path, good):
    out = copy_tree(good, tmp_path / "out")
    fifth = sorted(p for p in (out / "mini" / "a4").iterdir())[4]
    fifth.unlink()
    (fifth / "inside").mkdir(parents=True)
    before = snapshot(out)
    assert refused(build_cli(out, "--ink-saver")) == [f"{fifth}:1:1: expected a file we can write, found a folder"]
    assert snapshot(out) == before and leftovers(out) == []


def test_a_rename_failing_at_the_fifth_file_puts_every_earlier_one_back(tmp_path, good, monkeypatch):
    """A path in the way that appears after the check (another program, a race): the commit rolls back."""
    out = copy_tree(good, tmp_path / "out")
    before = snapshot(out)
    moved = []
    real = os.replace

    def fifth_fails(src, dst):
        if str(src).startswith(str(out / ".printkit-stage-")):
            moved.append(dst)
            if len(moved) == 5:
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", fifth_fails)
    lines = refused(build_cli(out, "--layout", "gutterfold"))  # every file new (a file whose bytes stay is not moved)
    monkeypatch.undo()
    assert lines == [f"{moved[4]}:1:1: expected a file we can write, found a folder"]
    assert snapshot(out) == before and leftovers(out) == [] and manifest_mismatches(out) == []


def test_a_manifest_that_is_a_folder_is_a_problem_at_it(tmp_path):
    out = tmp_path / "out"
    (out / "manifest.json").mkdir(parents=True)
    assert refused(build_cli(out)) == [f"{out}/manifest.json:1:1: expected a file we can write, found a folder"]
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json"]


# ---------------------------------------------------------------- all or nothing, killed at every step

@pytest.fixture(scope="module")
def two_builds(tmp_path_factory) -> tuple[Path, Path, Path]:
    """An earlier build (parts), the content of a later one (a text changed, ink-saver, gutterfold copies
    added: files replaced and files new), and that later build made without a kill, on a copy."""
    base = tmp_path_factory.mktemp("kill")
    old = base / "old"
    assert build_cli(old).exit_code == 0
    content = copy_tree(FIXTURES / "content", base / "content")
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace("Draw a card.", "Draw two cards."))
    new = copy_tree(old, base / "new")
    build(later(content, new), ["mini"])
    return old, new, content


def later(content: Path, out: Path) -> Settings:
    return Settings(roots=mini_roots(content), out=out, papers=("a4",), langs=("en",), kits=False, poster=False,
                    theme="ink-saver")


def test_a_build_killed_at_any_step_leaves_the_whole_old_or_the_whole_new_output(tmp_path, two_builds):
    old, new, content = two_builds
    old_files, new_files = snapshot(old), snapshot(new)
    assert old_files != new_files
    outcomes = []
    step = 1
    while True:
        out = copy_tree(old, tmp_path / "out")
        died = killed_at(step, out, lambda: build(later(content, out), ["mini"]))
        staging.recover(out)
        found = snapshot(out)
        assert found in (old_files, new_files), step
        assert leftovers(out) == [] and manifest_mismatches(out) == [], step
        outcomes.append("new" if found == new_files else "old")
        if not died:
            break
        step += 1
    # every change on the disk was a kill point, through staging, the commit and the clean-up (a file drawn with
    # the bytes it already has is not moved: fewer steps than files drawn)
    assert step > 20 and outcomes[-1] == "new", (step, outcomes)
    assert outcomes == sorted(outcomes, key=lambda o: o == "new")  # old until the commit is done, new after


def test_the_next_build_recovers_a_killed_one_before_it_starts(tmp_path, two_builds):
    old, new, content = two_builds
    for step in range(1, 200):  # the first kill after some new files are in place: the middle of the commit
        out = copy_tree(old, tmp_path / "out")
        assert killed_at(step, out, lambda: build(later(content, out), ["mini"]))
        if (out / staging.JOURNAL).is_file() and snapshot(out).get("mini/a4/deck-gutterfold.pdf"):
            break
    assert '"committing"' in (out / staging.JOURNAL).read_text()
    assert build_cli(out).exit_code == 0  # the earlier build's options: the old output again
    assert snapshot(out) == snapshot(old) and leftovers(out) == []


# ---------------------------------------------------------------- home, caches, internal errors

def run_cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit.cli_main", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)


def test_home_that_is_a_file_turns_the_cache_off_and_the_printer_profile_into_a_problem(tmp_path):
    home = tmp_path / "home"
    home.write_text("")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "", "PRINTKIT_CACHE": ""}
    args = ["build", "mini", "--content", str(FIXTURES / "content"), "--templates", str(TEMPLATES),
            "--out", str(tmp_path / "out"), *NARROW]
    done = run_cli(*args, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    printer = run_cli(*args, "--printer", "office", cwd=tmp_path, env=env)
    assert printer.returncode == 2 and "Traceback" not in printer.stderr
    assert printer.stderr.splitlines()[0] == f"{home}:1:1: expected a folder for the printer profiles, found a file"
    saved = run_cli("printer", "office", "--duplex-offset", "1,1", cwd=tmp_path, env=env)
    assert saved.returncode == 2 and saved.stderr.splitlines()[0] == printer.stderr.splitlines()[0]


def test_a_cache_folder_that_is_a_file_or_cannot_be_written_is_simply_not_used(tmp_path, monkeypatch):
    from printkit.content import cache

    (tmp_path / "cache").write_text("")
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    assert cache.cache_dir() is None
    assert build_cli(tmp_path / "a").exit_code == 0
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "unwritable"))
    real = Path.open

    def unwritable(self, mode="r", *args, **kwargs):
        if "unwritable" in str(self) and "w" in mode:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", unwritable)
    assert build_cli(tmp_path / "b").exit_code == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_an_internal_error_is_one_line_and_exit_3_and_debug_shows_it(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(outputs, "build_game", broken)
    result = build_cli(tmp_path / "out")
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert result.stderr.splitlines() == [
        "internal error: RuntimeError: a bug; this is a bug in printkit, not in your files: report this with the "
        "command you ran on the project's issue tracker (--debug shows the traceback)"]
    assert leftovers(tmp_path / "out") == []
    debug = CliRunner().invoke(app, ["--debug", "build", "mini", "--out", str(tmp_path / "out"), *NARROW,
                                     "--content", str(FIXTURES / "content"), "--templates", str(TEMPLATES)])
    assert isinstance(debug.exception, RuntimeError) and debug.exit_code == 1


# ---------------------------------------------------------------- validate's verdict is build's

def test_validate_reports_a_template_error_and_an_overflow_as_build_does(tmp_path):
    content = copy_tree(FIXTURES / "content", tmp_path / "content")
    templates = copy_tree(TEMPLATES, tmp_path / "templates")
    deck = content / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace('text: "Draw a card."', 'text: "' + " ".join(["overflowing"] * 120) + '"'))
    front = templates / "mini" / "disc.svg.j2"
    front.write_text(front.read_text().replace("</svg>", "{{ item.nothing_here.deeper }}</svg>"))
    out = tmp_path / "out"
    args = ["--content", str(content), "--templates", str(templates)]
    built = CliRunner().invoke(app, ["build", "mini", "--out", str(out), *args])
    checked = CliRunner().invoke(app, ["validate", "mini", *args])
    assert built.exit_code == checked.exit_code == 2
    problems = built.stderr.splitlines()[:-1]
    assert any(" to fit " in p for p in problems) and any("disc.svg.j2" in p for p in problems), problems
    assert checked.stderr.splitlines() == problems + [f"{len(problems)} problem(s)."]
    assert not any(out.rglob("*.pdf"))


def test_validate_writes_nothing_and_says_valid(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "mini", "--content", str(FIXTURES / "content"),
                                      "--templates", str(TEMPLATES)])
    assert result.exit_code == 0 and result.stdout.startswith("mini: valid")
    assert "written" not in result.output
    assert list(tmp_path.iterdir()) == []  # not even the default output folder


# ---------------------------------------------------------------- dependencies

def test_reportlab_is_pinned_below_its_next_major_version_and_the_installed_one_fits():
    """draw/pdftext.py uses ReportLab internals: a new major version must be tried before it is allowed."""
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pin = next(Requirement(d) for d in deps if Requirement(d).name == "reportlab")
    uppers = [s for s in pin.specifier if s.operator == "<"]
    assert uppers, f"expected an upper bound on reportlab, found {pin}"
    installed = importlib.metadata.version("reportlab")
    assert pin.specifier.contains(installed), (str(pin), installed)
    assert int(uppers[0].version.split(".")[0]) == int(installed.split(".")[0]) + 1


def test_a_second_build_into_a_folder_being_written_stops_and_changes_nothing(tmp_path, good):
    """A build starting while another writes into the same folder would roll back its commit: it stops."""
    import os

    from printkit.incremental import hold

    out = copy_tree(good, tmp_path / "out")
    before = snapshot(out)
    held = hold(out)  # the other build, staging
    try:
        assert refused(build_cli(out, "--force")) == [
            f"{out}:1:1: expected an output folder no other build is writing into, found one running: wait for it "
            "to finish, or build into another --out"]
        assert snapshot(out) == before and leftovers(out) == []
    finally:
        os.close(held)
    assert build_cli(out, "--force").exit_code == 0  # the folder is free again
