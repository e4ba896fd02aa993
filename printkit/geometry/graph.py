"""Graph boards as graphs: adjacency, shortest paths, corners."""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Graph:
    """Undirected graph of node ids; `chains` are paths whose consecutive nodes are linked."""

    nodes: dict[str, tuple[float, float]]
    adjacent: dict[str, frozenset[str]]

    @classmethod
    def from_chains(cls, nodes: dict[str, tuple[float, float]], chains: list[list[str]]) -> "Graph":
        links: dict[str, set[str]] = {node: set() for node in nodes}
        for chain in chains:
            for a, b in zip(chain, chain[1:]):
                if a in links and b in links and a != b:
                    links[a].add(b)
                    links[b].add(a)
        return cls(dict(nodes), {k: frozenset(v) for k, v in links.items()})

    def distances(self, start: str) -> dict[str, int]:
        """Moves from start to every reachable node (breadth-first)."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in sorted(self.adjacent[here]):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def nearest(self, point: tuple[float, float]) -> str:
        return min(sorted(self.nodes), key=lambda n: math.dist(self.nodes[n], point))


def corners(width: float, height: float) -> dict[str, tuple[float, float]]:
    return {"top-left": (0.0, 0.0), "top-right": (width, 0.0),
            "bottom-right": (width, height), "bottom-left": (0.0, height)}
