"""Stage 2, rules: what the rulebook states, checked against the loaded content on every build.

Owns the rules-count schema (counts), graph-board facts (facts), game-specific checks found by entry
point (checks) and hex-board layouts (hexboards: pieces suffice, no overlap, seats and starts).
Imports `content`, `geometry` and `errors`.
"""

# what the stages above use; everything else in this folder is private to it
from .counts import check_game
from .hexboards import layout_geometry, piece_cluster

__all__ = [
    "check_game", "layout_geometry", "piece_cluster"]
