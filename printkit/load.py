"""YAML → plain Python values that remember where they came from.

Mappings load as `YMap` and sequences as `YList`; both keep the position of each key and value,
so any later stage can point at the exact line and column of a field. Loading is safe: only
standard YAML tags, no Python objects.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import ContentError, Pos, Problem


class YMap(dict):
    """A dict with the position of itself, of each key and of each value."""

    pos: Pos
    key_pos: dict[Any, Pos]
    value_pos: dict[Any, Pos]


class YList(list):
    """A list with the position of itself and of each item."""

    pos: Pos
    item_pos: list[Pos]


def _pos(path: str, mark: yaml.Mark) -> Pos:
    return Pos(path, mark.line + 1, mark.column + 1)



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
            result.pos = self._pos(node)
            result.item_pos = [self._pos(child) for child in node.value]
            return result
        if isinstance(node, yaml.MappingNode) and tag == _MAP:
            return self._mapping(node)
        return self.loader.construct_object(node, deep=True)

    def _pos(self, node: yaml.Node) -> Pos:
        mark = node.start_mark
        return Pos(self.path, mark.line + 1, mark.column + 1)

    def _mapping(self, node: yaml.MappingNode) -> YMap:
        self.loader.flatten_mapping(node)
        result = YMap()
        result.pos, result.key_pos, result.value_pos = self._pos(node), {}, {}
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
            result.key_pos[key] = self._pos(key_node)
            result.value_pos[key] = self._pos(value_node)
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
        pos = _pos(shown_as, mark) if mark else Pos(shown_as)
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
        table = container.key_pos if key_itself else container.value_pos
        return table.get(key, container.pos)
    if isinstance(container, YList) and isinstance(key, int) and 0 <= key < len(container.item_pos):
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
