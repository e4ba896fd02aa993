"""The commands that draw: build, watch and proof."""
from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path
from typing import Optional

import typer

from ..errors import PrintkitError
from . import (ContentOpt, LAYOUT_CHOICES, PAPER_CHOICES, TemplatesOpt, _choices, _complete_game, _complete_lang, _fail,
               _games, _guarded, _problems, _progress, _roots, app, err)


@app.command("build")
@_guarded
def build_cmd(
    target: str = typer.Argument("all", help="'all' or a game id", autocompletion=_complete_game),
    paper: str = _choices("all", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="language of the localised components: 'all' or one of the game's "
                                         "languages (a BCP 47 code: en, fr, es, pt-BR)", autocompletion=_complete_lang),
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
    from ..build import Settings, build
    from ..printers import parse_offset, printer_offset

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
    removed: list[str] = []
    try:
        games = _games(roots, target, drafts=False)
        with _progress() as bar:
            task = bar.add_task("building", total=None, file="")
            written = build(settings, games, lambda f: bar.update(task, advance=1, file=f),
                            planned=lambda total: bar.update(task, total=total), changed=changed, removed=removed)
    except PrintkitError as exc:
        _fail(exc)
        return
    new = [f for f in written if not f.kept]
    err.print(f"[green]wrote {len(new)} files, {sum(f.pages for f in new)} pages[/] ({len(written) - len(new)} unchanged) "
              f"into {out}/ (manifest: {out}/manifest.json)")
    _say_removed(removed)
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
            places = images.splitlines()
            pictures = {found.group(1) for line in places if (found := re.search(r": (\S+) prints at \d+ dpi", line))}
            err.print(f"fit report: images printed under 300 dpi: {len(pictures)} picture(s), "
                      f"at {len(places)} place(s)")


def _say_removed(removed: list[str], shown: int = 5) -> None:
    """One line for the files a build took out of the output folder (a player might have printed them)."""
    if removed:
        names = ", ".join(removed[:shown]) + (", …" if len(removed) > shown else "")
        err.print(f"removed {len(removed)} file(s) a build no longer makes: {names}", markup=False, highlight=False,
                  soft_wrap=True)


@app.command("watch")
@_guarded
def watch_cmd(
    target: str = typer.Argument("all", help="'all' or a game id", autocompletion=_complete_game),
    paper: str = _choices("a4", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="language of the localised components: 'all' or one of the game's",
                             autocompletion=_complete_lang),
    out: Path = typer.Option(Path("output"), help="output folder"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Build, then rebuild on every save: names the files and pieces that changed; after an error, shows it and
    keeps the last good output. Ctrl-C stops."""
    from ..build import Settings, build
    from ..changes import FACES_FILE, saves, watched
    from ..incremental import manifest_shas

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
        removed: list[str] = []
        start = time.perf_counter()
        try:
            written = build(dataclasses.replace(settings, changed_since=since), games, changed=changed, removed=removed)
        except PrintkitError as exc:
            _problems(exc)
            err.print(f"[yellow]kept the last good output in {out}/[/]; waiting for the next save")
            return
        rewritten = [f.path for f in written if shas.get(f.path) != f.sha256]
        err.print(f"[green]built in {time.perf_counter() - start:.1f} s[/]: {len(rewritten)} file(s) changed"
                  + (": " + ", ".join(rewritten[:8]) + (" …" if len(rewritten) > 8 else "") if rewritten else ""))
        _say_removed(removed)
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


@app.command("proof")
@_guarded
def proof_cmd(
    game: str = typer.Argument(..., help="a game id, or 'all'", autocompletion=_complete_game),
    paper: str = _choices("a4", PAPER_CHOICES, "paper size (any case: A4, Letter)"),
    lang: str = typer.Option("all", help="'all' or one of the game's languages: a proof per language",
                             autocompletion=_complete_lang),
    out: Path = typer.Option(Path("output"), help="output folder"),
    scale: int = typer.Option(50, min=10, max=100, help="size of the pieces in % of their real size; a piece too "
                                                        "large for the page (a board) is shrunk further to fit"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Write a proof sheet to check before printing: every distinct piece once, reduced, front and back side by
    side, labelled with its id and the file:line it comes from. Validates as 'build' does; writes
    <out>/<game>/proof/<game>-proof.<paper>.<lang>.pdf, not part of the kit nor of the build's manifest."""
    from ..proof import write_proofs

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


@app.command("preview")
@_guarded
def preview_cmd(
    game: str = typer.Argument(..., help="a game id", autocompletion=_complete_game),
    piece: str = typer.Argument(..., help="<component>/<piece>: its number, name or both "
                                          "(deck/2, deck/bob, deck/002-bob)"),
    lang: Optional[str] = typer.Option(None, help="the language of a localised piece (default: the game's first)",
                                       autocompletion=_complete_lang),
    out: Path = typer.Option(Path("output"), help="output folder: the PNGs go in <out>/<game>/preview/"),
    ink_saver: bool = typer.Option(False, "--ink-saver", help="light backgrounds instead of dark ones"),
    content: Optional[Path] = ContentOpt,
    templates: Optional[Path] = TemplatesOpt,
) -> None:
    """Draw one piece's faces as PNGs, as --images draws them (300 dpi, 1/8 in of bleed), for a quick look while
    designing. Validates the game as 'build' does; not part of the kit nor of the build's manifest."""
    from ..build import validate
    from ..errors import ContentError, UsageError, os_problem
    from ..outputs import preview_images

    roots = _roots(content, templates)
    try:
        games = _games(roots, game)
        if len(games) != 1:
            raise UsageError(f"expected one game to preview a piece of, found {game!r}")
        [found] = validate(roots, games)
        if lang is not None and lang not in found.game.languages:
            raise UsageError(f"expected a language of {game} ({', '.join(found.game.languages)}), found {lang!r}")
        files = preview_images(found, piece, lang, "ink-saver" if ink_saver else "standard")
        for f in files:
            path = out / game / "preview" / f"{f.component}-{Path(f.rel).name}"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.with_name(path.name + ".tmp").write_bytes(f.data)
                path.with_name(path.name + ".tmp").replace(path)
            except OSError as exc:
                raise ContentError([os_problem(path, exc)]) from None
            err.print(f"[green]wrote[/] {path} ({f.px[0]} x {f.px[1]} px, {f.dpi} dpi)", soft_wrap=True)  # a path whole
    except PrintkitError as exc:
        _fail(exc)
