"""Where games and templates live: the shipped ones, or a user's own folders."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # the printkit package (this module sits in printkit/content)
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _shipped(name: str) -> Path:
    """Inside a wheel the data sits in printkit/_data; in a source checkout, beside the package."""
    bundled = PACKAGE / "_data" / name
    return bundled if bundled.is_dir() else PACKAGE.parent / name


@dataclass(frozen=True)
class Roots:
    content: Path
    templates: Path

    @classmethod
    def default(cls, content: Path | None = None, templates: Path | None = None) -> "Roots":
        return cls((content or _shipped("content")).resolve(), (templates or _shipped("templates")).resolve())

    def shown(self, file: Path) -> str:
        """A content path as messages print it: relative to the folder holding `content/`. The file's
        own name is kept when it is a link: the message names the file the designer sees."""
        try:
            return (file.parent.resolve() / file.name).relative_to(self.content.parent).as_posix()
        except (ValueError, OSError, RuntimeError):
            return file.as_posix()

    def games(self) -> list[str]:
        if not self.content.is_dir():
            return []
        return sorted(p.name for p in self.content.iterdir() if (p / "game.yaml").is_file())

    def unknown_game(self, game: str) -> str:
        """Why a game is not found: the games there are, the nearest name, and a game folder of that name in
        the current folder that --content would read."""
        import difflib

        known = self.games()
        close = difflib.get_close_matches(game, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        here = Path("content") / game / "game.yaml"
        if here.is_file() and self.content != here.parent.parent.resolve():
            hint += f"; ./content/{game} is here: add --content content"
        return f"unknown game {game!r}; games: {', '.join(known) or 'none'}{hint}"

    def ready_games(self) -> list[str]:
        """The games `build all` builds: every game whose game.yaml is not marked `status: draft`."""
        from ..errors import ContentError
        from .load import load_yaml

        ready = []
        for game in self.games():
            file = self.content / game / "game.yaml"
            try:
                head = load_yaml(file, self.shown(file)) if inside(file, self.content / game) else None
            except ContentError:
                head = None  # a broken game.yaml is built, so that its problems are reported
            if not (isinstance(head, dict) and head.get("status") == "draft"):
                ready.append(game)
        return ready


def inside(file: Path, folder: Path) -> bool:
    """Whether a file, every link followed, lies in the folder: content reached through a link that
    leaves its folder is never read (a game folder may itself be a link; its files stay in it)."""
    try:
        return file.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # RuntimeError: a loop of links
        return False


def template_inside(folders: tuple[Path, ...], name: str) -> bool:
    """Whether the template `name`, as the first of `folders` holding it, lies inside that folder
    (for the template loader: a template linked to a file outside the template folders is refused)."""
    for folder in folders:
        candidate = folder / name
        if candidate.is_file() or candidate.is_symlink():
            return inside(candidate, folder)
    return True  # not found: the loader reports that


def is_safe_name(name: str) -> bool:
    """A file name in content may not leave its folder: no separators, no '..'."""
    return bool(SAFE_NAME.match(name)) and ".." not in name
