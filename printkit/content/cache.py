"""The incremental cache: parsed content files, keyed by their exact bytes.

Parsing a large YAML file costs far more than reading back its parsed form, so a rebuild of
unchanged content skips the parser. The key is a hash of the file's bytes and the path shown in
messages, so an edited file is always parsed afresh. The cache is private to the user: it lives
in the user's cache folder (or PRINTKIT_CACHE), created mode 0700, and is not used when that
folder is writable by anyone else, because cached entries are unpickled. PRINTKIT_CACHE=off
disables it.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path
from typing import Any, Callable

from .. import __version__

FORMAT = 4  # 4: the loader refuses what it used to read (plain `no`, `010`): older entries may hold such values


def cache_dir() -> Path | None:
    setting = os.environ.get("PRINTKIT_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    base = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "printkit"
    try:
        base.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = base.stat()
    except OSError:
        return None
    private = info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return base if private else None


def cached(data: bytes, shown: str, parse: Callable[[], Any]) -> Any:
    """The parsed content of a file's bytes, from the cache when they were parsed before."""
    folder = cache_dir()
    if folder is None:
        return parse()
    key = hashlib.sha256(f"{FORMAT}:{__version__}:{shown}:".encode() + data).hexdigest()
    entry = folder / f"{key}.pickle"
    try:
        with entry.open("rb") as fh:
            return pickle.load(fh)  # noqa: S301 - the user's private cache, written by printkit only
    except Exception:  # noqa: BLE001 - a truncated or foreign entry fails in any way: parse afresh, overwrite it
        pass
    value = parse()  # raises ContentError for bad files: those are never cached
    tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
    try:
        with tmp.open("wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
    except OSError:
        tmp.unlink(missing_ok=True)
    return value
