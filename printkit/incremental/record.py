"""What the last build wrote, kept with the output in `<out>/.printkit-cache.json`.

For every file: the key of its inputs (keys.py), its manifest entry (with its sha256), and what drawing it
added to the fit report (shrunk texts, images under 300 dpi). No time or size: the records are as repeatable
as the output. For every game: the key of all its inputs under the build's selection, and the files that selection made, so an
unchanged game is not even loaded. A file is fresh when its key is the same and the file on disk is the
one written (the same sha256): a file a user deleted or edited is rebuilt.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import Pos, Problem

CACHE_FILE = ".printkit-cache.json"
FACES_FILE = ".printkit-faces.json"  # <out>/<game>/.printkit-faces.json: the fingerprints of the last build
FORMAT = 1


def file_sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


@dataclass
class Drawn:
    """What drawing one file added to the build's fit report, in a form that survives JSON and pickling."""

    shrunk: list[tuple[str, str, str, str, float, float]] = field(default_factory=list)  # lang, where, label, field, nominal, used
    notes: list[tuple[str, int, int, str]] = field(default_factory=list)  # images printed under 300 dpi

    @classmethod
    def of(cls, shrunk: dict, notes: set[Problem] | list[Problem]) -> "Drawn":
        return cls(sorted((*k, *v) for k, v in shrunk.items()),
                   sorted((n.pos.path, n.pos.line, n.pos.col, n.message) for n in notes))

    def problems(self) -> list[Problem]:
        return [Problem(Pos(p, line, col), message) for p, line, col, message in self.notes]


@dataclass
class Records:
    """The last build's records of one output folder."""

    out: Path
    files: dict[str, dict] = field(default_factory=dict)
    games: dict[str, dict] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # SHA-256 of the manifest and fit report the build wrote
    built: list[str] = field(default_factory=list)  # the games of the build that wrote them

    @classmethod
    def load(cls, out: Path) -> "Records":
        try:
            body = json.loads((out / CACHE_FILE).read_text(encoding="utf-8"))
            if body.get("format") != FORMAT:
                return cls(out)
            return cls(out, dict(body["files"]), dict(body["games"]), dict(body.get("texts", {})), list(body.get("built", [])))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls(out)  # none yet, or unreadable: everything is built afresh

    def on_disk(self, rel: str) -> bool:
        """The file the record describes is still there, unchanged."""
        rec = self.files.get(rel)
        return rec is not None and file_sha(self.out / rel) == rec["entry"]["sha256"]

    def fresh(self, rel: str, key: str) -> bool:
        rec = self.files.get(rel)
        return rec is not None and rec["key"] == key and self.on_disk(rel)

    def game_fresh(self, game: str, key: str) -> list[str] | None:
        """The files of a game whose inputs and selection are those of its last build, all fresh; else None."""
        rec = self.games.get(game)
        if rec is None or rec["key"] != key or not all(r in self.files and self.on_disk(r) for r in rec["files"]):
            return None
        return list(rec["files"])

    def fresh_images(self, earlier: dict | None, key: str) -> list[str] | None:
        """A game's piece images (and their zip and Tabletop Simulator files) of its last build, when that build had
        the key the game has now and every file is on the disk as written; else None (they are drawn again)."""
        if not earlier or earlier["key"] != key or not all(r in self.files and self.on_disk(r) for r in earlier["files"]):
            return None
        return list(earlier["files"])

    def texts_as_written(self) -> bool:
        """The manifest and fit report on the disk are those the last build wrote: a build that keeps every
        file would write them again as they are."""
        return bool(self.texts) and all(file_sha(self.out / rel) == sha for rel, sha in self.texts.items())

    def drawn(self, rel: str) -> Drawn:
        rec = self.files[rel]
        return Drawn([tuple(s) for s in rec["shrunk"]], [tuple(n) for n in rec["notes"]])

    def entry(self, rel: str) -> dict:
        return dict(self.files[rel]["entry"])

    def keep(self, rel: str, key: str, entry: dict, drawn: Drawn) -> None:
        """Record a file as written (no time or size: the records are as repeatable as the output)."""
        self.files[rel] = {"key": key, "entry": entry, "shrunk": [list(s) for s in drawn.shrunk],
                           "notes": [list(n) for n in drawn.notes]}

    def text(self) -> str:
        # one line, by the C encoder (an indented dump of a thousand records costs a tenth of a second)
        return json.dumps({"format": FORMAT, "files": self.files, "games": self.games, "texts": self.texts,
                           "built": self.built}, sort_keys=True,
                          separators=(",", ":"), ensure_ascii=False) + "\n"


def manifest_entries(out: Path) -> list[dict]:
    """The entries of the output folder's manifest (none when it has none, or one that is not printkit's)."""
    try:
        files = json.loads((out / "manifest.json").read_text(encoding="utf-8")).get("files", [])
        return [e for e in files if isinstance(e, dict) and isinstance(e.get("path"), str)]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


def manifest_text(out: Path, written: list[dict], removed: Iterable[str] = ()) -> str:
    """output/manifest.json: this build's files merged into the listed ones, dropping entries whose files are gone
    or that the build removes."""
    gone = set(removed)
    entries = {e["path"]: e for e in manifest_entries(out) if (out / e["path"]).is_file() and e["path"] not in gone}
    for f in written:  # an image's size and dpi; PDFs keep the fields they always had
        entries[f["path"]] = {k: v for k, v in f.items() if v is not None or k not in ("px", "dpi")}
    body = {"generator": "printkit", "files": [entries[k] for k in sorted(entries)]}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def manifest_shas(out: Path) -> dict[str, str]:
    """The SHA-256 of every file the output folder's manifest lists, by path (none when it has no manifest)."""
    return {e["path"]: e["sha256"] for e in manifest_entries(out) if "sha256" in e}
