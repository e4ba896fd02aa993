"""The one-pass YAML builder (load._one_pass) against the composer and builder it stands in for: the same
values, types and positions for every file it takes, and the rest handed over (anchors, aliases, tags,
merge keys, problems), so errors are worded by the composer and builder alone."""
from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml

from printkit.content import load
from printkit.content.load import YList, YMap, _parse
from printkit.errors import ContentError

REPO = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p for p in [*REPO.glob("content/**/*.yaml"), *REPO.glob("tests/fixtures/**/*.yaml")]
                 if "templates" not in p.parts)

TAKEN = [  # files the one pass builds itself
    "", "---\n", "a: 1\n", "scalar\n", "- a\n- 'b'\n- \"c\"\n- |\n  lit\n- >\n  fold\n",
    "a: true\nb: false\nc: null\nd: ~\ne:\n", "a: -5\nb: +3\nc: 1.5\nd: 1.0e+3\ne: 0\nf: 123456789012345678\n",
    "a: Yes please\nb: no way\nc: 12 cards\nd: .5em\n", "1.5: a\n2: b\n-3: c\n",
    "a: [1, 2, [3, [4]]]\nb: {c: {d: {e: f}}}\n", "a:\n  - x: 1\n    y: [1, 2]\n  -\n  - {}\n  - []\n",
    "o: tiny\nn: nothing\ny: yellow\nt: Tea\n'no': 1\n", "a: 1\r\nb: 2\r\n", "a: \u00e9t\u00e9 \u2603\nb: \"tab\\there\"\n",
    "- [a, {b: c, d: [e, {f: g}]}]\n", "a: " + "[" * 31 + "]" * 31 + "\n",
]
HANDED_OVER = [  # anchors, aliases, tags, merge keys, a second document, syntax errors and every problem
    "a: &x {b: 1}\nc: *x\n", "base: &b {x: 1}\nd:\n  <<: *b\n  z: 3\n", "a: !!str 1\n", "a: ! x\n", "a: !!set {x}\n",
    "a: b\n---\nc: d\n", "a: [b\n", "a: no\n", "a: 010\n", "a: 1234567890123456789012\n", "true: x\n", "a: 1\na: 2\n",
    "? [a]\n: b\n", "a: .inf\n", "a: \"\\x01\"\n", "a: " + "x" * 20_001 + "\n", "a: 2001-02-30\n", "a: 2001-02-03\n", "a: =\n",
    "a: " + "[" * 33 + "]" * 33 + "\n",
]


def shape(value: Any) -> Any:
    """A value with its type and, for YMap and YList, every position written out."""
    if isinstance(value, YMap):
        return ("YMap", value._path, value._at, [(shape(k), shape(v), value._spots[k]) for k, v in value.items()],
                list(value._spots))
    if isinstance(value, YList):
        return ("YList", value._path, value._at, [shape(v) for v in value], value._items_at)
    return type(value).__name__, repr(value)


def one_pass(text: str) -> Any:
    loader = load.BASE(text)
    try:
        return load._one_pass(loader, "f.yaml")
    finally:
        loader.dispose()


def composed(text: str) -> Any:
    return load._compose_and_build(text, "f.yaml", load.BASE)


@pytest.mark.parametrize("file", SHIPPED, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_files_load_alike_both_ways(file):
    text = file.read_text(encoding="utf-8")
    try:
        fast = one_pass(text)
    except load._Rare:
        return  # anchors (souls.yaml): the composer and builder read it
    slow = composed(text)
    assert shape(fast) == shape(slow)
    assert pickle.dumps(fast) == pickle.dumps(slow)  # the cache writes the same entry


@pytest.mark.parametrize("text", TAKEN)
def test_the_one_pass_builds_plain_files_as_the_builder_does(text):
    assert shape(one_pass(text)) == shape(composed(text))


@pytest.mark.parametrize("text", HANDED_OVER)
def test_rare_parts_and_problems_are_handed_over(text):
    with pytest.raises((load._Rare, yaml.YAMLError)):
        one_pass(text)
    try:
        expected = shape(composed(text))
    except ContentError as exc:
        with pytest.raises(ContentError) as got:
            _parse(text.encode(), "f.yaml")
        assert str(got.value) == str(exc)
    else:
        assert shape(_parse(text.encode(), "f.yaml")) == expected
