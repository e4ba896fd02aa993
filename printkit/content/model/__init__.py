"""Typed models of content files (`components`), of a game's rules and facts (`rules`), and their base
(`base`: limits, sizes, the strict model)."""
from .base import *  # noqa: F401,F403
from .components import *  # noqa: F401,F403
from .rules import *  # noqa: F401,F403
from .schemas import CATALOG_SCHEMA, combined_schema, file_schemas  # noqa: F401
