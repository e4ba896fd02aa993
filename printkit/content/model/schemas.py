"""JSON Schemas of the content files, for editors: one per file kind (game.yaml, each component kind, catalogs)."""
from __future__ import annotations

from typing import Any

from .components import KINDS, Game

CATALOG_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "i18n catalog",
    "description": "i18n/<lang>.yaml or i18n/<lang>/<name>.yaml: nested keys (joined with dots) whose texts may use "
                   "{param} and **bold**, *italic*",
    "type": "object", "additionalProperties": {"anyOf": [{"type": "string"}, {"$ref": "#"}]},
    # the keys printkit reads itself, so that editors describe them
    "properties": {
        "items": {"description": "translated item fields: items.<component>.<item key (id, title or name)>.<field>",
                  "type": "object", "additionalProperties": {"type": "object", "additionalProperties": {
                      "type": "object", "additionalProperties": {"type": "string"}}}},
        "kit": {"description": "the print guide and running heads: title, credits, needs, components.<stem>, "
                               "assembly.<stem>", "$ref": "#"},
        "guide": {"description": "the print guide's own texts, for a language printkit does not ship "
                                 "(translated from printkit/content/locale/en.yaml)", "$ref": "#"},
    },
}


def file_schemas() -> dict[str, dict[str, Any]]:
    """One JSON Schema per file kind, by the file name `schema --out` writes it under."""
    files = {"game.schema.json": Game.model_json_schema(by_alias=True)}
    files |= {f"{kind}.schema.json": model.model_json_schema(by_alias=True) for kind, model in KINDS.items()}
    return files | {"i18n.schema.json": CATALOG_SCHEMA}


def combined_schema() -> dict[str, Any]:
    """Every schema in one object: game.yaml, the component kinds and the catalogs."""
    return {"game.yaml": Game.model_json_schema(by_alias=True),
            "components": {kind: model.model_json_schema(by_alias=True) for kind, model in KINDS.items()},
            "i18n": CATALOG_SCHEMA}
