"""The command's habits: --version, shell completion, "did you mean", paper names in any case, the
progress count and `schema --out`."""
from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from conftest import FIXTURES
from printkit import __version__
from printkit.cli import _progress, app
from printkit.content.model import KINDS

runner = CliRunner()


def flat(output: str) -> str:
    """Output without the frame and line breaks of rich's error box."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"printkit {__version__}"


def test_shell_completion_is_offered():
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.output and "--show-completion" in result.output
    shown = runner.invoke(app, ["--show-completion", "bash"], prog_name="printkit")
    assert shown.exit_code == 0 and "complete" in shown.output



def test_completion_offers_games_and_option_values():
    def complete(words: str) -> list[str]:
        env = {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1), "_PRINTKIT_COMPLETE": "complete_bash"}
        return runner.invoke(app, [], env=env, prog_name="printkit").output.split()

    assert complete(f"printkit validate --content {FIXTURES / 'content'} m") == ["mini"]
    assert complete("printkit build rep") == ["rep-detect", "replicants"]
    assert complete("printkit build x --paper l") == ["letter"]
    assert complete("printkit build replicants --lang e") == ["en"]  # the game's own languages
    assert complete("printkit build run --lang a") == ["all"]
    assert complete(f"printkit proof mini --content {FIXTURES / 'content'} --lang f") == ["fr"]


def test_paper_names_in_any_case_and_a_near_miss_suggested(tmp_path):
    bad = runner.invoke(app, ["calibrate", "--paper", "A5", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "expected one of a4, letter, all, found 'A5' (did you mean 'a4'?)" in flat(bad.output)
    bad = runner.invoke(app, ["build", "mini", "--layout", "gutterfld", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "did you mean 'gutterfold'?" in flat(bad.output)
    good = runner.invoke(app, ["calibrate", "--paper", "Letter", "--lang", "FR", "--out", str(tmp_path)])
    assert good.exit_code == 0, good.output
    assert (tmp_path / "calibration.letter.fr.pdf").is_file()


def test_unknown_games_and_components_suggest_the_nearest(tmp_path, mini_copy):
    result = runner.invoke(app, ["validate", "mnii", "--content", str(mini_copy), "--templates", str(FIXTURES / "templates")])
    assert result.exit_code == 2 and "unknown game 'mnii'; games: hexmini, mini (did you mean 'mini'?)" in result.output
    game = mini_copy / "mini" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("[deck, tokens,", "[dekc, tokens,"), encoding="utf-8")
    result = runner.invoke(app, ["validate", "mini", "--content", str(mini_copy), "--templates", str(FIXTURES / "templates")])
    assert "expected a component file content/mini/dekc.yaml, found no such file (did you mean 'deck'?)" in result.output
    game.write_text(game.read_text(encoding="utf-8").replace("[dekc, tokens,", "[deck, tokens,")
                    .replace("count: {component: deck, where: {type: red}}", "count: {component: decks, where: {type: red}}"),
                    encoding="utf-8")
    result = runner.invoke(app, ["validate", "mini", "--content", str(mini_copy), "--templates", str(FIXTURES / "templates")])
    assert result.exit_code == 2 and "found 'decks' (did you mean 'deck'?)" in result.output


def test_the_progress_bar_counts_files_and_time_left():
    from rich.progress import MofNCompleteColumn, TimeElapsedColumn, TimeRemainingColumn

    kinds = {type(c) for c in _progress().columns}
    assert {MofNCompleteColumn, TimeElapsedColumn, TimeRemainingColumn} <= kinds


def test_the_planned_count_is_the_files_written(tmp_path):
    from conftest import mini_roots
    from printkit.build import Settings, build

    heard: list[int | None] = []
    written = build(Settings(roots=mini_roots(), out=tmp_path, papers=("a4",), langs=("en",)), ["mini"],
                    planned=heard.append)
    assert heard == [len(written)]


def test_schema_out_writes_a_schema_per_file_kind(tmp_path):
    result = runner.invoke(app, ["schema", "--out", str(tmp_path / "schemas")])
    assert result.exit_code == 0, result.output
    names = {p.name for p in (tmp_path / "schemas").iterdir()}
    assert names == {"game.schema.json", "i18n.schema.json"} | {f"{k}.schema.json" for k in KINDS}
    deck = json.loads((tmp_path / "schemas" / "deck.schema.json").read_text(encoding="utf-8"))
    assert "cards" in deck["properties"] and deck["properties"]["cards"]["description"]
    catalog = json.loads((tmp_path / "schemas" / "i18n.schema.json").read_text(encoding="utf-8"))
    assert catalog["type"] == "object"


def test_help_version_and_completion_do_not_load_the_engine():
    """`printkit --help` (and --version, and every TAB of shell completion) imports typer, not the engine: no
    ReportLab drawing, no pydantic models, no build (issue 17, start-up). (printkit imports ReportLab's bare package,
    under a millisecond, to make its import safe with an odd HOME.)"""
    import subprocess
    import sys

    probe = ("import sys, printkit.cli; from printkit.cli import app; "
             "print(sorted(m for m in ('reportlab.pdfgen', 'reportlab.platypus', 'pydantic', 'printkit.build', 'printkit.draw', 'printkit.content', "
             "'jinja2', 'svglib') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
    helped = subprocess.run([sys.executable, "-X", "importtime", "-m", "printkit", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "build" in helped.stdout
    assert "reportlab.pdfgen" not in helped.stderr and "printkit.build" not in helped.stderr  # -X importtime: every import


def test_the_build_imports_only_what_every_build_uses():
    """`import printkit.build` loads no library that only some builds use (start-up): spreadsheet readers (a game
    with a sheet), Babel (a language code or number), PDFium (--images), svgwrite (a game with standees), platypus (a guide
    or sheet poured), Jinja (a face drawn), svglib (SVG art). A build whose games are all up to date loads none."""
    import subprocess
    import sys

    lazy = ("openpyxl", "odf", "babel", "pypdfium2", "svgwrite", "reportlab.platypus", "jinja2", "svglib")
    probe = f"import sys, printkit.build; print(sorted(m for m in {lazy!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
