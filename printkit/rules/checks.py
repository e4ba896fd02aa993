"""Game-specific checks, registered by name.

Some rules cannot be said in data (a map's reachability under a game's movement rules). A game
lists the checks it needs in game.yaml (`checks: [name]`); each name is an entry point in the
`printkit.checks` group: a function that takes the loaded GameContent and returns Problems,
reading the model only. Entry points come from installed packages, so checks are trusted code:
a content folder can name a check but never supply one.
"""
from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Callable

from ..errors import Problem, expected_found
from ..content import pos_of

if TYPE_CHECKING:
    from ..content import GameContent

Check = Callable[["GameContent"], list[Problem]]


def registry() -> dict[str, EntryPoint | Check]:
    """Every installed check, by name (entry points, loaded only when a game names them)."""
    return {ep.name: ep for ep in entry_points(group="printkit.checks")}


def run_checks(content: GameContent) -> list[Problem]:
    names = content.game.checks
    if not names:
        return []
    known = registry()
    raw = content.raw.get("checks")
    problems: list[Problem] = []
    for i, name in enumerate(names):
        found = known.get(name)
        if found is None:
            listed = ", ".join(sorted(known)) or "none installed"
            problems.append(expected_found(pos_of(raw, i) or content.raw.pos, f"a registered check ({listed})", name))
            continue
        check = found.load() if hasattr(found, "load") else found
        problems += check(content)
    return problems
