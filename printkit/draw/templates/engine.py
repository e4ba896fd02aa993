"""The Jinja side of templates: the sandboxed environment of a component's template folders, its loader
(never outside those folders, every file UTF-8) and undefined values, and a failure to load or render
placed at the template line it happened on.

Imported on the first render (render.py), not with the package: Jinja costs ~30 ms to import, which a
build with nothing to draw, or a command that draws nothing, does not pay.
"""
from __future__ import annotations

import difflib
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SecurityError

from ...content import template_inside
from ...errors import Pos, Problem
from .render import HEX_HELPERS, TemplateProblem, TemplateSet
from .sandbox import Sandbox, sandbox_globals
from .sourcemap import frame_line


class Undecodable(jinja2.TemplateError):
    """A template file that cannot be read (not UTF-8 text, or a link out of its folder): where."""

    def __init__(self, filename: str, line: int, col: int, byte: int, message: str = ""):
        super().__init__(message or f"expected UTF-8 text, found the byte 0x{byte:02x}")
        self.filename, self.line, self.col = filename, line, col


class _Loader(jinja2.FileSystemLoader):
    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        if not template_inside(tuple(Path(f) for f in self.searchpath), template):
            # a template folder downloaded with someone's game must not read the rest of the disk
            for folder in self.searchpath:
                file = Path(folder, *template.split("/"))
                if file.is_symlink() or file.exists():
                    raise Undecodable(os.path.normpath(file), 1, 1, 0, "expected a template inside its template "
                                      f"folder, found a link to {os.path.realpath(file)}")
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError:
            for folder in self.searchpath:
                file = Path(folder, *template.split("/"))
                if file.is_file():
                    raise _undecodable(file) from None
            raise


def _undecodable(file: Path) -> Undecodable:
    data = file.read_bytes()
    try:
        data.decode("utf-8")
        bad = len(data)
    except UnicodeDecodeError as exc:
        bad = exc.start
    line_start = data.rfind(b"\n", 0, bad) + 1
    col = len(data[line_start:bad].decode("utf-8", "replace")) + 1
    return Undecodable(os.path.normpath(file), data.count(b"\n", 0, bad) + 1, col, data[bad] if bad < len(data) else 0)


class _Missing(str):
    """An undefined value's message that knows the names its mapping did have, for a "did you mean"."""

    known: list[str]
    name: str


class _Undefined(jinja2.StrictUndefined):
    """A value a template uses and was not given."""

    @property
    def _undefined_message(self) -> str:
        text = super()._undefined_message
        if isinstance(self._undefined_obj, dict) and isinstance(self._undefined_name, str):
            missing = _Missing(text)
            missing.known, missing.name = sorted(str(k) for k in self._undefined_obj), self._undefined_name
            return missing
        return text


@lru_cache(maxsize=64)
def environment(folders: tuple[Path, ...]) -> jinja2.Environment:
    env = Sandbox(
        loader=_Loader([str(f) for f in folders]),
        autoescape=True,
        undefined=_Undefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["fmt"] = lambda v, spec="g": format(v, spec)
    env.globals.clear()
    env.globals.update(sandbox_globals(HEX_HELPERS))
    return env


def placed_failure(tpl: TemplateSet, name: str, exc: Exception) -> TemplateProblem:
    """A failure to load or render, at the template line it happened on."""
    if isinstance(exc, Undecodable):
        return TemplateProblem(str(exc), [Problem(Pos(tpl.shown(exc.filename), exc.line, exc.col), str(exc))])
    where: tuple[str, int] | None
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.filename:
        where = (exc.filename, exc.lineno)
    else:
        where = frame_line(exc, tpl.is_template)
    if where is None:
        if isinstance(exc, jinja2.TemplateNotFound) and exc.name == name:
            return TemplateProblem(f"expected template {name!r} in {tpl.looked or 'the template folders'}, found none")
        file = next((f / name for f in tpl.folders if (f / name).is_file()), Path(name))
        where = (os.path.normpath(file), 1)
    message = _message(exc)
    return TemplateProblem(message, [Problem(Pos(tpl.shown(where[0]), where[1], _column(where, exc)), message)])


def _column(where: tuple[str, int], exc: Exception) -> int:
    """The column of the name an undefined value was asked by, when the line holds it once; else 1."""
    named = re.search(r"has no attribute '(\w+)'|^'(\w+)' is undefined|access to attribute '(\w+)'", str(exc)) \
        if isinstance(exc, (jinja2.UndefinedError, SecurityError)) else None
    if named is None:
        return 1
    try:
        line = Path(where[0]).read_text(encoding="utf-8").splitlines()[where[1] - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return 1
    found = list(re.finditer(rf"(?<![\w'\"]){re.escape(next(g for g in named.groups() if g))}\b", line))
    return found[0].start() + 1 if len(found) == 1 else 1


def _message(exc: Exception) -> str:
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return f"expected valid template syntax, found {exc.message}"
    if isinstance(exc, SecurityError):
        return f"expected only what the template sandbox allows, found {exc.message or exc}"
    if isinstance(exc, jinja2.UndefinedError) and isinstance(exc.message, _Missing):
        missing = exc.message
        close = difflib.get_close_matches(missing.name, missing.known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"expected a value it is given ({', '.join(missing.known) or 'none'}), found {missing.name!r}{hint}"
    if isinstance(exc, jinja2.UndefinedError):
        return f"expected every value the template uses, found {exc.message}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"expected template {exc.name!r} in the template folders, found none"
    if isinstance(exc, RecursionError):
        return "expected a template that ends, found endless recursion"
    return f"expected the template to render, found {type(exc).__name__}: {exc}"
