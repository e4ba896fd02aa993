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
        """A content path as messages print it: relative to the folder holding `content/`."""
        try:
            return file.resolve().relative_to(self.content.parent).as_posix()
        except ValueError:
            return file.as_posix()

    def games(self) -> list[str]:
        if not self.content.is_dir():
            return []
        return sorted(p.name for p in self.content.iterdir() if (p / "game.yaml").is_file())

    def ready_games(self) -> list[str]:
        """The games `build all` builds: every game whose game.yaml is not marked `status: draft`."""
        import yaml

        ready = []
        for game in self.games():
            try:
                head = yaml.safe_load((self.content / game / "game.yaml").read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError):
                head = None  # a broken game.yaml is built, so that its problems are reported
            if not (isinstance(head, dict) and head.get("status") == "draft"):
                ready.append(game)
        return ready


def is_safe_name(name: str) -> bool:
    """A file name in content may not leave its folder: no separators, no '..'."""
    return bool(SAFE_NAME.match(name)) and ".." not in name
