"""Independent pieces of work on every core: a process pool that hands results back in order.

The work is forked from the building process (the loaded games, registered fonts and caches are
inherited, nothing is pickled but each unit's description and its result). `jobs` 1, or a single
unit, runs in this process: the serial build is the same code in the same order.
"""
from __future__ import annotations

import gc
import json
import os
import select
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence, TypeVar

U = TypeVar("U")
R = TypeVar("R")

# The context of the units of the build running in this process: set before the pool forks (its workers
# inherit it) and cleared when the build ends. Process-local by nature: a worker has no other way to it.
_CONTEXT: dict[str, Any] = {}


# The cyclic collector during a build: young objects collected 14 times less often, the oldest generation 10 times
# (measured: deck6000 2.61 -> 2.17 s with `frozen`; build all unchanged within noise; peak memory unchanged)
BUILD_THRESHOLDS = (10000, 20, 100)


@contextmanager
def batch_collection() -> Iterator[Callable[[], None]]:
    """A build allocates millions of objects, and most live until it ends; Python's cyclic collector would scan
    them again and again. Inside, it runs less often, and the function yielded freezes what exists (the
    loaded games: never scanned again, and shared with forked workers rather than copied, as gc.freeze's
    documentation advises before a fork). Afterwards (a watch mode builds again) all is as before; a program
    that froze objects itself keeps its own freeze, and nothing is frozen for it."""
    before, ours = gc.get_threshold(), gc.get_freeze_count() == 0
    gc.set_threshold(*BUILD_THRESHOLDS)
    try:
        yield gc.freeze if ours else lambda: None
    finally:
        if ours:
            gc.unfreeze()
        gc.set_threshold(*before)


def context() -> Any:
    return _CONTEXT["value"]


def tell(message: str) -> None:
    """A running unit's word to the building process (a file drawn, for the progress bar), heard before the
    unit's end. From a worker it goes through a pipe the workers share: one write under PIPE_BUF is never
    mixed with another's, and a message that would wait (the pipe full) is dropped, as `done` says it anyway."""
    channel = _CONTEXT.get("tell")
    if callable(channel):
        channel(message)
    elif channel is not None and "\n" not in message and len(message.encode()) < select.PIPE_BUF:
        with suppress(OSError):
            os.write(channel, message.encode() + b"\n")


def run_units(units: Sequence[U], work: Callable[[U], R], jobs: int, shared: Any,
              done: Callable[[int, R], None], weight: Callable[[U], float] = lambda _: 1.0,
              heard: Callable[[str], None] = lambda _: None) -> list[R]:
    """work(unit) for every unit, on up to `jobs` processes; `done(index, result)` hears each as it
    completes, `heard` what a unit `tell`s while it runs; returns the results in the order of `units`. The first
    failure stops the others and is raised."""
    _CONTEXT["value"] = shared
    try:
        if jobs <= 1 or len(units) <= 1 or not _can_fork():
            _CONTEXT["tell"] = heard
            results = []
            for i, unit in enumerate(units):
                results.append(work(unit))
                done(i, results[-1])
            return results
        return _pooled(units, work, jobs, done, weight, heard)
    finally:
        _CONTEXT.clear()


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _pooled(units: Sequence[U], work: Callable[[U], R], jobs: int, done: Callable[[int, R], None],
            weight: Callable[[U], float], heard: Callable[[str], None]) -> list[R]:
    # imported here: a serial build (one job, one unit, a build with nothing to draw) never loads the pool (~8 ms)
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # the heaviest units first, so that no core waits at the end on one long unit started last
    order = sorted(range(len(units)), key=lambda i: -weight(units[i]))
    results: dict[int, R] = {}
    read, write = os.pipe()  # the workers' `tell`: inherited by each as the pool forks it
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    _CONTEXT["tell"], unread = write, bytearray()
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(units)), mp_context=multiprocessing.get_context("fork"))
    try:
        futures = {pool.submit(work, units[i]): i for i in order}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            # what a unit told was written before its result: heard before `done`
            *told, rest = (unread + _drain(read)).split(b"\n")
            unread = bytearray(rest)
            for message in told:
                heard(message.decode())
            for future in sorted(finished, key=lambda f: futures[f]):
                results[futures[future]] = future.result()  # raises the unit's error here
                done(futures[future], results[futures[future]])
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        os.close(read)
        os.close(write)
    return [results[i] for i in range(len(units))]


def _drain(read: int) -> bytes:
    chunks = []
    with suppress(BlockingIOError):
        while chunk := os.read(read, 65536):
            chunks.append(chunk)
    return b"".join(chunks)


def unit_times(path: Path | None) -> dict[str, float]:
    """How long each unit took in the last builds on this machine (to start the longest first), by its name."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()} if path else {}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def keep_unit_times(path: Path | None, times: dict[str, float]) -> None:
    """Remember the units' times (in the user's cache, never in the output: they differ from run to run)."""
    if path is None or not times:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        tmp.write_text(json.dumps({**unit_times(path), **times}, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
