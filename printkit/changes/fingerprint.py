"""A fingerprint of every piece a game prints on a grid of pieces: the hash of what its faces print.

A face is its SVG as the template rendered it (or its compiled plan and printed values), the bytes of every
picture and icon it names, the piece's size and shape, and the game's font files and printkit's version:
two fingerprints are equal when the printed piece is. Boards tiled over sheets and text sheets have no
fingerprint; they are not reprinted piece by piece.
"""
from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from .. import __version__
from ..content import GameContent
from ..draw import Face, PieceSpec, Plan
from ..geometry import PAPERS
from ..incremental import FACES_FILE  # noqa: F401 - the changes' own file, kept with the other records
from ..layout import Options, gangs, piece_name, piece_specs, runs, slug

_HREF = re.compile(r'href="([^"]+)"')
_ICON = re.compile(r":([a-z0-9_-]+):")


@dataclass(frozen=True, order=True)
class PieceKey:
    """A distinct piece: its component, its number there (1-based), its name, and the language its text is
    in when its component prints once per language (None: it prints the same in every language)."""

    component: str
    number: int
    name: str
    lang: str | None

    @property
    def id(self) -> str:
        """The piece's id in messages: `<component>/<nnn>-<name>`, as its image file is named."""
        return f"{self.component}/{self.number:03d}-{slug(self.name)}"

    @property
    def key(self) -> str:
        return f"{self.lang or '*'}:{self.id}"


def _face_bytes(face: Face | None, assets: Callable[[str], Path | None]) -> bytes:
    if face is None:
        return b"-"
    if face.svg is not None:
        svg = face.svg
    else:  # a compiled plan and the values printed in it
        assert face.plan is not None
        svg = _plan_text(face.plan) + json.dumps(face.values or {}, sort_keys=True)
    named = [(href, assets(href)) for href in _HREF.findall(svg)]
    named += [(icon, assets(f"icons/{icon}.svg") or assets(f"icons/{icon}.png")) for icon in _ICON.findall(svg)]
    pictures = b"".join(name.encode() + (_file_digest(path) if path else b"?") for name, path in named)
    return svg.encode() + pictures


@lru_cache(maxsize=256)
def _plan_text(plan: Plan) -> str:
    """A compiled plan's SVG, written out once: the cards of a group share it (a plan is hashed by identity)."""
    return ET.tostring(plan.root, encoding="unicode")


_DIGESTS: dict[tuple[Path, int, int], bytes] = {}


def _file_digest(path: Path) -> bytes:
    """A picture's digest, read once per version of the file."""
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _DIGESTS:
        _DIGESTS[key] = hashlib.sha256(path.read_bytes()).digest()
    return _DIGESTS[key]


def _salt(content: GameContent, theme: str) -> bytes:
    """What changes every piece at once: printkit's version, the theme and the game's own font files."""
    fonts = sorted((content.roots.content / content.id).glob("**/*.[ot]tf"))
    return (__version__ + theme).encode() + b"".join(_file_digest(f) for f in fonts)


def face_prints(content: GameContent, langs: list[str], opts: Options) -> dict[PieceKey, str]:
    """The fingerprint of every distinct piece printed on a grid, in each language it prints in."""
    salt = _salt(content, opts.theme)
    prints: dict[PieceKey, str] = {}
    for comp in content.components.values():
        if not any(gangs(comp, opts, paper) for paper in PAPERS.values()):
            continue
        for lang in (langs if comp.model.per_language else langs[:1]):
            specs, _, assets = piece_specs(content, comp, lang, opts)
            for n, (spec, _copies) in enumerate(runs(specs), 1):
                prints[_key(content, comp.stem, spec, n, lang if comp.model.per_language else None)] = \
                    _digest(spec, assets, salt)
    return prints


def _key(content: GameContent, stem: str, spec: PieceSpec, n: int, lang: str | None) -> PieceKey:
    item = spec.front.item
    number = item.index + 1 if item is not None else n
    return PieceKey(stem, number, piece_name(spec, item.values if item else None, stem), lang)


def _digest(spec: PieceSpec, assets: Callable[[str], Path | None], salt: bytes) -> str:
    h = hashlib.sha256(salt)
    h.update(repr((spec.size, spec.safe, spec.shape if isinstance(spec.shape, str) else spec.name)).encode())
    h.update(_face_bytes(spec.front, assets))
    h.update(_face_bytes(spec.back, assets))
    return h.hexdigest()


def faces_json(prints: dict[PieceKey, str], kept: dict[str, str] | None = None, langs: list[str] = ()) -> bytes:
    """The fingerprints as the build keeps them, sorted by key so the same pieces give the same file. Rows
    `kept` from an earlier build stay for the languages this build left out (`langs`: those it printed)."""
    others = {k: v for k, v in (kept or {}).items() if k.split(":", 1)[0] not in (*langs, "*")}
    rows = dict(sorted({**others, **{k.key: v for k, v in prints.items()}}.items()))
    return (json.dumps({"printkit": __version__, "pieces": rows}, indent=1, ensure_ascii=False) + "\n").encode()


def read_faces(path: Path) -> dict[str, str] | None:
    """The fingerprints an earlier build kept, by key; None when there are none to read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    pieces = data.get("pieces") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in pieces.items()} if isinstance(pieces, dict) else None


def changed_keys(now: dict[PieceKey, str], before: dict[str, str]) -> list[PieceKey]:
    """The pieces whose faces differ from `before`'s, or that it did not have, in order."""
    return sorted(k for k, v in now.items() if before.get(k.key) != v)
