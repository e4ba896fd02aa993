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


_SCALAR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG


# libyaml's parser when PyYAML was built with it (the wheels are): ~10x faster, same marks.
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _make_loader(path: str, problems: list[Problem]) -> type[yaml.SafeLoader]:
    class Loader(_BASE):  # type: ignore[valid-type, misc]
        pass

    def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> YMap:
        loader.flatten_mapping(node)
        result = YMap()
        result.pos, result.key_pos, result.value_pos = _pos(path, node.start_mark), {}, {}
        for key_node, value_node in node.value:
            # plain string keys are by far the most common: skip the generic constructor for them
            if key_node.tag == _SCALAR and key_node.style is None and key_node.value.isidentifier():
                key = key_node.value
            else:
                key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                problems.append(Problem(_pos(path, key_node.start_mark),
                                        "expected a plain key, found a complex key"))
                continue
            if key in result:
                problems.append(Problem(_pos(path, key_node.start_mark),
                                        f"expected each key once, found {key!r} again"))
            result[key] = loader.construct_object(value_node, deep=True)
            km, vm = key_node.start_mark, value_node.start_mark
            result.key_pos[key] = Pos(path, km.line + 1, km.column + 1)
            result.value_pos[key] = Pos(path, vm.line + 1, vm.column + 1)
        return result

    def construct_sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> YList:
        result = YList(loader.construct_object(child, deep=True) for child in node.value)
        result.pos = _pos(path, node.start_mark)
        result.item_pos = [_pos(path, child.start_mark) for child in node.value]
        return result

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    return Loader


def load_yaml(file: Path, shown_as: str) -> Any:
    """Load one YAML file; `shown_as` is the path printed in messages. Raises ContentError."""
    problems: list[Problem] = []
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError([Problem(Pos(shown_as), f"expected a readable UTF-8 file, found {exc.__class__.__name__}")])
    try:
        data = yaml.load(text, Loader=_make_loader(shown_as, problems))  # noqa: S506 - SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(shown_as, mark) if mark else Pos(shown_as)
        raise ContentError([Problem(pos, f"expected valid YAML, found a syntax error: {exc.problem}")])
    except yaml.YAMLError as exc:
        raise ContentError([Problem(Pos(shown_as), f"expected valid YAML, found {exc}")])
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
