"""Faces drawn ahead on a spare core: a big part's later faces are drawn in a forked process while this
one draws the first pages, and come back as recordings (write/replay) that are replayed in print order.

The output is the serial build's, byte for byte: a recording's text is written again from its calls in the
target document, in the order the pages print, so the font subsets fill as they would. Drawing ahead only
ever saves time: a face whose recording does not come back (the process failed, or the face used a form the
document lacks) is drawn here as it would have been.
"""
from __future__ import annotations

import os
import pickle
import signal
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterator, NoReturn

from ..draw import Context

if TYPE_CHECKING:
    from .pdf import Writer

MIN_FACES = 400  # below this a fork and the pickling cost about what they save (~0.15 ms a face)
_SPARE = [0]  # cores this process may draw ahead on: set by the build unit running here (`spare_cores`)


@contextmanager
def spare_cores(n: int) -> Iterator[None]:
    """While drawing a build unit: how many cores are free beside this process (0: none, draw alone)."""
    before, _SPARE[0] = _SPARE[0], n if hasattr(os, "fork") else 0
    try:
        yield
    finally:
        _SPARE[0] = before


Job = tuple[Any, tuple, Callable]  # a face, its recording key (language, safe zone), its asset lookup


@dataclass
class _Child:
    pid: int
    pipe: BinaryIO  # the read end of the pipe its recordings come through
    jobs: list[Job]
    reaped: bool = False  # its pid may belong to another process once reaped: never signalled then


class Ahead:
    """Faces being drawn in other processes; their recordings are taken when the first of them prints."""

    def __init__(self) -> None:
        self.children: list[_Child] = []

    def start(self, w: Writer, jobs: list[Job]) -> None:
        read, write = os.pipe()
        # no Ctrl-C between the fork and the child's own handler, nor before this process knows its child
        masked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                raise
            if pid == 0:
                _child(w, jobs, read, write)
            os.close(write)
            self.children.append(_Child(pid, os.fdopen(read, "rb"), jobs))
            for face, key, _ in jobs:
                face.recordings[key] = self
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, masked)

    def take(self, face: Any, key: tuple) -> Any:
        """The face's recording (or None: draw it here), after every child has handed its recordings back."""
        self.collect()
        return face.recordings.get(key)

    def collect(self) -> None:
        try:
            while self.children:
                recordings = _receive(self.children[0])
                self._settle(self.children.pop(0).jobs, recordings)
        except BaseException:
            self.abandon()
            raise

    def abandon(self) -> None:
        """Stop the children still drawing; their faces are drawn here (this process failed or was interrupted)."""
        children, self.children = self.children, []
        for child in children:
            if not child.reaped:
                with suppress(OSError):
                    os.kill(child.pid, signal.SIGKILL)
                child.pipe.close()
                with suppress(ChildProcessError):
                    os.waitpid(child.pid, 0)
            self._settle(child.jobs, None)

    def _settle(self, jobs: list[Job], recordings: list | None) -> None:
        for i, (face, key, _) in enumerate(jobs):
            if face.recordings.get(key) is self:
                if recordings is not None and i < len(recordings):
                    face.recordings[key] = recordings[i]
                else:
                    del face.recordings[key]


def _child(w: Writer, jobs: list[Job], read: int, write: int) -> NoReturn:
    """Draw the faces, send their recordings, and leave without running the parent's exit handlers."""
    code = 1
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a Ctrl-C ends the child at once: the parent draws its faces
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        os.close(read)
        data = pickle.dumps([w.recording_of(face, key, assets) for face, key, assets in jobs], pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)


def _receive(child: _Child) -> list | None:
    """A child's recordings: None unless it ended well and sent them whole."""
    with child.pipe:
        try:
            data = child.pipe.read()
        except OSError:
            data = b""
    try:
        status = os.waitpid(child.pid, 0)[1]
    except ChildProcessError:  # reaped already (SIGCHLD ignored): a whole pickle is the child's word
        status = 0
    child.reaped = True
    if status != 0 or not data:
        return None
    try:
        found = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a child cut short: its faces are drawn here
        return None
    return found if isinstance(found, list) else None


@contextmanager
def drawn_ahead(w: Writer, faces: list[tuple[Any, Context]], assets: Callable) -> Iterator[None]:
    """Draw a part's faces not yet recorded partly ahead, on the spare cores, while the body draws its pages.
    `faces` in print order, with the context each prints with."""
    ahead = Ahead()
    try:
        _split(w, faces, assets, ahead)
        yield
    except BaseException:
        ahead.abandon()  # no child is left drawing for a part that failed, nor waited for
        raise
    ahead.collect()  # normally done when the first face drawn ahead printed


def _split(w: Writer, faces: list[tuple[Any, Context]], assets: Callable, ahead: Ahead) -> None:
    spare = _SPARE[0]
    if spare <= 0:
        return
    jobs: list[Job] = []
    seen: set[tuple[int, tuple]] = set()
    for face, ctx in faces:
        key = (ctx.lang, ctx.safe)
        if face.shared or (id(face), key) in seen or key in face.recordings:
            continue
        seen.add((id(face), key))
        jobs.append((face, key, assets))
    if len(jobs) < MIN_FACES:
        return
    rest = jobs[len(jobs) // (spare + 1):]  # this process draws the first share, then the pages' replays
    per = -(-len(rest) // spare)
    try:
        for i in range(0, len(rest), per):
            ahead.start(w, rest[i:i + per])
    except OSError:  # no process to be had: what did not start is drawn here
        pass
