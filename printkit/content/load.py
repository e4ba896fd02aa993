"""YAML → plain Python values that remember where they came from.

Mappings load as `YMap` and sequences as `YList`; both keep the position of each key and value,
so any later stage can point at the exact line and column of a field. Loading is safe: only
standard YAML tags, no Python objects; `compose` reads the file into nodes within limits, and
here every text is checked and every number is finite.

Most files use none of YAML's rarer parts and have no problem: their values are built in one pass
over the parser's events, without nodes (a large deck loads ~4x faster). Any anchor, alias, tag, merge
key, limit or problem sends the file to the composer and builder, which read it and word each problem.
"""
from __future__ import annotations

import gc
import math
from pathlib import Path
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import yaml

from ..errors import ContentError, Pos, Problem, expected_found
from .compose import (BASE, MAX_DEPTH, MAX_DIGITS, MAX_TEXT, NOT_TEXT, Composer, core_value, decode, node_pos, read_limited,
                      text_problem)

_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
_MAP, _SEQ = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG


class _Positions(Mapping):
    """Positions of a YMap's keys or values, made into Pos only when asked for.

    Loading a large file records hundreds of thousands of positions and reads almost none,
    so they are kept as plain (line, col) pairs.
    """

    def __init__(self, owner: "YMap", offset: int):
        self._owner, self._offset = owner, offset

    def __getitem__(self, key: Any) -> Pos:
        spot = self._owner._spots[key]
        return Pos(self._owner._path, spot[self._offset], spot[self._offset + 1])

    def __iter__(self) -> Iterator[Any]:
        return iter(self._owner._spots)

    def __len__(self) -> int:
        return len(self._owner._spots)


class _ItemPositions(Sequence):
    def __init__(self, owner: "YList"):
        self._owner = owner

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [Pos(self._owner._path, *spot) for spot in self._owner._items_at[index]]
        return Pos(self._owner._path, *self._owner._items_at[index])

    def __len__(self) -> int:
        return len(self._owner._items_at)


class YMap(dict):
    """A dict with the position of itself, of each key and of each value."""

    _path: str = ""
    _at: tuple[int, int] = (1, 1)
    _spots: dict[Any, tuple[int, int, int, int]]  # key line, key col, value line, value col

    @classmethod
    def empty(cls, path: str) -> "YMap":
        result = cls()
        result._path, result._at, result._spots = path, (1, 1), {}
        return result

    @property
    def pos(self) -> Pos:
        return Pos(self._path, *self._at)

    @property
    def key_pos(self) -> Mapping[Any, Pos]:
        return _Positions(self, 0)

    @property
    def value_pos(self) -> Mapping[Any, Pos]:
        return _Positions(self, 2)


class YList(list):
    """A list with the position of itself and of each item."""

    _path: str = ""
    _at: tuple[int, int] = (1, 1)
    _items_at: list[tuple[int, int]]

    @property
    def pos(self) -> Pos:
        return Pos(self._path, *self._at)

    @property
    def item_pos(self) -> Sequence[Pos]:
        return _ItemPositions(self)


class _Builder:
    """Builds YMap/YList/scalars straight from composed nodes, the common tags inline.

    Only standard YAML tags are accepted (the loader is a SafeLoader); anything else goes
    through the safe constructor, which rejects it. Every text is checked (printable, not too
    long) and every number is finite.
    """

    def __init__(self, loader: yaml.SafeLoader, path: str, problems: list[Problem]):
        self.loader, self.path, self.problems = loader, path, problems

    def build(self, node: yaml.Node) -> Any:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if isinstance(node, yaml.SequenceNode) and tag == _SEQ:
            result = YList(self.build(child) for child in node.value)
            result._path, result._at = self.path, self._spot(node)
            result._items_at = [self._spot(child) for child in node.value]
            return result
        if isinstance(node, yaml.MappingNode) and tag == _MAP:
            return self._mapping(node)
        return self.loader.construct_object(node, deep=True)

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == _INT and len(text.lstrip("+-")) > MAX_DIGITS:
            self.problems.append(expected_found(self._pos(node), f"a whole number of at most {MAX_DIGITS} digits",
                                                f"{len(text)} characters", raw=True))
            return 0
        if tag == _STR:
            value: Any = text
        elif tag == _INT and text.isdigit() and (text[0] != "0" or len(text) == 1):
            value = int(text)
        else:
            try:
                value = self.loader.construct_object(node, deep=True)
            except yaml.YAMLError:
                raise
            except Exception:  # noqa: BLE001 - an explicit tag on a value it cannot read (!!int abc) fails in many ways
                shown = tag.replace("tag:yaml.org,2002:", "!!")
                self.problems.append(expected_found(self._pos(node), f"a value its tag {shown} can read", text))
                return None
        if isinstance(value, str):
            wrong = text_problem(value)
            if wrong:
                self.problems.append(Problem(self._pos(node), wrong))
        elif isinstance(value, float) and not math.isfinite(value):
            self.problems.append(expected_found(self._pos(node), "a finite number", text, raw=True))
        return value

    def _pos(self, node: yaml.Node) -> Pos:
        return node_pos(self.path, node)

    @staticmethod
    def _spot(node: yaml.Node) -> tuple[int, int]:
        mark = node.start_mark
        return mark.line + 1, mark.column + 1

    def _mapping(self, node: yaml.MappingNode) -> YMap:
        self.loader.flatten_mapping(node)
        result = YMap()
        result._path, result._at, result._spots = self.path, self._spot(node), {}
        spots = result._spots
        for key_node, value_node in node.value:
            key = self.build(key_node)
            if getattr(key_node, "ambiguous", False):
                continue  # reported by the composer
            if isinstance(key, bool) or key is None:
                self.problems.append(expected_found(self._pos(key_node), "a key that is text or a number "
                                                    f"(\"{key_node.value}\" in quotes)", key))
                continue
            if not isinstance(key, (str, int, float)):
                self.problems.append(Problem(self._pos(key_node), "expected a plain key, found a complex key"))
                continue
            if key in result:
                self.problems.append(Problem(self._pos(key_node), f"expected each key once, found {key!r} again"))
            result[key] = self.build(value_node)
            km, vm = key_node.start_mark, value_node.start_mark
            spots[key] = (km.line + 1, km.column + 1, vm.line + 1, vm.column + 1)
        return result


class _Rare(Exception):
    """A file the one-pass builder leaves to the composer and builder: anchors, aliases, tags, merge keys,
    anything over a limit and any problem (those two then find and word it exactly)."""


_NO_KEY = object()  # a mapping waiting for its next key, not for a value
_KEY_TYPES = frozenset({str, int, float})
# plain scalars the builder makes from their text alone, no alias or merge: the one pass builds these
_PLAIN_TAGS = frozenset({_STR, _INT, "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                         "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp"})


class _Plain:
    """Plain scalars a resolver may read as something else than text (`no`, `12`, `2024-01-01`) → values
    as the composer and builder make them, or _Rare at any problem."""

    def __init__(self, loader: Any, path: str):
        self.loader = loader
        self.problems: list[Problem] = []
        self.texts: set[str] = set()  # plain scalars already found to be text without a problem
        self.composer, self.builder = Composer(loader, path, self.problems), _Builder(loader, path, self.problems)

    def __call__(self, event: Any, text: str) -> Any:
        if event.style:
            raise _Rare
        tag = self.loader.resolve(yaml.ScalarNode, text, event.implicit)
        if tag == _STR:
            if not isinstance(core_value(text), str) or text_problem(text):
                raise _Rare  # YAML 1.2 reads it otherwise, or a bad text
            self.texts.add(text)
            return text
        if tag == _INT and text.isdigit() and (text[0] != "0" or len(text) == 1) and len(text) <= MAX_DIGITS:
            return int(text)
        if tag not in _PLAIN_TAGS:
            raise _Rare
        node = yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, style=event.style)
        self.composer.check_plain(node)
        value = self.builder._scalar(node)
        if self.problems:
            raise _Rare
        return value


def _one_pass(loader: Any, path: str) -> Any:
    """The values of a file, built straight from the parser's events, as the composer and builder
    build them; raises _Rare (or a YAML error) for anything they must read instead."""
    resolvers = loader.yaml_implicit_resolvers
    if None in resolvers:
        raise _Rare  # a resolver for plain scalars of any first character
    get = loader.get_event
    get()  # stream start
    if type(get()) is yaml.StreamEndEvent:
        return None
    collecting = gc.isenabled()
    gc.disable()  # the values are ~10 objects per line that all live on: the collector would walk them for nothing
    try:
        root = _one_document(get, _Plain(loader, path), frozenset(resolvers), path)
    finally:
        if collecting:
            gc.enable()
    get()  # document end
    if type(get()) is not yaml.StreamEndEvent:
        raise _Rare
    return root


def _one_document(get: Any, plain: _Plain, firsts: frozenset[str], path: str) -> Any:
    """The document's values; one loop, as its events are most of a large file's loading time."""
    # open containers, innermost last: [YList, item positions] or [YMap, spots, key, key line, key col]
    stack: list[list[Any]] = []
    scalar_event, map_start, seq_start = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    plain_texts, not_text = plain.texts, NOT_TEXT.search
    while True:
        event = get()
        kind = type(event)
        if kind is scalar_event:
            text = event.value
            if event.anchor is not None or event.tag is not None:
                raise _Rare
            if event.implicit[0] and text[:1] in firsts and text not in plain_texts:
                value = plain(event, text)
            elif len(text) > MAX_TEXT or not text.isprintable() and not_text(text):
                raise _Rare  # text must be readable (what NOT_TEXT finds is never printable: most text skips it)
            else:
                value = text
            mark = event.start_mark
            line, col = mark.line + 1, mark.column + 1
        elif kind is map_start or kind is seq_start:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise _Rare
            stack.append(_open(kind is map_start, event.start_mark, path))
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value = stack.pop()[0]
            line, col = value._at
        else:
            raise _Rare  # an alias
        if not stack:
            return value
        top = stack[-1]
        if len(top) == 2:
            top[0].append(value)
            top[1].append((line, col))
        elif top[2] is _NO_KEY:
            if type(value) not in _KEY_TYPES or value in top[0]:
                raise _Rare  # not a plain key, or a key again
            top[2], top[3], top[4] = value, line, col
        else:
            key = top[2]
            top[0][key] = value
            top[1][key] = (top[3], top[4], line, col)
            top[2] = _NO_KEY


def _open(mapping: bool, mark: Any, path: str) -> list[Any]:
    at = (mark.line + 1, mark.column + 1)
    if mapping:
        result = YMap()
        result._path, result._at, result._spots = path, at, {}
        return [result, result._spots, _NO_KEY, 0, 0]
    items = YList()
    items._path, items._at, items._items_at = path, at, []
    return [items, items._items_at]


def load_yaml(file: Path, shown_as: str) -> Any:
    """Load one YAML file; `shown_as` is the path printed in messages. Raises ContentError."""
    from .cache import cached

    data = read_limited(file, shown_as)
    return cached(data, shown_as, lambda: _parse(data, shown_as))


def _parse(data: bytes, shown_as: str, base: Any = BASE) -> Any:
    text = decode(data, shown_as)
    loader = base(text)
    try:
        return _one_pass(loader, shown_as)
    except (_Rare, yaml.YAMLError):
        pass  # read again below: the composer and the builder take the rare parts and word every problem
    finally:
        loader.dispose()
    return _compose_and_build(text, shown_as, base)


def _compose_and_build(text: str, shown_as: str, base: Any) -> Any:
    problems: list[Problem] = []
    loader = base(text)
    try:
        root = Composer(loader, shown_as, problems).compose()
        data_out = None if root is None else _Builder(loader, shown_as, problems).build(root)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem) and base is not yaml.SafeLoader:
            # newer libyaml scans far ahead and stops at its own depth limit, before the composer reaches
            # ours: the pure-Python parser hands over one event at a time, so the problem is placed alike
            return _compose_and_build(text, shown_as, yaml.SafeLoader)
        mark = exc.problem_mark or exc.context_mark
        pos = Pos(shown_as, mark.line + 1, mark.column + 1) if mark else Pos(shown_as)
        problem = " ".join(str(exc.problem or exc.context).split())
        raise ContentError(problems + [Problem(pos, f"expected valid YAML, found a syntax error: {problem}")]) from None
    except yaml.YAMLError as exc:
        found = " ".join(str(exc).split())
        raise ContentError(problems + [Problem(Pos(shown_as), f"expected valid YAML, found {found}")]) from None
    finally:
        loader.dispose()
    if problems:
        raise ContentError(problems)
    return data_out


def pos_of(container: Any, key: Any = None, *, key_itself: bool = False) -> Pos | None:
    """Position of `container[key]` (or of its key), or of the container when key is None."""
    if key is None:
        return getattr(container, "pos", None)
    if isinstance(container, YMap):
        if key not in container._spots:
            return container.pos
        return (container.key_pos if key_itself else container.value_pos)[key]
    if isinstance(container, YList) and isinstance(key, int) and 0 <= key < len(container._items_at):
        return container.item_pos[key]
    return getattr(container, "pos", None)


def locate(root: Any, loc: tuple[Any, ...], fallback: Pos) -> Pos:
    """Walk a pydantic-style location path through loaded data to the deepest known position."""
    node, pos = root, getattr(root, "pos", fallback)
    for part in loc:
        if isinstance(node, YMap) and part in node:
            pos, node = node.value_pos[part], node[part]
        elif isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
            pos, node = node.item_pos[part], node[part]
        else:
            break
    return pos or fallback
