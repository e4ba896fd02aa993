"""The commands that check, list, describe or set up: validate, list, schema, new, calibrate, printer."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..errors import PrintkitError
from . import (LANG_CHOICES, PAPER_CHOICES, ContentOpt, TemplatesOpt, _choices, _complete_game, _fail, _games, _guarded,
               _roots, app, err)


@app.command("validate")
@_guarded
def validate_cmd(
    game: Optional[str] = typer.Argument(None, help="a game id; all games when omitted", autocompletion=_complete_game),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Check content as a build would (structure, rules counts and facts, templates, text fit), writing
    nothing. Exit 0 when valid, 2 otherwise."""
    from ..build import check_build

    roots = _roots(content, templates)
    try:
        contents = check_build(roots, _games(roots, game))
    except PrintkitError as exc:
        _fail(exc, writes=False)
        return
    for c in contents:
        typer.echo(f"{c.id}: valid ({len(c.game.rules)} rules, {len(c.game.facts)} facts)")


@app.command("list")
@_guarded
def list_cmd(content: Optional[Path] = ContentOpt, templates: Optional[Path] = TemplatesOpt) -> None:
    """Games, their components and piece counts."""
    from rich.table import Table

    from ..build import validate
    from ..geometry import PAPERS
    from ..layout import items_of

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
@_guarded
def schema_cmd(out: Optional[Path] = typer.Option(None, "--out", help="write one <kind>.schema.json per file kind "
                                                  "into this folder, for editors, instead of printing them")) -> None:
    """JSON Schema of game.yaml, of every component kind and of i18n catalogs, for editors."""
    from ..content import combined_schema, file_schemas

    if out is None:
        typer.echo(json.dumps(combined_schema(), indent=2, ensure_ascii=False))
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, schema in file_schemas().items():
        (out / name).write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    err.print(f"[green]wrote[/] {len(file_schemas())} schemas into {out}/ (see docs/content-format.md, 'Editors')")


@app.command("new")
@_guarded
def new_cmd(
    game: str = typer.Argument(..., help="the new game's id (letters, digits, -): its folder's name"),
    folder: Path = typer.Option(Path("."), "--dir", help="where to write content/GAME/"),
) -> None:
    """Start a new game that builds as it is: a deck from a CSV, tokens, a board, rules in English and French."""
    from ..starter import new_game

    try:
        target = new_game(game, folder)
    except PrintkitError as exc:
        _fail(exc)
        return
    content = target.parent
    err.print(f"[green]wrote[/] {target}/: game.yaml, deck.yaml and cards.csv, tokens.yaml, board.yaml, rules.yaml, i18n/")
    err.print(f"next: printkit build {game} --content {content}")


@app.command("calibrate")
@_guarded
def calibrate_cmd(
    paper: str = _choices("a4", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = _choices("en", LANG_CHOICES, "language of the instructions"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    duplex_offset: Optional[str] = typer.Option(None, "--duplex-offset", help="DX,DY in mm: check a correction"),
    printer: Optional[str] = typer.Option(None, "--printer", help="a printer profile saved with 'printkit printer'"),
) -> None:
    """Write the duplex calibration sheet: print it double-sided and read the offset through the paper."""
    from ..build import build_calibration
    from ..printers import parse_offset, printer_offset

    papers = ("a4", "letter") if paper == "all" else (paper,)
    langs = ("en", "fr", "de", "es") if lang == "all" else (lang,)
    try:
        offset = parse_offset(duplex_offset) if duplex_offset else printer_offset(printer) if printer else (0.0, 0.0)
        for p in papers:
            for lg in langs:
                written = build_calibration(out, p, lg, offset)
                err.print(f"[green]wrote[/] {out}/{written.path}")
    except PrintkitError as exc:
        _fail(exc)


@app.command("printer")
@_guarded
def printer_cmd(
    name: str = typer.Argument(..., help="a name for this printer"),
    duplex_offset: str = typer.Option(..., "--duplex-offset", help="DX,DY in mm read from the calibration sheet"),
) -> None:
    """Save a printer's duplex offset under a name, for 'printkit build --printer NAME'."""
    from ..printers import parse_offset, save_printer

    try:
        path = save_printer(name, parse_offset(duplex_offset))
    except PrintkitError as exc:
        _fail(exc)
        return
    err.print(f"[green]saved[/] printer {name!r} in {path}")
