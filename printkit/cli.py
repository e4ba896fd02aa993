"""The `printkit` command: the only place that prints or exits."""
from __future__ import annotations

import dataclasses
import difflib
import importlib
import functools
import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.table import Table

from .build import Settings, build, build_calibration, check_build, validate
from .changes import FACES_FILE, saves, watched
from .staging import manifest_shas
from .printers import parse_offset, printer_offset, save_printer
from .starter import new_game
from . import __version__
from .errors import ContentError, PrintkitError
from .content import combined_schema, file_schemas
from .layout import items_of
from .geometry import PAPERS
from .content import Roots

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Print-and-play kits from YAML: cards, boards, counters and rules sheets for A4 and US Letter.")
err = Console(stderr=True)

PAPER_CHOICES = ("a4", "letter", "all")
LANG_CHOICES = ("en", "fr", "de", "es", "all")  # the languages printkit's own texts (guide, calibration) are in
LAYOUT_CHOICES = ("duplex", "gutterfold")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"printkit {__version__}")
        raise typer.Exit()




def _choice(choices: tuple[str, ...]):
    """An option's value out of `choices`, in any case (`--paper A4`), with the nearest choice suggested."""
    def check(value: str) -> str:
        wanted = value.lower()
        if wanted in choices:
            return wanted
        close = difflib.get_close_matches(wanted, choices, n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise typer.BadParameter(f"expected one of {', '.join(choices)}, found {value!r}{hint}")
    return check


def _choices(default: str, choices: tuple[str, ...], help: str, *flags: str):  # noqa: A002 - typer's own name
    return typer.Option(default, *flags, callback=_choice(choices), metavar="|".join(choices), help=help,
                        autocompletion=lambda incomplete: [c for c in choices if c.startswith(incomplete.lower())])


ContentOpt = typer.Option(None, "--content", help="folder of games to use instead of the shipped ones")
TemplatesOpt = typer.Option(None, "--templates", help="templates folder, looked in before the shipped one")


def _roots(content: Optional[Path], templates: Optional[Path]) -> Roots:
    if content is not None and templates is None and (content.parent / "templates").is_dir():
        templates = content.parent / "templates"
    return Roots.default(content, templates)


def _fail(exc: PrintkitError, writes: bool = True) -> None:
    """Exit 2 with one line per problem; `writes`: the command writes files (validate never does)."""
    _problems(exc, writes)
    raise typer.Exit(2)


def _problems(exc: PrintkitError, writes: bool = True) -> None:
    if isinstance(exc, ContentError):
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        typer.echo(f"{len(exc.problems)} problem(s); nothing was written." if writes else
                   f"{len(exc.problems)} problem(s).", err=True)
    else:
        typer.echo(f"error: {exc}", err=True)


def _typer_exits() -> tuple[type[BaseException], ...]:
    """Typer's own ways out (Exit, Abort, usage errors), wherever this typer keeps them: newer ones carry a
    copy of click's exceptions, older ones use click itself."""
    found: list[type[BaseException]] = [typer.Exit, typer.Abort]
    for name in ("typer._click.exceptions", "click.exceptions"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found += [getattr(module, cls) for cls in ("Exit", "Abort", "ClickException") if hasattr(module, cls)]
    return tuple(found)


_TYPER_EXITS = _typer_exits()
_debug = {"on": False}  # set by the global --debug option for the command that follows it


@app.callback()
def options(debug: bool = typer.Option(False, "--debug", help="show the traceback of an internal error "
                                                              "(a bug in printkit) instead of one line"),
            version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                         help="print printkit's version and exit")) -> None:
    """Print-and-play kits from YAML: cards, boards, counters and rules sheets for A4 and US Letter."""
    _debug["on"] = debug


def _guarded(command: Callable[..., Any]) -> Callable[..., Any]:
    """An error printkit did not foresee is a bug: one line saying so and exit 3, not a traceback
    (unless --debug), so that a user's report starts from the command rather than from a stack."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except _TYPER_EXITS:
            raise  # typer's own exits (Exit and Abort are RuntimeErrors too)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            if _debug["on"]:
                raise
            what = str(exc).splitlines()[0] if str(exc) else ""
            typer.echo(f"internal error: {type(exc).__name__}{': ' + what if what else ''}; this is a bug in "
                       "printkit, not in your files: report this with the command you ran on the project's issue "
                       "tracker (--debug shows the traceback)", err=True)
            raise typer.Exit(3) from None
    return run


def _progress() -> Progress:
    """The build's bar: files written of those planned, time spent and time left (shown on a terminal only)."""
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), TextColumn("{task.fields[file]}"), console=err, transient=True,
                    disable=not err.is_terminal)


def _complete_game(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a game argument: the games of --content (or the shipped ones)."""
    roots = _roots(ctx.params.get("content"), ctx.params.get("templates"))
    return [g for g in ("all", *roots.games()) if g.startswith(incomplete)]


def _games(roots: Roots, target: Optional[str], drafts: bool = True) -> list[str]:
    if target in (None, "all"):
        return roots.games() if drafts else roots.ready_games()
    return [target]


@app.command("build")
@_guarded
def build_cmd(
    target: str = typer.Argument("all", help="'all' or a game id", autocompletion=_complete_game),
    paper: str = _choices("all", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="language of the localised components: 'all' or one of the game's "
                                         "languages (a BCP 47 code: en, fr, es, pt-BR)"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    layout: str = _choices("duplex", LAYOUT_CHOICES, "double-sided pieces: duplex (backs on the next page) or gutterfold"),
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
    changed_since: Optional[str] = typer.Option(None, "--changed-since", metavar="last|GIT_REV",
                                                help="also <game>-changed.pdf: only the pieces whose faces changed "
                                                     "since the last build into this folder, or since a git revision "
                                                     "of the game, ganged on as few sheets as possible"),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, help="processes drawing at once (0: every core; 1: serial)"),
    force: bool = typer.Option(False, "--force", help="draw every file again, even those whose inputs did not change"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Build print-and-play kits into the output folder (only files whose inputs changed are drawn again)."""
    roots = _roots(content, templates)
    settings = Settings(
        roots=roots, out=out, papers=("a4", "letter") if paper == "all" else (paper,), langs=None if lang == "all" else (lang,),
        layout=layout, theme="ink-saver" if ink_saver else "standard", parts=parts, kits=kit, gutterfold=gutterfold, poster=poster,
        pseudo=pseudo, jobs=jobs, force=force)
    try:
        offset = parse_offset(duplex_offset) if duplex_offset else printer_offset(printer) if printer else (0.0, 0.0)
    except PrintkitError as exc:
        _fail(exc)
        return
    settings = dataclasses.replace(settings, duplex_offset=offset, images=images, changed_since=changed_since)
    changed: dict = {}
    try:
        games = _games(roots, target, drafts=False)
        with _progress() as bar:
            task = bar.add_task("building", total=None, file="")
            written = build(settings, games, lambda f: bar.update(task, advance=1, file=f),
                            planned=lambda total: bar.update(task, total=total), changed=changed)
    except PrintkitError as exc:
        _fail(exc)
        return
    new = [f for f in written if not f.kept]
    err.print(f"[green]wrote {len(new)} files, {sum(f.pages for f in new)} pages[/] ({len(written) - len(new)} unchanged) "
              f"into {out}/ (manifest: {out}/manifest.json)")
    for game, pieces in changed.items():
        sheets = [f.path for f in written if f.game == game and f.component == "changed"]
        listed = ", ".join(p.id + (f" ({p.lang})" if p.lang else "") for p in pieces[:20])
        more = f" and {len(pieces) - 20} more" if len(pieces) > 20 else ""
        err.print(f"{game}: {len(pieces)} piece(s) changed since {changed_since}" + (f": {listed}{more}" if pieces else "")
                  + (f"; to reprint: {', '.join(sheets)}" if sheets else ""))
    report = out / "fit-report.md"
    if report.is_file():
        counts = re.findall(r"^## (\S+): (\d+) text", report.read_text(encoding="utf-8"), re.M)
        shrunk = ", ".join(f"{lang} {n}" for lang, n in counts) or "none"
        err.print(f"fit report: texts shrunk below their nominal size: {shrunk} ({report})")
        images = report.read_text(encoding="utf-8").partition("\n# Images printed under 300 dpi\n\n")[2]
        if images:
            err.print(f"fit report: images printed under 300 dpi: {len(images.splitlines())}")


@app.command("proof")
@_guarded
def proof_cmd(
    game: str = typer.Argument(..., help="a game id, or 'all'", autocompletion=_complete_game),
    paper: str = _choices("a4", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="'all' or one of the game's languages: a proof per language"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    scale: int = typer.Option(50, min=10, max=100, help="size of the pieces in % of their real size; a piece too "
                                                        "large for the page (a board) is shrunk further to fit"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Write a proof sheet to check before printing: every distinct piece once, reduced, front and back side by
    side, labelled with its id and the file:line it comes from. Validates as 'build' does; writes
    <out>/<game>/proof/<game>-proof.<paper>.<lang>.pdf, not part of the kit nor of the build's manifest."""
    from .proof import write_proofs

    roots = _roots(content, templates)
    try:
        with _progress() as bar:
            task = bar.add_task("proof", total=None, file="")
            written = write_proofs(roots, _games(roots, game), out, ("a4", "letter") if paper == "all" else (paper,),
                                   None if lang == "all" else (lang,), scale / 100,
                                   lambda f: bar.update(task, advance=1, file=f),
                                   lambda total: bar.update(task, total=total))
    except PrintkitError as exc:
        _fail(exc)
        return
    for f in written:
        err.print(f"[green]wrote[/] {out}/{f.path} ({f.pieces} distinct pieces, {f.pages} page{'s' if f.pages != 1 else ''})")


@app.command("watch")
@_guarded
def watch_cmd(
    target: str = typer.Argument("all", help="'all' or a game id", autocompletion=_complete_game),
    paper: str = _choices("a4", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="language of the localised components: 'all' or one of the game's"),
    out: Path = typer.Option(Path("output"), help="output folder"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Build, then rebuild on every save: names the files and pieces that changed; after an error, shows it and
    keeps the last good output. Ctrl-C stops."""
    roots = _roots(content, templates)
    try:
        games = _games(roots, target, drafts=False)
    except PrintkitError as exc:
        _fail(exc)
        return
    settings = Settings(roots=roots, out=out, papers=("a4", "letter") if paper == "all" else (paper,),
                        langs=None if lang == "all" else (lang,), reprint=False, jobs=0)

    def rebuild() -> None:
        since = "last" if all((out / g / FACES_FILE).is_file() for g in games) else None
        shas = manifest_shas(out)
        changed: dict = {}
        start = time.perf_counter()
        try:
            written = build(dataclasses.replace(settings, changed_since=since), games, changed=changed)
        except PrintkitError as exc:
            _problems(exc)
            err.print(f"[yellow]kept the last good output in {out}/[/]; waiting for the next save")
            return
        rewritten = [f.path for f in written if shas.get(f.path) != f.sha256]
        err.print(f"[green]built in {time.perf_counter() - start:.1f} s[/]: {len(rewritten)} file(s) changed"
                  + (": " + ", ".join(rewritten[:8]) + (" …" if len(rewritten) > 8 else "") if rewritten else ""))
        for game, pieces in changed.items():
            err.print(f"{game}: {len(pieces)} piece(s) changed" + (": " + ", ".join(
                p.id + (f" ({p.lang})" if p.lang else "") for p in pieces[:20]) if pieces else ""))

    rebuild()
    folders = watched(roots, games)
    try:
        for files in saves(folders, out):
            if not files:  # the watch has begun
                err.print(f"watching {', '.join(str(f) for f in folders)} (Ctrl-C stops)")
                continue
            err.print("saved: " + ", ".join(roots.shown(f) for f in files))
            rebuild()
    except KeyboardInterrupt:
        err.print("stopped")


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
    try:
        path = save_printer(name, parse_offset(duplex_offset))
    except PrintkitError as exc:
        _fail(exc)
        return
    err.print(f"[green]saved[/] printer {name!r} in {path}")


@app.command("validate")
@_guarded
def validate_cmd(
    game: Optional[str] = typer.Argument(None, help="a game id; all games when omitted", autocompletion=_complete_game),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Check content as a build would (structure, rules counts and facts, templates, text fit), writing
    nothing. Exit 0 when valid, 2 otherwise."""
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
    try:
        target = new_game(game, folder)
    except PrintkitError as exc:
        _fail(exc)
        return
    content = target.parent
    err.print(f"[green]wrote[/] {target}/: game.yaml, deck.yaml and cards.csv, tokens.yaml, board.yaml, rules.yaml, i18n/")
    err.print(f"next: printkit build {game} --content {content}")


def main() -> None:  # pragma: no cover
    app()
