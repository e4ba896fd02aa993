"""Fuzzing the whole build (issue 15, "Hardened"): generated texts, paths, templates and faults.

Every case runs `printkit build` in process on the mini fixture game over a copy of an earlier good build
and must end in exit 0 or 2, never a traceback, with a position on every problem line, and when it fails
the earlier build must be intact, byte for byte. Hypothesis is derandomized (the same cases on every run,
so CI is reproducible) and bounded per test; the suite holds 210 cases besides the YAML mutations of
test_hardened_content, in well under 90 s.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, mini_roots
from outputcheck import PROBLEM, copy_tree, killed_at, leftovers, manifest_mismatches, snapshot
from printkit import staging
from printkit.build import Settings, build
from printkit.cli import app

NARROW = ["--paper", "a4", "--lang", "en", "--no-kit", "--no-poster", "--no-gutterfold"]
FUZZ = dict(deadline=None, derandomize=True, database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                   HealthCheck.data_too_large, HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    """Copies of the fixture content and templates to mutate, and an earlier good build."""
    base = tmp_path_factory.mktemp("fuzz")
    content = copy_tree(FIXTURES / "content", base / "content")
    templates = copy_tree(FIXTURES / "templates", base / "templates")
    good = base / "good"
    assert run(content, templates, good).exit_code == 0
    return {"base": base, "content": content, "templates": templates, "good": good}


def run(content: Path, templates: Path, out: Path, *extra: str):
    return CliRunner().invoke(app, ["build", "mini", "--out", str(out), *NARROW, *extra,
                                    "--content", str(content), "--templates", str(templates)])


def verdict(world: dict[str, Path], *extra: str) -> None:
    """A build over a copy of the good one: exit 0 (a whole new build) or 2 (positioned problems, the
    earlier build unchanged), and never anything temporary left."""
    out = copy_tree(world["good"], world["base"] / "out")
    before = snapshot(out)
    result = run(world["content"], world["templates"], out, *extra)
    assert result.exit_code in (0, 2), (result.output, result.exception)
    assert "Traceback" not in result.output
    assert leftovers(out) == []
    event(f"exit {result.exit_code}")  # --hypothesis-show-statistics: how many cases built, how many refused
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert lines[-1] == f"{len(lines) - 1} problem(s); nothing was written."
        assert all(PROBLEM.match(line) for line in lines[:-1]), lines
        assert snapshot(out) == before
    else:
        assert manifest_mismatches(out) == []


class mutated:
    """One file of the fixture replaced for the length of a case."""

    def __init__(self, path: Path, text: str | bytes):
        self.path, self.text = path, text

    def __enter__(self) -> Path:
        self.saved = self.path.read_bytes()
        data = self.text if isinstance(self.text, bytes) else self.text.encode("utf-8", "surrogatepass")
        self.path.write_bytes(data)
        return self.path

    def __exit__(self, *exc) -> None:
        self.path.write_bytes(self.saved)


# ---------------------------------------------------------------- texts

TRICKY = st.sampled_from(["\x00", "\x07", "\x1b", "\u200f", "\u202e", "\u2066", "\ue000", "\U000f0000",
                          "\ufeff", "\u0301", "🂡", "👩‍👩‍👧", "🏳️‍🌈", "ﷺ", "שלום", "مرحبا", "\u00ad", "\u2028",
                          "**", "_", "{", "}", "{{", "%", "&amp;", "<b>", "\\", "\"", "'", "\t", "\n", " "])
PRINTABLE = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn")), min_size=1, max_size=40)
TEXTS = st.one_of(
    PRINTABLE,  # anything a designer might type, in any script: drawn, or refused for a glyph or a fit
    st.lists(st.one_of(TRICKY, st.text(min_size=1, max_size=8)), max_size=30).map("".join),
    st.builds(lambda word, n: word * n, st.one_of(TRICKY, st.text(min_size=1, max_size=4)), st.integers(50, 2000)),
)


@settings(max_examples=60, **FUZZ)
@given(title=TEXTS, text=TEXTS)
def test_any_title_and_text_is_drawn_or_refused_at_its_place(world, title, text):
    deck = world["content"] / "mini" / "deck.yaml"
    body = deck.read_text(encoding="utf-8").replace('title: Cy, type: blue, text: "Look at a hand."',
                                                    f"title: {json.dumps(title, ensure_ascii=False)}, type: blue, "
                                                    f"text: {json.dumps(text, ensure_ascii=False)}")
    with mutated(deck, body):
        verdict(world)


# ---------------------------------------------------------------- paths

SEGMENTS = st.sampled_from(["..", ".", "", "front.svg.j2", "back.svg.j2", "mini", "templates", "~", "C:",
                            "%2e%2e", "front.svg.j2\x00", "ﬁ", "con", "x" * 300])
NAMES = st.lists(SEGMENTS, min_size=1, max_size=5).flatmap(
    lambda parts: st.sampled_from(["/", "\\", "//"]).map(lambda sep: sep.join(parts)))


@settings(max_examples=40, **FUZZ)
@given(kind=st.sampled_from(["name", "link-out", "link-in", "link-loop", "out"]), name=NAMES)
def test_any_template_name_link_or_output_path_is_used_or_refused(world, kind, name):
    deck = world["content"] / "mini" / "deck.yaml"
    if kind == "name":
        with mutated(deck, deck.read_text(encoding="utf-8").replace("front: front.svg.j2", f"front: {json.dumps(name)}")):
            verdict(world)
        return
    if kind == "out":  # an output folder named with odd segments, inside the case's folder
        with tempfile.TemporaryDirectory(dir=world["base"]) as tmp:
            safe = [p for p in name.replace("\\", "/").split("/") if p not in ("", "..", ".") and "\x00" not in p]
            out = Path(tmp, *[p[:200] for p in safe], "out")
            result = run(world["content"], world["templates"], out)
            assert result.exit_code in (0, 2) and "Traceback" not in result.output, result.output
            assert leftovers(out) == [] if out.is_dir() else True
        return
    link = world["content"] / "mini" / "linked.svg.j2"
    target = {"link-out": Path("/etc/hostname"), "link-in": world["templates"] / "mini" / "front.svg.j2",
              "link-loop": link}[kind]
    link.symlink_to(target)
    try:
        templates_link = world["templates"] / "mini" / "linked.svg.j2"
        templates_link.symlink_to(target if kind != "link-loop" else templates_link)
        try:
            with mutated(deck, deck.read_text(encoding="utf-8").replace("front: front.svg.j2", "front: linked.svg.j2")):
                verdict(world)
        finally:
            templates_link.unlink()
    finally:
        link.unlink()


# ---------------------------------------------------------------- templates

SNIPPETS = st.sampled_from([
    '{{ card.title }}', '{{ card.nothing }}', '{{ card.nothing.deeper }}', '{{ 1 / 0 }}', '{{ w * "x" }}',
    "{{ ''.__class__.__mro__ }}", '{% for i in range(10**9) %}x{% endfor %}', '{% if %}', '{{', '}}', '{#',
    '{% include "front.svg.j2" %}', '{% include "../../etc/passwd" %}', '{% set x = 10**10**10 %}',
    '<rect width="10" height="10"/>', '<rect width="-5" height="nan"/>', '<circle r="1e308"/>', '<g>', '</g>',
    '<image href="file:///etc/passwd" width="1" height="1"/>', '<use href="#nothing"/>', '<script>x</script>',
    '<text data-w="0" data-h="0" data-field="title">{{ card.title }}</text>', '<text font-size="-3pt">x</text>',
    '<path d="M 0 0 L"/>', '<path d="M0,0 C 1e400 0 0 0 0 0Z"/>', '<!DOCTYPE x [<!ENTITY e "e">]>', '&e;',
    '<polygon points="1 2 3"/>', '<rect transform="matrix(0 0 0 0 0 0)" width="1" height="1"/>', '<?xml?>',
])
ATTRIBUTES = st.tuples(st.sampled_from(["fill", "stroke", "transform", "x", "font-size", "data-w", "data-min",
                                        "clip-path", "opacity", "stroke-width", "fill-rule", "href", "style"]),
                       st.one_of(st.sampled_from(["none", "url(#x)", "#ggg", "rgb(300,0,0)", "1e999", "-1", "nan",
                                                  "rotate(", "scale(0)", "{{ w }}", "{{ card.power }}pt", "inherit"]),
                                 st.text(max_size=12)))


@st.composite
def templates(draw) -> str:
    lines = (FIXTURES / "templates" / "mini" / "front.svg.j2").read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        if draw(st.booleans()):
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + draw(SNIPPETS) + lines[at][cut:]
        else:
            name, value = draw(ATTRIBUTES)
            quoted = value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            lines[at] = lines[at].replace("<text ", f'<text {name}="{quoted}" ', 1).replace(
                "<rect ", f'<rect {name}="{quoted}" ', 1)
    return "\n".join(lines) + "\n"


@settings(max_examples=60, **FUZZ)
@given(template=templates())
def test_a_mutated_template_is_drawn_or_refused_at_its_line(world, template):
    with mutated(world["templates"] / "mini" / "front.svg.j2", template):
        verdict(world)


# ---------------------------------------------------------------- faults

@settings(max_examples=25, **FUZZ)
@given(pick=st.integers(0, 10_000), what=st.sampled_from(["file", "folder"]))
def test_a_folder_or_file_in_the_way_stops_the_build_before_anything_moves(world, pick, what):
    out = copy_tree(world["good"], world["base"] / "out")
    files = sorted(p for p in out.rglob("*") if p.is_file()) if what == "file" else \
        sorted(p for p in out.rglob("*") if p.is_dir())
    victim = files[pick % len(files)]
    shutil.rmtree(victim) if victim.is_dir() else victim.unlink()
    (victim / "x").mkdir(parents=True) if what == "file" else victim.write_text("in the way")
    before = snapshot(out)
    result = run(world["content"], world["templates"], out, "--ink-saver")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = result.stderr.splitlines()
    assert lines[:-1] and all(PROBLEM.match(line) and line.startswith(str(victim)) for line in lines[:-1]), lines
    assert snapshot(out) == before and leftovers(out) == []


@pytest.fixture(scope="module")
def later_build(world) -> tuple[Settings, dict[str, str]]:
    """The build the kills interrupt (ink-saver, gutterfold copies), and what it gives uninterrupted."""
    later = Settings(roots=mini_roots(world["content"]), out=world["base"] / "later", papers=("a4",), langs=("en",),
                     kits=False, poster=False, theme="ink-saver")
    copy_tree(world["good"], later.out)
    build(later, ["mini"])
    return later, snapshot(later.out)


@settings(max_examples=25, **FUZZ)
@given(step=st.integers(1, 45))
def test_a_build_killed_at_a_random_step_leaves_the_old_or_the_new_output(world, later_build, step):
    settings_, new = later_build
    out = copy_tree(world["good"], world["base"] / "killed")
    old = snapshot(out)
    killed_at(step, out, lambda: build(Settings(**{**settings_.__dict__, "out": out}), ["mini"]))
    staging.recover(out)
    event("old" if snapshot(out) == old else "new")
    assert snapshot(out) in (old, new)
    assert leftovers(out) == [] and manifest_mismatches(out) == []
    # no stage, backup or journal: only the records a build keeps
    assert not any(p.name.startswith(".printkit-") and p.name != ".printkit-cache.json" for p in os.scandir(out))
