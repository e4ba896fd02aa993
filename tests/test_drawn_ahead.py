"""Faces drawn ahead on a spare core (write/ahead, issue 17): a big part's later faces are drawn in a forked
process and replayed here; the files are byte for byte those of a serial build, whatever the child does. Also
the cyclic collector during a build (incremental/pool.batch_collection)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pymupdf
import pytest

from printkit.build import Settings, build
from printkit.content import Roots
from printkit.draw import Context
from printkit.errors import ContentError
from printkit.write import ahead as ahead_module
from printkit.write.pdf import Writer

CARDS = 40
FRONT = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">
  <rect x="3" y="3" width="57.5" height="10" fill="{{ card.bar }}"/>
  <text x="5.5" y="10.2" font-size="11pt" font-weight="bold" fill="#ffffff" data-w="54" data-field="title">{{ card.title }}</text>
  <text x="4" y="30" data-w="55.5" data-h="24" font-size="7pt" data-field="body">{{ card.body }}</text>
</svg>
"""
BACK = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">
  <rect x="0" y="0" width="{{ w }}" height="{{ h }}" fill="#263238"/>
</svg>
"""


def _game(root: Path, overflow: bool = False) -> Roots:
    """A deck of 40 cards; card 37 (drawn ahead) has a title that shrinks, and with `overflow` a body that
    cannot fit."""
    (root / "content" / "ahead").mkdir(parents=True)
    (root / "templates" / "ahead").mkdir(parents=True)
    (root / "templates" / "ahead" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (root / "templates" / "ahead" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    (root / "content" / "ahead" / "game.yaml").write_text(
        "id: ahead\ntitle: Ahead\nlanguages: [en]\ncomponents: [deck]\n"
        "rules:\n- id: cards\n  source: 'designed: test'\n  count: {component: deck}\n  expect: 40\n", encoding="utf-8")
    cards = []
    for n in range(1, CARDS + 1):
        title = "An Uncommonly Long Title For One Card" if n == 37 else f"Card {n}"
        body = ("Words " * 400 if overflow and n == 38 else f"Body of card {n}, with \"quotes\" and more words.")
        cards.append(f"- title: '{title}'\n  body: '{body.strip()}'\n  bar: '#{(n * 37) % 256:02x}3050'\n")
    (root / "content" / "ahead" / "deck.yaml").write_text(
        "kind: deck\ntitle: Deck\nsize: poker\nfront: front.svg.j2\nback: back.svg.j2\n"
        "fields:\n  body: {type: text}\n  bar: {type: colour}\ncards:\n" + "".join(cards), encoding="utf-8")
    return Roots.default(root / "content", root / "templates")


def _build(roots: Roots, out: Path, jobs: int) -> dict[str, bytes]:
    build(Settings(roots=roots, out=out, papers=("a4",), langs=("en",), kits=False, poster=False, jobs=jobs),
          ["ahead"])
    return {p.name: p.read_bytes() for p in (out / "ahead" / "a4").glob("*.pdf")} | {
        "fit-report.md": (out / "fit-report.md").read_bytes()}


@pytest.fixture()
def started(tmp_path, monkeypatch) -> Path:
    """Every child started (in whichever process started it) writes how many faces it took to this file."""
    log = tmp_path / "started.txt"
    start = ahead_module.Ahead.start

    def logged(self, w, jobs):
        with log.open("a") as f:
            f.write(f"{len(jobs)}\n")
        start(self, w, jobs)

    monkeypatch.setattr(ahead_module.Ahead, "start", logged)
    monkeypatch.setattr(ahead_module, "MIN_FACES", 8)
    return log


def test_faces_drawn_ahead_print_as_the_serial_build(tmp_path, started):
    roots = _game(tmp_path)
    serial = _build(roots, tmp_path / "serial", jobs=1)
    assert not started.exists(), "a serial build never forks"
    pooled = _build(roots, tmp_path / "pooled", jobs=2)
    # the deck part and its gutterfold copy: the copy replays what the part drew
    assert [int(n) for n in started.read_text().split()] == [CARDS // 2]
    assert set(pooled) == {"deck.pdf", "deck-gutterfold.pdf", "fit-report.md"}
    assert pooled == serial
    # card 37's title was shrunk in the child: the fit report says so as the serial build does
    assert "An Uncommonly Long Title" in pooled["fit-report.md"].decode()


def test_a_problem_found_ahead_is_reported_as_the_serial_build_reports_it(tmp_path, started):
    roots = _game(tmp_path, overflow=True)
    errors = []
    for jobs in (1, 2):
        with pytest.raises(ContentError) as caught:
            _build(roots, tmp_path / f"out{jobs}", jobs)
        errors.append(sorted(str(p) for p in caught.value.problems))
    assert started.exists()
    assert errors[0] == errors[1] and any("deck.yaml" in e and "overflows" in e for e in errors[0]), errors


def test_a_child_that_fails_loses_nothing(tmp_path, started, monkeypatch):
    roots = _game(tmp_path)
    serial = _build(roots, tmp_path / "serial", jobs=1)

    def broken(self, face, key, assets):
        raise RuntimeError("the child fails")

    monkeypatch.setattr(Writer, "recording_of", broken)
    assert _build(roots, tmp_path / "pooled", jobs=2) == serial
    assert started.exists()


def test_a_build_freezes_what_it_loaded_and_leaves_the_collector_as_it_was(tmp_path, monkeypatch):
    import gc

    from printkit import build as build_module
    from printkit.incremental.pool import BUILD_THRESHOLDS

    roots, seen = _game(tmp_path), []
    draw = build_module._draw

    def watched(*args, **kwargs):
        seen.append((gc.get_threshold(), gc.get_freeze_count()))
        return draw(*args, **kwargs)

    monkeypatch.setattr(build_module, "_draw", watched)
    before = gc.get_threshold()
    _build(roots, tmp_path / "out", jobs=1)
    assert seen[0][0] == BUILD_THRESHOLDS and seen[0][1] > 1000, seen  # the loaded game is frozen while drawing
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0  # a watch mode's next build starts afresh


def test_text_in_a_form_group_prints_on_every_piece_and_alike_on_every_core(tmp_path, started):
    roots = _game(tmp_path)
    front = tmp_path / "templates" / "ahead" / "front.svg.j2"
    front.write_text(front.read_text().replace(
        "</svg>", '<g data-form="badge"><rect x="50" y="70" width="10" height="10" fill="#f0c000"/>'
                  '<text x="51" y="78" font-size="8pt">Zq</text></g>\n</svg>'), encoding="utf-8")
    serial = _build(roots, tmp_path / "serial", jobs=1)
    assert _build(roots, tmp_path / "pooled", jobs=2) == serial
    doc = pymupdf.open(stream=serial["deck.pdf"], filetype="pdf")
    fronts = [doc[i].get_text() for i in range(0, doc.page_count, 2)]
    # the form's text is the form's: once on every card (it was once on the page of the card that defined it)
    assert [t.count("Zq") for t in fronts] == [9, 9, 9, 9, 4], fronts


def _fake_faces(n: int) -> list:
    return [(SimpleNamespace(shared=False, recordings={}), Context("en", None)) for _ in range(n)]


class _SlowWriter:
    """Draws each face for a long time in a child, and says when a child finished."""

    def __init__(self, done: Path):
        self.done = done

    def recording_of(self, face, key, assets):
        time.sleep(30)
        self.done.write_text("finished")
        return False


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_a_part_that_fails_stops_its_children_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(ahead_module, "MIN_FACES", 4)
    faces, fds = _fake_faces(8), _open_fds()
    with ahead_module.spare_cores(2), pytest.raises(RuntimeError):
        with ahead_module.drawn_ahead(_SlowWriter(tmp_path / "done"), faces, lambda href: None):
            assert all(isinstance(f.recordings[("en", None)], ahead_module.Ahead) for f, _ in faces[4:])
            raise RuntimeError("the part fails while its children draw")
    assert not (tmp_path / "done").exists()  # killed, not waited for (a child sleeps 30 s a face)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # none left unreaped
    assert all(f.recordings == {} for f, _ in faces) and _open_fds() == fds


def test_no_process_to_be_had_draws_every_face_here(tmp_path, monkeypatch):
    monkeypatch.setattr(ahead_module, "MIN_FACES", 4)

    def no_fork():
        raise BlockingIOError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    faces, fds = _fake_faces(8), _open_fds()
    with ahead_module.spare_cores(1):
        with ahead_module.drawn_ahead(_SlowWriter(tmp_path / "done"), faces, lambda href: None):
            pass
    assert all(f.recordings == {} for f, _ in faces) and _open_fds() == fds


def test_two_spare_cores_draw_two_shares_ahead(tmp_path, started):
    roots = _game(tmp_path)
    serial = _build(roots, tmp_path / "serial", jobs=1)
    assert _build(roots, tmp_path / "pooled", jobs=3) == serial
    # 40 faces: this process keeps a third, two children draw the rest
    assert sorted(int(n) for n in started.read_text().split()) == [13, 14]


def test_a_programs_own_freeze_is_left_as_it_was(tmp_path):
    import gc

    roots = _game(tmp_path)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        _build(roots, tmp_path / "out", jobs=1)
        # still frozen (an unfreeze empties it); the count drops by the frozen objects freed meanwhile
        assert gc.get_freeze_count() > frozen // 2 > 0
    finally:
        gc.unfreeze()


def test_an_interrupt_while_collecting_leaves_no_child_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(ahead_module, "MIN_FACES", 4)
    receive = ahead_module._receive

    def interrupted(child):
        receive(child)  # the first child is reaped, then the build is interrupted before the second
        raise KeyboardInterrupt

    monkeypatch.setattr(ahead_module, "_receive", interrupted)
    monkeypatch.setattr(_SlowWriter, "recording_of", lambda self, face, key, assets: False)  # quick first child
    faces, fds = _fake_faces(9), _open_fds()
    with ahead_module.spare_cores(2), pytest.raises(KeyboardInterrupt):
        with ahead_module.drawn_ahead(_SlowWriter(tmp_path / "done"), faces, lambda href: None):
            faces[3][0].recordings[("en", None)].take(faces[3][0], ("en", None))
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
    assert all(f.recordings == {} for f, _ in faces) and _open_fds() == fds
