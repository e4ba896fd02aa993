"""`printkit watch`: builds, then rebuilds on every save, names the pieces that changed, and survives a broken
edit, keeping the last good output. Waits for each line with a timeout; never asserts a duration."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

TIMEOUT = 60  # seconds to wait for a line: a generous bound on a loaded machine, not a speed test


class Watcher:
    """A `printkit watch` process whose stderr lines are read as they come."""

    def __init__(self, root: Path, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "printkit", "watch", *args], cwd=root,
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                                     env={**os.environ, "COLUMNS": "400"})
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, *parts: str) -> str:
        """The next line holding every part; fails after TIMEOUT seconds with what was printed."""
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=max(0.1, end - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            if all(p in line for p in parts):
                return line
        pytest.fail(f"no line with {parts} in {TIMEOUT} s; printed: {self.seen}")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture()
def demo(tmp_path: Path) -> Path:
    made = subprocess.run([sys.executable, "-m", "printkit", "new", "demo"], cwd=tmp_path, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    return tmp_path


def test_watch_rebuilds_on_a_save_names_the_piece_and_survives_a_broken_edit(demo):
    cards = demo / "content" / "demo" / "cards.csv"
    tokens = demo / "content" / "demo" / "tokens.yaml"
    good_tokens = tokens.read_text(encoding="utf-8")
    w = Watcher(demo, "demo", "--content", "content", "--out", "out", "--lang", "en")
    try:
        w.wait_for("built in")
        w.wait_for("watching", "content/demo")
        kit = demo / "out" / "demo" / "a4" / "demo-kit.en.pdf"
        first = kit.read_bytes()

        cards.write_text(cards.read_text(encoding="utf-8").replace("Run,", "Sprint,", 1), encoding="utf-8")
        w.wait_for("saved:", "content/demo/cards.csv")
        w.wait_for("built in", "demo/a4/deck.pdf")
        assert w.wait_for("demo: 1 piece(s) changed") .endswith("deck/001-sprint")
        good = kit.read_bytes()
        assert good != first

        tokens.write_text("kind: tokens: [\n", encoding="utf-8")  # a broken save
        w.wait_for("content/demo/tokens.yaml:1:")
        w.wait_for("kept the last good output")
        assert kit.read_bytes() == good  # the last good output is untouched
        assert w.proc.poll() is None  # and the watch goes on

        tokens.write_text(good_tokens.replace("#c62828", "#6a1b9a"), encoding="utf-8")
        w.wait_for("built in")
        assert w.wait_for("demo: 1 piece(s) changed").endswith("tokens/002-5")
    finally:
        w.stop()
    assert w.proc.returncode in (0, 130, -signal.SIGINT)
