"""Stage 1, content: a game folder read into checked, typed values.

Owns a YAML file read into nodes within limits (compose), YAML loading with positions (load), the
parsed-file cache (cache), content and template roots and links that leave them (paths), the
declarations of every file (model) and their error phrasing (validation), items checked against
their fields and the selectors that pick them (items), items read from spreadsheets (spreadsheets/), a game's components and catalogs (game),
catalogs and typography (i18n) and per-item translations (translations). Imports only `errors` and
`geometry`.
"""

# what the stages above use; everything else in this folder is private to it
from .cache import cache_dir
from .game import GameContent, LoadedComponent, load_game
from .i18n import Catalogs, PLACEHOLDER, PSEUDO, engine_catalogs, fill, format_number, typography, with_guide, with_pseudo
from .items import Item, field_value, matches, plain
from .load import pos_of
from .model import (
    Board, Deck, Fact, Game, GraphBoard, HexBoard, HexLayout, HexPiece, KINDS, Placement, Rule,
    Selector, Sheet, Standee, Tokens, combined_schema, file_schemas)
from .paths import Roots, inside, is_safe_name, template_inside
from .translations import localised_data, translated, translated_board

__all__ = [
    "cache_dir",
    "Board", "Catalogs", "Deck", "Fact", "Game", "GameContent", "GraphBoard", "HexBoard",
    "HexLayout", "HexPiece", "Item", "KINDS", "LoadedComponent", "PLACEHOLDER", "PSEUDO",
    "Placement", "Roots", "Rule", "Selector", "Sheet", "Standee", "Tokens", "combined_schema", "engine_catalogs",
    "field_value", "file_schemas", "fill", "format_number", "inside", "is_safe_name", "load_game", "localised_data",
    "matches", "plain", "pos_of", "template_inside", "translated", "translated_board", "typography",
    "with_guide", "with_pseudo"]
