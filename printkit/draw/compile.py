"""Compile a card template once, then fill only what changes from card to card.

A template's fields fall in two groups: those it only prints (`{{ card.title }}`) and those it
tests, indexes or transforms (`{% if card.type == … %}`, `data.types[card.type]`,
`card.location | upper`). Cards that agree on the second group produce the same SVG apart from
the printed values, so the template is rendered once per such group with placeholders, parsed
once, and each card supplies only its printed values. Every plan is checked against a full
render of the first card of its group; a template that defeats the analysis simply keeps the
ordinary path (render and parse per card).
"""
from __future__ import annotations

from functools import lru_cache

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import escape

from .templates import TemplateSet, environment
from .templates.inkscape import flatten

if TYPE_CHECKING:
    from jinja2 import nodes

TOKEN = "\ue000{}\ue001"
TOKEN_RE = re.compile("\ue000(\\w+)\ue001")


@dataclass(frozen=True)
class Plan:
    """A parsed SVG whose printed fields are placeholders."""

    root: ET.Element
    fields: frozenset[str]


@dataclass(frozen=True)
class Fields:
    """How a template uses its item: fields it only prints, and fields it tests or transforms."""

    printed: frozenset[str]
    structural: frozenset[str]


def analyse(tpl: TemplateSet, name: str, var: str) -> Fields | None:
    """How the template uses `var`'s fields; None when it cannot tell."""
    import jinja2
    from jinja2 import nodes

    env = environment(tpl.folders)
    try:
        source = env.loader.get_source(env, name)[0]
        tree = env.parse(source)
    except jinja2.TemplateError:
        return None
    if any(True for _ in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport, nodes.Macro))):
        return None
    printed: set[str] = set()
    other: set[str] = set()

    def visit(node: nodes.Node) -> bool:
        for child in node.iter_child_nodes():
            if isinstance(child, nodes.Getattr) and isinstance(child.node, nodes.Name) and child.node.name == var:
                (printed if isinstance(node, nodes.Output) else other).add(child.attr)
                continue
            if isinstance(child, nodes.Getitem) and isinstance(child.node, nodes.Name) and child.node.name == var:
                if not isinstance(child.arg, nodes.Const):
                    return False
                other.add(str(child.arg.value))
                continue
            if isinstance(child, nodes.Name) and child.name == var:
                return False  # the whole card is used (looped over, passed on): no analysis
            if not visit(child):
                return False
        return True

    return Fields(frozenset(printed - other), frozenset(other)) if visit(tree) else None


def _fill_svg(svg: str, values: dict[str, Any]) -> str:
    return TOKEN_RE.sub(lambda m: str(escape(values[m.group(1)])), svg)


def plan_for(tpl: TemplateSet, name: str, base: dict[str, Any], var: str, item: dict[str, Any],
             fields: frozenset[str], full: str) -> Plan | None:
    """The plan of the item's group, if a placeholder render filled with the item equals `full`."""
    present = frozenset(f for f in fields if f in item)
    probe = {**item, **{f: TOKEN.format(f) for f in present}}
    svg = tpl.probe(name, **base, **{var: probe})
    if _fill_svg(svg, item) != full:
        return None
    return Plan(flatten(ET.fromstring(svg)), present)


_ABSENT = object()


def group_key(item: dict[str, Any], structural: frozenset[str]) -> tuple:
    """What a group of cards shares: the values (or absence) of the fields the template tests."""
    return tuple((k, repr(item.get(k, _ABSENT)) if k in item else None) for k in sorted(structural))


def substitute(text: str, values: dict[str, str]) -> str:
    parts = _parts(text)
    if len(parts) == 1:
        return text
    if len(parts) == 3 and not parts[0] and not parts[2]:
        return values[parts[1]]  # the common case: an attribute or a text that is one value
    return "".join(values[part] if i % 2 else part for i, part in enumerate(parts))


@lru_cache(maxsize=4096)
def _parts(text: str) -> tuple[str, ...]:
    """A plan's text split at its placeholders: literal, field name, literal, … (a plan's texts are few)."""
    return tuple(TOKEN_RE.split(text))
