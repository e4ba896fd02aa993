"""YAML → plain Python values that remember where they came from.

Mappings load as `YMap` and sequences as `YList`; both keep the position of each key and value,
so any later stage can point at the exact line and column of a field. Loading is safe: only
standard YAML tags, no Python objects.
"""
from __future__ import annotations

from pathlib import Path
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import yaml

from ..errors import ContentError, Pos, Problem


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


# libyaml's parser when PyYAML was built with it (the wheels are): ~10x faster, same marks.
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
_MAP, _SEQ = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG


class _Builder:
    """Builds YMap/YList/scalars straight from composed nodes, the common tags inline.

    Only standard YAML tags are accepted (the loader is a SafeLoader); anything else goes
    through the safe constructor, which rejects it.
    """

    def __init__(self, loader: yaml.SafeLoader, path: str, problems: list[Problem]):
        self.loader, self.path, self.problems = loader, path, problems

    def build(self, node: yaml.Node) -> Any:
        tag = node.tag
        if isinstance(node, yaml.ScalarNode):
            if tag == _STR:
                return node.value
            if tag == _INT and node.value.isdigit():
                return int(node.value)
            return self.loader.construct_object(node, deep=True)
        if isinstance(node, yaml.SequenceNode) and tag == _SEQ:
            result = YList(self.build(child) for child in node.value)
            result._path, result._at = self.path, self._spot(node)
            result._items_at = [self._spot(child) for child in node.value]
            return result
        if isinstance(node, yaml.MappingNode) and tag == _MAP:
            return self._mapping(node)
        return self.loader.construct_object(node, deep=True)

    def _pos(self, node: yaml.Node) -> Pos:
        mark = node.start_mark
        return Pos(self.path, mark.line + 1, mark.column + 1)

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
            # plain identifier keys stay strings: an i18n key `no:` must not become False
            if isinstance(key_node, yaml.ScalarNode) and key_node.style is None and key_node.value.isidentifier():
                key = key_node.value
            else:
                key = self.build(key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self.problems.append(Problem(self._pos(key_node), "expected a plain key, found a complex key"))
                continue
            if key in result:
                self.problems.append(Problem(self._pos(key_node), f"expected each key once, found {key!r} again"))
            result[key] = self.build(value_node)
            km, vm = key_node.start_mark, value_node.start_mark
            spots[key] = (km.line + 1, km.column + 1, vm.line + 1, vm.column + 1)
        return result


def load_yaml(file: Path, shown_as: str) -> Any:
    """Load one YAML file; `shown_as` is the path printed in messages. Raises ContentError."""
    from .cache import cached

    return cached(file, shown_as, lambda: _parse(file, shown_as))


def _parse(file: Path, shown_as: str) -> Any:
    problems: list[Problem] = []
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError([Problem(Pos(shown_as), f"expected a readable UTF-8 file, found {exc.__class__.__name__}")])
    loader = _BASE(text)
    try:
        root = loader.get_single_node()
        data = None if root is None else _Builder(loader, shown_as, problems).build(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = Pos(shown_as, mark.line + 1, mark.column + 1) if mark else Pos(shown_as)
        raise ContentError([Problem(pos, f"expected valid YAML, found a syntax error: {exc.problem}")])
    except yaml.YAMLError as exc:
        raise ContentError([Problem(Pos(shown_as), f"expected valid YAML, found {exc}")])
    finally:
        loader.dispose()
    if problems:
        raise ContentError(problems)
    return data


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
