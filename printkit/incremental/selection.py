"""Which earlier output files a build answers for, and which of them it no longer makes.

A file printkit made earlier (listed in the manifest or the records) that belongs to the build's selection
and that the build neither made nor kept is left behind by it: a deck that became localised (`deck.pdf`
now `deck.en.pdf`…), a component renamed or removed, an old `-changed` reprint, a pseudo-language kit.
Left there, a player may print it; the build removes it in the same commit as its new files.

The selection is read from each file's own manifest entry (game, kind, language) and from the folder
`outputs.output_path` put it in (`<game>/<paper>/`, `<game>/poster/`, or an image folder): never from a
file name alone, and never for a path outside `<game>/`, so a user's own files in the folder stay.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Iterable

GUTTERFOLD = "-gutterfold"


@dataclass(frozen=True)
class Selection:
    """What one build covers: a file outside it (another game, paper or language, images on a build
    without --images, kits on a build without kits…) is kept whether or not the build made it."""

    games: frozenset[str]
    papers: frozenset[str]
    langs: frozenset[str] | None  # None: every language (language-free files belong to every selection)
    images: bool = False  # PNGs, their zip and Tabletop Simulator files
    parts: bool = True
    gutterfold: bool = True  # the parts' gutterfold copies
    kits: bool = True
    posters: bool = False  # a poster serves every paper a board outgrows: only a build of every paper answers for it

    def covers(self, entry: dict) -> bool:
        """Whether the build answers for the file of this manifest entry."""
        rel = _safe(entry)
        if rel is None or entry.get("game") not in self.games:
            return False
        lang = entry.get("lang")
        if lang is not None and self.langs is not None and lang not in self.langs:
            return False
        return self._covers_kind(rel, entry)

    def _covers_kind(self, rel: PurePosixPath, entry: dict) -> bool:
        folder, kind = rel.parts[1], entry.get("kind")
        if folder == "poster":
            return self.posters
        if folder not in self.papers:
            # a file of no paper is an image output; a paper outside the build's keeps its files
            return self.images and entry.get("paper") is None
        if kind == "reprint":
            return True  # any later build makes an old reprint stale, unless it writes that reprint again
        if kind == "kit":
            return self.kits
        if _stem(rel.name, entry.get("lang")) == f"{entry.get('component')}{GUTTERFOLD}":
            return self.parts and self.gutterfold
        return self.parts


def _safe(entry: dict) -> PurePosixPath | None:
    """The entry's path when it lies in a folder of its own game, below the output folder; else None."""
    path, game = entry.get("path"), entry.get("game")
    if not isinstance(path, str) or not isinstance(game, str):
        return None
    rel = PurePosixPath(path)
    if rel.is_absolute() or ".." in rel.parts or len(rel.parts) < 3 or rel.parts[0] != game:
        return None
    return rel


def _stem(name: str, lang: str | None) -> str:
    """A PDF's name without `.pdf` and its language (outputs.output_path: <name>[.<lang>].pdf)."""
    stem = name.removesuffix(".pdf")
    return stem.removesuffix(f".{lang}") if lang else stem


def left_behind(entries: Iterable[dict], selection: Selection, made: set[str]) -> list[str]:
    """The paths, sorted, of the earlier files the build answers for and did not make or keep."""
    return sorted({e["path"] for e in entries if selection.covers(e) and e["path"] not in made})
