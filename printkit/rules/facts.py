"""Facts about graph boards: distances, reach, corners and fairness, checked on every build."""
from __future__ import annotations

from typing import Any

from ..content import GameContent, LoadedComponent
from ..errors import Pos, Problem, expected_found
from ..geometry import Graph, corners
from ..content import pos_of
from ..content import Fact, GraphBoard
from ..content import matches


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


def _selected(model: GraphBoard, where: dict[str, Any]) -> list[str]:
    return [n.id for n in model.nodes if matches(n.model_dump(), where)]


def _moves(actual: int | None) -> str:
    return "no path" if actual is None else str(actual)


class _FactCheck:
    """One fact on one board: each kind of fact is a method named for it."""

    def __init__(self, content: GameContent, fact: Fact, raw: Any, model: GraphBoard, graph: Graph):
        self.fact, self.raw, self.model, self.graph = fact, raw, model, graph
        self.at = pos_of(raw) or Pos(content.shown)
        self.body = raw.get(fact.kind) if hasattr(raw, "get") else None
        self.problems: list[Problem] = []

    def node(self, name: str, where: Pos | None) -> str | None:
        found = _resolve(self.model, name)
        if found is None:
            self.problems.append(expected_found(where or self.at, f"a node name or id of board {self.fact.board!r}", name))
        return found

    def report(self, where: Pos | None, wanted: str, found: str) -> None:
        self.problems.append(Problem(where or self.at, f"expected {wanted} (fact {self.fact.id}), found {found}"))

    def selected(self, where: dict[str, Any], key: str) -> list[str]:
        ids = _selected(self.model, where)
        if not ids:
            self.problems.append(expected_found(pos_of(self.body, key) or self.at, "a selector that matches nodes",
                                                "no node", raw=True))
        return ids

    def distance(self) -> None:
        spec = self.fact.distance
        a, b = self.node(spec.from_, pos_of(self.body, "from")), self.node(spec.to, pos_of(self.body, "to"))
        if a and b:
            actual = self.graph.distances(a).get(b)
            if actual != self.fact.expect:
                self.report(pos_of(self.raw, "expect"), f"{self.fact.expect} moves from {_label(self.model, a)!r} "
                            f"to {_label(self.model, b)!r}", _moves(actual))

    def within(self) -> None:
        spec = self.fact.within
        a = self.node(spec.from_, pos_of(self.body, "from"))
        targets = self.body.get("to") if hasattr(self.body, "get") else None
        for i, name in enumerate(spec.to):
            b = self.node(name, pos_of(targets, i))
            if a and b:
                actual = self.graph.distances(a).get(b)
                if actual is None or actual > spec.max:
                    self.report(pos_of(targets, i), f"{_label(self.model, b)!r} within {spec.max} moves of "
                                f"{_label(self.model, a)!r}", _moves(actual))

    def reachable(self) -> None:
        spec = self.fact.reachable
        sources, targets = self.selected(spec.from_, "from"), self.selected(spec.to, "to")
        for s in sources:
            dist = self.graph.distances(s)
            for t in targets:
                if t not in dist:
                    self.report(None, f"{_label(self.model, t)!r} reachable from {_label(self.model, s)!r}", "no path")

    def corners(self) -> None:
        for corner, point in corners(*self.model.size).items():
            nearest = self.graph.nearest(point)
            values = next(n for n in self.model.nodes if n.id == nearest).model_dump()
            if not matches(values, self.fact.corners):
                wanted = ", ".join(f"{k}={v}" for k, v in self.fact.corners.items())
                self.report(None, f"a node with {wanted} nearest the {corner} corner", repr(_label(self.model, nearest)))

    def nearest(self) -> None:
        spec = self.fact.nearest
        sources, targets = self.selected(spec.from_, "from"), self.selected(spec.to, "to")
        if not sources or not targets:
            return
        found: dict[str, int | None] = {}
        for s in sources:
            dist = self.graph.distances(s)
            found[s] = min((dist[t] for t in targets if t in dist), default=None)
        wanted = self.fact.expect
        if wanted is None and len(set(found.values())) == 1 and None not in found.values():
            return
        if wanted is not None and all(v == wanted for v in found.values()):
            return
        listed = ", ".join(f"{_label(self.model, s)} {_moves(v)}" for s, v in found.items())
        moves = f"exactly {wanted} moves" if wanted is not None else "the same number of moves"
        self.report(pos_of(self.raw, "expect") if wanted is not None else None,
                    f"the nearest selected 'to' node at {moves} from every 'from' node", listed)

    def exits(self) -> None:
        spec = self.fact.exits
        for node_id in self.selected(spec.nodes, "nodes"):
            links = len(self.graph.adjacent[node_id])
            if links < spec.min:
                self.report(None, f"at least {spec.min} links from {_label(self.model, node_id)!r}", str(links))


def check_fact(content: GameContent, fact: Fact, raw: Any) -> list[Problem]:
    comp = content.components.get(fact.board)
    if comp is None or not isinstance(comp.model, GraphBoard):
        at = pos_of(raw) or Pos(content.shown)
        return [expected_found(pos_of(raw, "board") or at, "a board-graph component", fact.board)]
    check = _FactCheck(content, fact, raw, comp.model, board_graph(comp)[0])
    getattr(check, fact.kind)()
    return check.problems
