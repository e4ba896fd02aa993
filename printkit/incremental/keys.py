"""What an output file depends on, as one hash: its key.

A game's inputs are every file of its content folder, the template folders it can reach (the shared
kinds and its own, not other games'), the font packages and drawing libraries it uses, and printkit
itself (its version and the bytes of its source, so a development checkout never reuses a stale file).
A part file depends on the game's inputs *except the other components' files*: editing one card rebuilds
its deck's files and the kits, not the board's part file. Everything else (kits, posters, images, the
fingerprints of the pieces) depends on all of the game's inputs.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..content import Roots

PACKAGE = Path(__file__).resolve().parents[1]
LIBRARIES = ("reportlab", "svglib", "jinja2", "fontpkg", "fontpkg-barlow", "fontpkg-barlow-condensed", "pillow")
_FONT_PACKAGE = re.compile(rb"fontpkg-[a-z0-9-]+")


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def _files(folder: Path, skip: frozenset[str] = frozenset()) -> list[Path]:
    """Every file below a folder, in a fixed order; top-level entries named in `skip` left out."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                   and p.relative_to(folder).parts[0] not in skip), key=lambda p: p.as_posix())


def _hashes(folder: Path, files: list[Path]) -> list[tuple[str, str]]:
    return [(f.relative_to(folder).as_posix(), hashlib.sha256(f.read_bytes()).hexdigest()) for f in files]


@lru_cache(maxsize=1)
def code_key() -> str:
    """printkit's version and source and the libraries that draw: a new printkit redraws everything."""
    h = hashlib.sha256(f"printkit {__version__}\0".encode())
    h.update(repr(_hashes(PACKAGE, _files(PACKAGE, frozenset({"_data"})))).encode())
    h.update(repr([(n, _version(n)) for n in LIBRARIES]).encode())
    return h.hexdigest()


@dataclass(frozen=True)
class GameKeys:
    """The keys of one game's inputs: `common` leaves the component files out, `whole` has them all."""

    common: str
    whole: str
    components: dict[str, str]  # component stem -> hash of its own file

    def part(self, stem: str) -> str:
        return hashlib.sha256(f"{self.common}\0{self.components.get(stem, '-')}".encode()).hexdigest()


def game_keys(roots: Roots, game: str, stems: list[str] | None, settings_key: str) -> GameKeys:
    """The keys of a game's inputs under the settings that change its drawings (`settings_key`).
    `stems`: its components, when loaded (None: only `whole` is meant to be used)."""
    folder = roots.content / game
    own = {f"{s}.yaml" for s in stems or []}
    others = frozenset(g for g in roots.games() if g != game)
    content = _hashes(folder, _files(folder))
    shared = [f"{code_key()}\0{settings_key}\0{game}", repr(_hashes(roots.templates, _files(roots.templates, others)))]
    head = folder / "game.yaml"
    if head.is_file():
        named = sorted(set(_FONT_PACKAGE.findall(head.read_bytes())))
        shared.append(repr([(n, _version(n.decode())) for n in named]))

    def key(*parts: str) -> str:
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    common = key(*shared, repr([(rel, h) for rel, h in content if rel not in own]))
    whole = key(*shared, repr(content))
    components = {s: dict(content).get(f"{s}.yaml", "-") for s in stems or []}
    return GameKeys(common, whole, components)
