"""Watch mode's eyes: the folders a game is made of, and each batch of files saved in them.

watchfiles (Rust's `notify`, MIT) watches with the system's own events and batches a save's bursts of
events; it is imported only when watching, so other commands do not pay for it."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Iterator

from ..content import Roots


def watched(roots: Roots, games: list[str]) -> list[Path]:
    """The game folders and the designer's templates folder (not printkit's own), where their saves land."""
    own = [roots.templates] if roots.templates != Roots.default().templates else []
    return [f for f in [*(roots.content / g for g in games), *own] if f.is_dir()]


def saves(folders: list[Path], out: Path, stop: threading.Event | None = None) -> Iterator[list[Path]]:
    """Each batch of files saved in `folders` (not the output folder, nor editors' swap and backup files);
    first an empty batch, once the watch has begun (a save from then on is seen)."""
    import watchfiles

    default = watchfiles.DefaultFilter()
    out = out.resolve()

    def wanted(change: watchfiles.Change, path: str) -> bool:
        file = Path(path)
        return default(change, path) and not file.name.startswith((".", "#")) and not file.is_relative_to(out)

    ready = False
    for batch in watchfiles.watch(*folders, watch_filter=wanted, stop_event=stop, debounce=300, step=50,
                                  rust_timeout=200, yield_on_timeout=True):
        if not ready:
            ready = True
            yield []
        # an editor's temporary file, made and removed within one save, is not a file the designer saved
        passing = {p for change, p in batch if change == watchfiles.Change.added} & \
                  {p for change, p in batch if change == watchfiles.Change.deleted}
        files = sorted({Path(p) for _, p in batch if p not in passing})
        if files:
            yield files
