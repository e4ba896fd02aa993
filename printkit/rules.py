"""The rules-count schema and rule facts: checked against expanded content on every build."""
from __future__ import annotations

from collections import Counter
from typing import Any

from .content import GameContent, LoadedComponent
from .errors import Pos, Problem, describe, expected_found
from .geometry.graph import Graph, corners
from .load import pos_of
from .checks import run_checks
from .model import Board, Fact, GraphBoard, Rule, Selector


def field_value(values: dict[str, Any], path: str) -> Any:
    """A field's value; a dotted path (front_face.id) reads into map fields."""
    value: Any = values
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _matches(values: dict[str, Any], where: dict[str, Any]) -> bool:
    return all(field_value(values, k) == v for k, v in where.items())


def _entries(comp: LoadedComponent, sel: Selector) -> list[tuple[dict[str, Any], int, Pos]]:
    """(values, copies, position) of each entry of the selected collection."""
    if sel.collection == "items":
        if isinstance(comp.model, Board):  # a board is one piece with no items
            return [(comp.model.data, 1, comp.raw.pos)]
        return [(it.values, it.qty, it.pos) for it in comp.items]
    model = comp.model
    if not isinstance(model, GraphBoard):
        return []
    raw_list = comp.raw.get(sel.collection, [])
    source = model.nodes if sel.collection == "nodes" else model.areas
    return [(e.model_dump(by_alias=True), 1, pos_of(raw_list, i) or comp.raw.pos) for i, e in enumerate(source)]


def _select(content: GameContent, sel: Selector, at: Pos) -> tuple[list[tuple[dict[str, Any], int, Pos]], list[Problem]]:
    chosen, problems = [], []
    for stem in sel.components:
        comp = content.components.get(stem)
        if comp is None:
            problems.append(expected_found(at, "a component listed in game.yaml (" + ", ".join(content.components) + ")", stem))
            continue
        chosen += [e for e in _entries(comp, sel) if _matches(e[0], sel.where)]
    return chosen, problems


def _show_list(values: list[Any]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def check_rule(content: GameContent, rule: Rule, raw: Any) -> list[Problem]:
    at = pos_of(raw, "expect") or pos_of(raw) or Pos(content.shown)
    if rule.kind == "param":
        if rule.param not in content.game.params:
            return [expected_found(pos_of(raw, "param") or at, "a name from params", rule.param)]
        actual = content.game.params[rule.param]
        if actual != rule.expect:
            return [Problem(at, f"expected {rule.param} = {describe(rule.expect)} (rule {rule.id}), found {describe(actual)}")]
        return []
    sel: Selector = getattr(rule, rule.kind)
    entries, problems = _select(content, sel, pos_of(raw, rule.kind) or at)
    if problems:
        return problems
    if rule.kind == "count":
        actual = sum(copies for _, copies, _ in entries)
        if actual != rule.expect:
            return [Problem(at, f"expected {describe(rule.expect)} pieces (rule {rule.id}), found {actual}")]
        return []
    if sel.field is None:
        return [expected_found(pos_of(raw, rule.kind) or at, f"a 'field' for a {rule.kind} rule", None)]
    if rule.kind == "names":
        actual = sorted((field_value(v, sel.field) for v, copies, _ in entries for _ in range(copies)), key=str)
        wanted = sorted(rule.expect if isinstance(rule.expect, list) else [rule.expect], key=str)
        if Counter(map(str, actual)) != Counter(map(str, wanted)):
            return [Problem(at, f"expected {_show_list(wanted)} (rule {rule.id}), found {_show_list(actual)}")]
        return []
    out = []
    for values, _, where in entries:
        value = field_value(values, sel.field)
        if not isinstance(value, (int, float)) or (rule.min is not None and value < rule.min) or (
                rule.max is not None and value > rule.max):
            lo = "" if rule.min is None else f"{rule.min:g}"
            hi = "" if rule.max is None else f"{rule.max:g}"
            out.append(Problem(where, f"expected {sel.field} in {lo}..{hi} (rule {rule.id}), found {describe(value)}"))
    return out


def board_graph(comp: LoadedComponent) -> tuple[Graph, list[Problem]]:
    """The board's graph, and any link to a node that does not exist or repeated id."""
    model = comp.model
    assert isinstance(model, GraphBoard)
    problems = []
    nodes: dict[str, tuple[float, float]] = {}
    raw_nodes = comp.raw.get("nodes", [])
    for i, node in enumerate(model.nodes):
        if node.id in nodes:
            problems.append(expected_found(pos_of(raw_nodes, i) or comp.raw.pos, "a unique node id", node.id))
        nodes[node.id] = node.at
    raw_edges = comp.raw.get("edges", [])
    for i, chain in enumerate(model.edges):
        for j, node_id in enumerate(chain):
            if node_id not in nodes:
                at = pos_of(raw_edges[i], j) if i < len(raw_edges) else comp.raw.pos
                problems.append(expected_found(at or comp.raw.pos, "a node id of this board", node_id))
    return Graph.from_chains(nodes, model.edges), problems


def _resolve(model: GraphBoard, name: str) -> str | None:
    for node in model.nodes:
        if name in (node.id, node.name):
            return node.id
    return None


def _label(model: GraphBoard, node_id: str) -> str:
    node = next(n for n in model.nodes if n.id == node_id)
    return node.name or node.id


def check_fact(content: GameContent, fact: Fact, raw: Any) -> list[Problem]:
    at = pos_of(raw) or Pos(content.shown)
    comp = content.components.get(fact.board)
    if comp is None or not isinstance(comp.model, GraphBoard):
        return [expected_found(pos_of(raw, "board") or at, "a board-graph component", fact.board)]
    model = comp.model
    graph, _ = board_graph(comp)
    body = raw.get(fact.kind) if hasattr(raw, "get") else None

    def node(name: str, where: Pos | None) -> str | None:
        found = _resolve(model, name)
        if found is None:
            problems.append(expected_found(where or at, f"a node name or id of board {fact.board!r}", name))
        return found

    problems: list[Problem] = []
    if fact.kind == "distance":
        a = node(fact.distance.from_, pos_of(body, "from"))
        b = node(fact.distance.to, pos_of(body, "to"))
        if a and b:
            actual = graph.distances(a).get(b)
            if actual != fact.expect:
                problems.append(Problem(pos_of(raw, "expect") or at,
                                        f"expected {fact.expect} moves from {_label(model, a)!r} to {_label(model, b)!r} "
                                        f"(fact {fact.id}), found {'no path' if actual is None else actual}"))
    elif fact.kind == "within":
        a = node(fact.within.from_, pos_of(body, "from"))
        targets = body.get("to") if hasattr(body, "get") else None
        for i, name in enumerate(fact.within.to):
            b = node(name, pos_of(targets, i))
            if a and b:
                actual = graph.distances(a).get(b)
                if actual is None or actual > fact.within.max:
                    problems.append(Problem(pos_of(targets, i) or at,
                                            f"expected {_label(model, b)!r} within {fact.within.max} moves of "
                                            f"{_label(model, a)!r} (fact {fact.id}), found {'no path' if actual is None else actual}"))
    elif fact.kind == "reachable":
        sources = [n.id for n in model.nodes if _matches(n.model_dump(), fact.reachable.from_)]
        targets = [n.id for n in model.nodes if _matches(n.model_dump(), fact.reachable.to)]
        if not sources or not targets:
            problems.append(expected_found(at, "selectors that match nodes", f"{len(sources)} sources and {len(targets)} targets", raw=True))
        for s in sources:
            dist = graph.distances(s)
            for t in targets:
                if t not in dist:
                    problems.append(Problem(at, f"expected {_label(model, t)!r} reachable from {_label(model, s)!r} "
                                                f"(fact {fact.id}), found no path"))
    elif fact.kind == "corners":
        for corner, point in corners(*model.size).items():
            nearest = graph.nearest(point)
            node_values = next(n for n in model.nodes if n.id == nearest).model_dump()
            if not _matches(node_values, fact.corners):
                wanted = ", ".join(f"{k}={v}" for k, v in fact.corners.items())
                problems.append(Problem(at, f"expected a node with {wanted} nearest the {corner} corner "
                                            f"(fact {fact.id}), found {_label(model, nearest)!r}"))
    return problems


def check_game(content: GameContent) -> list[Problem]:
    """Every rule and fact of a game, and the integrity of its boards."""
    problems: list[Problem] = []
    for comp in content.components.values():
        if isinstance(comp.model, GraphBoard):
            problems += board_graph(comp)[1]
    raw_rules = content.raw.get("rules", [])
    for i, rule in enumerate(content.game.rules):
        problems += check_rule(content, rule, raw_rules[i])
    raw_facts = content.raw.get("facts", [])
    for i, fact in enumerate(content.game.facts):
        problems += check_fact(content, fact, raw_facts[i])
    problems += _check_placeholders(content)
    problems += _check_glyphs(content)
    problems += run_checks(content)
    return problems


def _check_glyphs(content: GameContent) -> list[Problem]:
    """Every character of localised text, as typeset, exists in the sheet fonts."""
    from . import text as T
    from .i18n import typography

    T.register_fonts()
    fonts = [T.font_name("Barlow", style) for style in ("regular", "bold")]
    problems = []
    for lang, table in content.catalogs.texts.items():
        for key, value in table.items():
            typeset = typography(value, lang).replace("*", "")
            missing = "".join(sorted({c for f in fonts for c in T.missing_glyphs(typeset, f)}))
            if missing:
                problems.append(expected_found(content.catalogs.positions[lang][key],
                                               "characters the sheet font Barlow has", repr(missing), raw=True))
    return problems


ASSEMBLY_VALUES = frozenset({"title", "count", "size", "tiles", "poster"})


def _check_placeholders(content: GameContent) -> list[Problem]:
    from .i18n import PLACEHOLDER

    problems = []
    for comp in content.components.values():
        for item in comp.items:
            for name, value in item.values.items():
                for found in PLACEHOLDER.findall(value) if isinstance(value, str) else []:
                    if found not in content.game.params:
                        problems.append(expected_found(item.value_pos.get(name, item.pos),
                                                       "a placeholder naming a game param", "{" + found + "}", raw=True))
    for lang, table in content.catalogs.texts.items():
        for key, text in table.items():
            # the print guide fills a part's own assembly text with the part's values
            allowed = ASSEMBLY_VALUES if key.startswith("kit.assembly.") else frozenset()
            for name in PLACEHOLDER.findall(text):
                if name not in content.game.params and name not in allowed:
                    at = content.catalogs.positions[lang][key]
                    problems.append(expected_found(at, "a placeholder naming a game param", "{" + name + "}", raw=True))
    return problems
