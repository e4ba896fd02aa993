"""Inline icons in text: `:name:` draws the game's icon `icons/<name>.svg` (or `.png`) as a word of the text.

Only a name of lower-case letters, digits, `_` and `-` between two colons is an icon, so "Note: x", "::"
and "a : b" stay text; every such name must be an icon of the game (an unknown one is a problem, never
printed as it is). Icons live in an `icons/` folder of the template folders (the game's first), found
like the art `<image>` draws.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from .. import text as T
from .raster import pixel_size

ICON = re.compile(r":([a-z0-9_-]+):")
KINDS = (".svg", ".png")


@dataclass(frozen=True)
class Icons:
    """A text's icons: its text with each `:name:` one character (text.ICON_BASE + k), and the k-th icon's
    name, file and width in ems (its height is the font's cap height)."""

    text: str
    names: tuple[str, ...]
    files: tuple[Path, ...]
    widths: tuple[float, ...]


def mark(raw: str) -> tuple[str, tuple[str, ...]]:
    """The text with every `:name:` replaced by its icon character, and the names in order of first use."""
    names: dict[str, str] = {}

    def one(found: re.Match[str]) -> str:
        return names.setdefault(found.group(1), chr(T.ICON_BASE + len(names)))

    return ICON.sub(one, raw), tuple(names)


def unmark(text: str, names: tuple[str, ...]) -> str:
    """A marked text as its writer wrote it, for messages: each icon character back to `:name:`."""
    return "".join(f":{names[ord(c) - T.ICON_BASE]}:" if T.is_icon(c) and ord(c) - T.ICON_BASE < len(names) else c
                   for c in text)


def icon_file(asset: Callable[[str], Path | None], name: str) -> Path | None:
    for kind in KINDS:
        path = asset(f"icons/{name}{kind}")
        if path is not None:
            return path
    return None


def unknown(name: str) -> str:
    return f"expected an icon icons/{name}.svg or icons/{name}.png in the template folders, found ':{name}:'"


def resolve(text: str, names: tuple[str, ...], asset: Callable[[str], Path | None],
            cap: float) -> tuple[Icons | None, list[str]]:
    """The icons of a marked text with their files and widths, and the names not found."""
    files = [icon_file(asset, n) for n in names]
    missing = [n for n, f in zip(names, files) if f is None]
    if missing:
        return None, missing
    widths = []
    for f in files:
        w, h = picture_size(f)  # type: ignore[arg-type]
        widths.append(round(cap * w / h, 4) if h > 0 else cap)
    return Icons(text, names, tuple(files), tuple(widths)), []  # type: ignore[arg-type]


def picture_size(path: Path) -> tuple[float, float]:
    """Width and height of an icon file (pixels, or SVG art's points): its aspect is what counts."""
    info = path.stat()
    return _picture_size(str(path), info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=256)
def _picture_size(path: str, size: int, mtime_ns: int) -> tuple[float, float]:
    if path.lower().endswith(".svg"):
        from .images import svg_art

        drawing = svg_art(Path(path))
        return (float(drawing.width), float(drawing.height)) if drawing is not None else (1.0, 1.0)
    px = pixel_size(Path(path))
    return (float(px[0]), float(px[1])) if px else (1.0, 1.0)


def icon_width(asset: Callable[[str], Path | None], name: str, cap: float) -> float | None:
    """The width in ems of the icon `name` drawn `cap` ems high; None when the game has no such icon."""
    found = icon_file(asset, name)
    if found is None:
        return None
    w, h = picture_size(found)
    return round(cap * w / h, 4) if h > 0 else cap
