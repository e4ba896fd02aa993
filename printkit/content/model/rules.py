"""Typed models of a game's rules-count schema and graph-board facts (the `rules` and `facts` of
game.yaml), each field documented."""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ...errors import describe
from .base import *  # noqa: F401,F403 - the limits, Strict and the bounded number types
from .base import Strict

class Selector(Strict):
    """Picks items (or board nodes/areas) out of one or more components."""

    component: str | list[str] = Field(description="component stem, or a list of stems")
    collection: str = Field(
        "items", description="which collection: items; component: one entry of the component's own settings (back, size...); a graph board's nodes or areas; a hex board's pieces, placements or "
                    "starts (the last two carry their layout's id as `layout`); data.<name>: a list in the "
                    "component's data (a table such as a setup by player count)")
    where: dict[str, Any] = Field(default_factory=dict, description="keep only entries whose fields equal these values; "
                                                                     "{in: [a, b]} keeps entries whose field is one of them, "
                                                                     "{not: v} those whose field differs (not: null: has a value)")
    field: str | None = Field(None, description="the field whose values a names/range/length rule reads")
    per: list[str] = Field(default_factory=list, description="count rule: the count holds for each group of entries "
                                                             "sharing these fields' values (e.g. [layout, player])")

    @field_validator("collection")
    @classmethod
    def _known_collection(cls, value: str) -> str:
        if value in COLLECTIONS or re.fullmatch(r"data\.[A-Za-z_][\w-]*", value):
            return value
        raise ValueError(f"expected {', '.join(COLLECTIONS)} or data.<name>, found {value!r}")

    @property
    def components(self) -> list[str]:
        return [self.component] if isinstance(self.component, str) else list(self.component)


COLLECTIONS = ("items", "component", "nodes", "areas", "pieces", "placements", "starts")


class Rule(Strict):
    """One count, name list or value the rulebook states, checked on every build."""

    id: str = Field(description="short unique name of the rule")
    source: str = Field(description="rulebook file and section the value comes from, or 'designed: …'")
    count: Selector | None = Field(None, description="count physical pieces (quantities expanded)")
    names: Selector | None = Field(None, description="the multiset of a field's values over pieces")
    range: Selector | None = Field(None, description="every value of a field lies within min..max")
    length: Selector | None = Field(None, description="every selected item's list field has `expect` entries (or min..max)")
    supply: "Supply | None" = Field(None, description="there are enough pieces for what each player count hands out")
    param: str | None = Field(None, description="a value of game.yaml's params")
    expect: Any = Field(None, description="the expected count, list of names, or param value")
    min: float | None = Field(None, description="lower bound of a range, length or count rule")
    max: float | None = Field(None, description="upper bound of a range, length or count rule")

    @model_validator(mode="after")
    def _one_check(self) -> "Rule":
        given = [k for k in RULE_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"expected exactly one of {', '.join(RULE_KINDS)}, found {len(given)}")
        bounded = given[0] in ("range", "length") or (given[0] == "count" and (self.min, self.max) != (None, None))
        if not bounded and given[0] != "supply" and self.expect is None:
            raise ValueError("expected an 'expect' value, found nothing")
        if bounded and self.expect is None and self.min is None and self.max is None:
            raise ValueError(f"expected 'min' or 'max' on a {given[0]} rule, found neither")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in RULE_KINDS if getattr(self, k) is not None)


RULE_KINDS = ("count", "names", "range", "length", "supply", "param")


class Share(Strict):
    players: Players = Field(description="a player count")
    param: str = Field(description="the param giving each player's share at that count")


class Supply(Strict):
    """Each player takes `param` pieces at a player count: the pieces must suffice for every count."""

    pieces: Selector = Field(description="the pieces shared out")
    shares: list[Share] = Field(min_length=1, description="what each player takes, by player count")


# No Rule.model_rebuild() for the Supply it names before it is defined: Strict's models are built on first use
# (defer_build), when Supply is; a rebuild here would build Rule's validator (~15 ms) at every import


class NodePair(Strict):
    from_: str = Field(alias="from", description="node name or id")
    to: str = Field(description="node name or id")


class Within(Strict):
    from_: str = Field(alias="from", description="node name or id")
    to: list[str] = Field(description="node names or ids that must be close")
    max: int = Field(description="largest allowed number of moves")


class Reachable(Strict):
    from_: dict[str, Any] = Field(alias="from", description="node selector (field equality)")
    to: dict[str, Any] = Field(description="node selector (field equality)")


class Exits(Strict):
    nodes: dict[str, Any] = Field(description="node selector (field conditions); {} selects every node")
    min: int = Field(2, ge=1, description="fewest links each selected node must have")


FACT_KINDS = ("distance", "within", "reachable", "corners", "nearest", "exits")


class Fact(Strict):
    """An assertion on a graph board, from the rulebook's own examples or its fairness."""

    id: str = Field(description="short unique name of the fact")
    source: str = Field(description="rulebook file and section")
    board: str = Field(description="stem of the board-graph component")
    distance: NodePair | None = Field(None, description="shortest path in moves must equal expect")
    within: Within | None = Field(None, description="each target within max moves")
    reachable: Reachable | None = Field(None, description="every 'to' node reachable from every 'from' node")
    corners: dict[str, Any] | None = Field(None, description="nodes matching this selector are the nearest to each board corner")
    nearest: Reachable | None = Field(None, description="every 'from' node has its nearest 'to' node at the same number of "
                                                         "moves (exactly expect moves, when expect is given)")
    exits: Exits | None = Field(None, description="every selected node has at least min links, so no one is stuck in it")
    expect: int | None = Field(None, description="moves expected by a distance (required) or nearest fact")

    @model_validator(mode="after")
    def _one_check(self) -> "Fact":
        given = [k for k in FACT_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"expected exactly one of {', '.join(FACT_KINDS)}, found {len(given)}")
        if given[0] == "distance" and self.expect is None:
            raise ValueError("expected an 'expect' distance, found nothing")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in FACT_KINDS if getattr(self, k) is not None)
