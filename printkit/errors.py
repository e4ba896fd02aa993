"""Problems with a source position, and the one exception that carries them.

Library code collects `Problem`s and raises `ContentError` once; only the CLI prints them.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import NamedTuple


class Pos(NamedTuple):
    """A place in a content file: path relative to the project root, 1-based line and column.

    A NamedTuple because the loader makes one per YAML key and value: it must be cheap.
    """

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, order=True)
class Problem:
    pos: Pos
    message: str

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"


def describe(value: object) -> str:
    """How a found value reads in a message: quoted strings, plain numbers, 'nothing' for None."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def expected_found(pos: Pos, expected: str, found: object, *, raw: bool = False) -> Problem:
    """The one phrasing of every content error: `expected X, found Y`."""
    shown = found if raw else describe(found)
    return Problem(pos, f"expected {expected}, found {shown}")


class PrintkitError(Exception):
    """Base of printkit's errors; the CLI turns them into exit code 2."""


class ContentError(PrintkitError):
    """One or more problems in content; nothing was written."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple:
        """Pickled with its problems (a worker process of the build raises it to the building one)."""
        return type(self), (self.problems,)


class UsageError(PrintkitError):
    """A command-line request that cannot be met (unknown game, bad option value)."""


def os_problem(path: Path | str, exc: OSError, expected: str = "a file we can write") -> Problem:
    """An operating-system failure on a path, as a problem positioned at the path itself."""
    found = {errno.ENOSPC: "no space left on the disk", errno.EDQUOT: "no space left on the disk (quota)",
             errno.EISDIR: "a folder", errno.ENOTDIR: "a file where a folder belongs",
             errno.EACCES: "permission denied", errno.EPERM: "permission denied",
             errno.EROFS: "a read-only filesystem", errno.EEXIST: "something already there"}
    reason = found.get(exc.errno or 0, (exc.strerror or type(exc).__name__).lower())
    return Problem(Pos(str(path)), f"expected {expected}, found {reason}")
