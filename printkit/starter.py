"""`printkit new`: a new game folder that builds as it is, copied from the starter game (a deck read
from a CSV, tokens, a board and a rules sheet in English and French, all drawn by the shared kind
templates), for a designer to edit."""
from __future__ import annotations

import shutil
from pathlib import Path

from .content import is_safe_name
from .errors import UsageError

PACKAGE = Path(__file__).resolve().parent
PLACEHOLDER = "starter-game"  # the starter's id in its game.yaml, replaced by the new game's


def _starter() -> Path:
    """Inside a wheel the starter sits in printkit/_data; in a source checkout, beside the package."""
    bundled = PACKAGE / "_data" / "starter" / "game"
    return bundled if bundled.is_dir() else PACKAGE.parent / "starter" / "game"


def new_game(game_id: str, folder: Path) -> Path:
    """Write the starter as `folder/content/<game_id>/`; never over an existing folder."""
    if not is_safe_name(game_id) or "." in game_id:
        raise UsageError(f"expected a game id of letters, digits and -, found {game_id!r}")
    target = folder / "content" / game_id
    if target.exists():
        raise UsageError(f"expected a new game folder, found {target} already there")
    shutil.copytree(_starter(), target)
    game = target / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(PLACEHOLDER, game_id), encoding="utf-8")
    return target
