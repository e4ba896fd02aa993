"""What an output folder holds, and a build killed at its k-th step on the filesystem: shared by the
fault tests and the fuzz suite."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Callable

PROBLEM = re.compile(r"^[^:]+:\d+:\d+: expected .*, found .*")
LEFTOVER = re.compile(r"^\.printkit-(?!faces\.json$|cache\.json$)|\.tmp\d*$|\.tmp\d+")


def snapshot(out: Path) -> dict[str, str]:
    """Every file (sha256) and folder ('dir') under out, by path relative to it."""
    return {str(p.relative_to(out)): "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*"))}


def leftovers(out: Path) -> list[str]:
    """Temporary, stage, backup and journal files a build must never leave behind."""
    return [str(p.relative_to(out)) for p in out.rglob("*") if LEFTOVER.search(p.name)]


def manifest_mismatches(out: Path) -> list[str]:
    """Manifest entries whose file differs, and PDFs or images the manifest does not list."""
    body = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    listed = {e["path"]: e["sha256"] for e in body["files"]}
    wrong = [p for p, sha in listed.items()
             if not (out / p).is_file() or hashlib.sha256((out / p).read_bytes()).hexdigest() != sha]
    unlisted = [str(p.relative_to(out)) for p in out.rglob("*") if p.suffix in (".pdf", ".png", ".zip")
                and str(p.relative_to(out)) not in listed]
    return wrong + unlisted


def killed_at(step: int, out: Path, run: Callable[[], None]) -> bool:
    """Run `run` in a forked child that dies (os._exit, like a kill: no clean-up, no finally) right after its
    `step`-th change on the filesystem under `out` (a rename, a new folder, a removal); True when it died."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            _count_changes(step, str(out))
            run()
        except BaseException:  # noqa: BLE001 - a failed build in the child: the parent sees exit 1
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 99


def _count_changes(step: int, out: str) -> None:
    seen = [0]

    def counted(real: Callable) -> Callable:
        def change(*args, **kwargs):
            result = real(*args, **kwargs)
            if any(str(a).startswith(out) for a in args[:2]):
                seen[0] += 1
                if seen[0] == step:
                    os._exit(99)
            return result
        return change

    # shutil.rmtree looks these up on os at each call: its removal of a folder is counted too
    for name in ("replace", "rename", "mkdir", "unlink", "rmdir", "remove"):
        setattr(os, name, counted(getattr(os, name)))


def copy_tree(src: Path, dst: Path) -> Path:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    return dst
