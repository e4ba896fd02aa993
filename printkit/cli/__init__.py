"""The `printkit` command: the only place that prints or exits.

The app, its shared options and helpers live here; the commands in `making` (build, watch, proof) and
`other` (validate, list, schema, new, calibrate, printer). Each command imports the engine when it runs, so
`printkit --help`, `--version` and shell completion pay only for typer."""
from __future__ import annotations

import difflib
import importlib
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import typer
from rich.console import Console

from .. import __version__
from ..errors import ContentError, PrintkitError

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..content import Roots

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
    from ..content import Roots

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
    # imported here: --help, --version and shell completion do not pay for rich's progress (~20 ms, its spinners)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), TextColumn("{task.fields[file]}"), console=err, transient=True,
                    disable=not err.is_terminal)


def _complete_game(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a game argument: the games of --content (or the shipped ones)."""
    roots = _roots(ctx.params.get("content"), ctx.params.get("templates"))
    return [g for g in ("all", *roots.games()) if g.startswith(incomplete)]


def _complete_lang(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of --lang: the languages of the game named (of every game for 'all')."""
    import yaml

    roots = _roots(ctx.params.get("content"), ctx.params.get("templates"))
    target = ctx.params.get("target") or ctx.params.get("game")
    found: dict[str, None] = {"all": None}
    for game in roots.games() if target in (None, "all") else [target]:
        try:
            head = yaml.safe_load((roots.content / game / "game.yaml").read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            continue
        langs = head.get("languages") if isinstance(head, dict) else None
        found.update(dict.fromkeys(str(lang) for lang in langs) if isinstance(langs, list) else {})
    return [lang for lang in found if lang.lower().startswith(incomplete.lower())]


def _games(roots: Roots, target: Optional[str], drafts: bool = True) -> list[str]:
    if target in (None, "all"):
        return roots.games() if drafts else roots.ready_games()
    return [target]


from . import making, other  # noqa: E402,F401 - each module registers its commands on `app`


def main() -> None:  # pragma: no cover
    app()
