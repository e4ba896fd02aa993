"""One build at a time writes into an output folder.

A build that starts recovers a journal a killed build left: it would roll back the commit of a build still
running in the same folder. So the folder is locked (an advisory lock on the folder itself, no file of its
own) from the moment a build stages until its commit is done or discarded; a second build stops at once with
a problem, and a build that only keeps files takes no lock.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import ContentError, Pos, Problem


def hold(out: Path) -> int | None:
    """The output folder, open and locked (close it to let the next build in); None where the system has no
    advisory locks (Windows)."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ContentError([Problem(Pos(str(out)), "expected an output folder no other build is writing into, found "
                                                   "one running: wait for it to finish, or build into another --out")])
    return fd
