"""The `printkit` command: the only place that prints or exits."""
from __future__ import annotations

import dataclasses
import json
import re
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from .build import Settings, build, build_calibration, validate
from .printers import parse_offset, printer_offset, save_printer
from .errors import ContentError, PrintkitError
from .content import KINDS, Game
from .layout import items_of
from .geometry import PAPERS
from .content import Roots

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Print-and-play kits from YAML: cards, boards, counters and rules sheets for A4 and US Letter.")
err = Console(stderr=True)


class PaperChoice(str, Enum):
    a4 = "a4"
    letter = "letter"
    all = "all"


class LangChoice(str, Enum):
    en = "en"
    fr = "fr"
    de = "de"
    es = "es"
    all = "all"


class LayoutChoice(str, Enum):
    duplex = "duplex"
    gutterfold = "gutterfold"


ContentOpt = typer.Option(None, "--content", help="folder of games to use instead of the shipped ones")
TemplatesOpt = typer.Option(None, "--templates", help="folder of templates to use instead of the shipped ones")


def _roots(content: Optional[Path], templates: Optional[Path]) -> Roots:
    if content is not None and templates is None and (content.parent / "templates").is_dir():
        templates = content.parent / "templates"
    return Roots.default(content, templates)


def _fail(exc: PrintkitError) -> None:
    if isinstance(exc, ContentError):
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        typer.echo(f"{len(exc.problems)} problem(s); nothing was written.", err=True)
    else:
        typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(2)


def _games(roots: Roots, target: Optional[str], drafts: bool = True) -> list[str]:
    if target in (None, "all"):
        return roots.games() if drafts else roots.ready_games()
    return [target]


@app.command("build")
def build_cmd(
    target: str = typer.Argument("all", help="'all' or a game id"),
    paper: PaperChoice = typer.Option(PaperChoice.all, help="paper size"),
    lang: str = typer.Option("all", help="language of the localised components: 'all' or one of the game's "
                                         "languages (a BCP 47 code: en, fr, es, pt-BR)"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    layout: LayoutChoice = typer.Option(LayoutChoice.duplex, help="double-sided pieces: duplex (backs on the next page) or gutterfold"),
    ink_saver: bool = typer.Option(False, "--ink-saver", help="light backgrounds instead of dark ones: far less ink on a home printer"),
    parts: bool = typer.Option(True, help="also write one file per component besides each kit"),
    kit: bool = typer.Option(True, help="write the combined print-and-play kit of each game and language"),
    gutterfold: bool = typer.Option(True, help="with parts: also a gutterfold copy of every double-sided part"),
    poster: bool = typer.Option(True, help="also write the one-page poster of each board"),
    pseudo: bool = typer.Option(False, "--pseudo", help="localised components in a pseudo language (qps): every text "
                                                        "40 % longer and accented, to find texts that would overflow"),
    duplex_offset: Optional[str] = typer.Option(None, "--duplex-offset", help="DX,DY in mm (right, down): shift every "
                                                "back page so it registers on this printer; see 'printkit calibrate'"),
    printer: Optional[str] = typer.Option(None, "--printer", help="a printer profile saved with 'printkit printer'"),
    images: bool = typer.Option(False, "--images", help="also every face of every piece as a 300 dpi PNG with 1/8 in "
                                                        "bleed for print services (and a zip of them per game), and "
                                                        "Tabletop Simulator card sheets and saved objects"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Build print-and-play kits into the output folder."""
    roots = _roots(content, templates)
    settings = Settings(
        roots=roots, out=out,
        papers=("a4", "letter") if paper is PaperChoice.all else (paper.value,),
        langs=None if lang == "all" else (lang,),
        layout=layout.value, theme="ink-saver" if ink_saver else "standard", parts=parts, kits=kit, gutterfold=gutterfold, poster=poster,
        pseudo=pseudo,
    )
    try:
        offset = parse_offset(duplex_offset) if duplex_offset else printer_offset(printer) if printer else (0.0, 0.0)
    except PrintkitError as exc:
        _fail(exc)
        return
    settings = dataclasses.replace(settings, duplex_offset=offset, images=images)
    try:
        games = _games(roots, target, drafts=False)
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[file]}"),
                      console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("building", total=None, file="")
            written = build(settings, games, lambda f: bar.update(task, advance=1, file=f))
    except PrintkitError as exc:
        _fail(exc)
        return
    pages = sum(f.pages for f in written)
    err.print(f"[green]wrote {len(written)} files, {pages} pages[/] into {out}/ (manifest: {out}/manifest.json)")
    report = out / "fit-report.md"
    if report.is_file():
        counts = re.findall(r"^## (\S+): (\d+) text", report.read_text(encoding="utf-8"), re.M)
        shrunk = ", ".join(f"{lang} {n}" for lang, n in counts) or "none"
        err.print(f"fit report: texts shrunk below their nominal size: {shrunk} ({report})")


@app.command("calibrate")
def calibrate_cmd(
    paper: PaperChoice = typer.Option(PaperChoice.a4, help="paper size"),
    lang: LangChoice = typer.Option(LangChoice.en, help="language of the instructions"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    duplex_offset: Optional[str] = typer.Option(None, "--duplex-offset", help="DX,DY in mm: check a correction"),
    printer: Optional[str] = typer.Option(None, "--printer", help="a printer profile saved with 'printkit printer'"),
) -> None:
    """Write the duplex calibration sheet: print it double-sided and read the offset through the paper."""
    papers = ("a4", "letter") if paper is PaperChoice.all else (paper.value,)
    langs = tuple(c.value for c in LangChoice if c is not LangChoice.all) if lang is LangChoice.all else (lang.value,)
    try:
        offset = parse_offset(duplex_offset) if duplex_offset else printer_offset(printer) if printer else (0.0, 0.0)
        for p in papers:
            for lg in langs:
                written = build_calibration(out, p, lg, offset)
                err.print(f"[green]wrote[/] {out}/{written.path}")
    except PrintkitError as exc:
        _fail(exc)


@app.command("printer")
def printer_cmd(
    name: str = typer.Argument(..., help="a name for this printer"),
    duplex_offset: str = typer.Option(..., "--duplex-offset", help="DX,DY in mm read from the calibration sheet"),
) -> None:
    """Save a printer's duplex offset under a name, for 'printkit build --printer NAME'."""
    try:
        path = save_printer(name, parse_offset(duplex_offset))
    except PrintkitError as exc:
        _fail(exc)
        return
    err.print(f"[green]saved[/] printer {name!r} in {path}")


@app.command("validate")
def validate_cmd(
    game: Optional[str] = typer.Argument(None, help="a game id; all games when omitted"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Check content: structure, rules counts and rule facts. Exit 0 when valid, 2 otherwise."""
    roots = _roots(content, templates)
    try:
        contents = validate(roots, _games(roots, game))
    except PrintkitError as exc:
        _fail(exc)
        return
    for c in contents:
        typer.echo(f"{c.id}: valid ({len(c.game.rules)} rules, {len(c.game.facts)} facts)")


@app.command("list")
def list_cmd(content: Optional[Path] = ContentOpt, templates: Optional[Path] = TemplatesOpt) -> None:
    """Games, their components and piece counts."""
    roots = _roots(content, templates)
    try:
        contents = validate(roots, roots.games())
    except PrintkitError as exc:
        _fail(exc)
        return
    table = Table("game", "component", "kind", "pieces", "languages")
    for c in contents:
        for comp in c.components.values():
            localised = comp.kind == "sheet"
            table.add_row(c.id, comp.stem, comp.kind, str(items_of(comp, PAPERS["a4"]) if not localised else "—"),
                          ", ".join(c.game.languages) if localised else "—")
    Console().print(table)


@app.command("schema")
def schema_cmd() -> None:
    """JSON Schema of game.yaml and of every component kind, for editors."""
    body = {"game.yaml": Game.model_json_schema(by_alias=True),
            "components": {kind: model.model_json_schema(by_alias=True) for kind, model in KINDS.items()}}
    typer.echo(json.dumps(body, indent=2, ensure_ascii=False))


def main() -> None:  # pragma: no cover
    app()
