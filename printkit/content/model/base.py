"""The base of the typed models: limits, sizes and the strict model every declaration extends.

The models are declarations; `validation.validate_model` turns pydantic's findings into positioned
`Problem`s with the project's one phrasing.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from ...errors import describe
from ..i18n import language_code

# Limits no real game meets (docs/content-format.md, "Limits"): they bound the work of a build, so a
# wrong value is a positioned error from `validate` instead of minutes of drawing or a crash.
MAX_MM = 2_000.0  # a board's side, a position, any length in mm; the largest shipped board is 560 mm
MAX_QTY = 1_000  # copies of one item; shipped items have at most 36
MAX_TITLE = 60  # characters of a printed title (a game's, a component's): it runs in every page head
MAX_COMPONENTS = 100  # components of a game; shipped games have at most 19
MAX_LAYOUTS = 50  # layouts of a hex board (one diagram page each)
MAX_PLAYERS = 100
MAX_AXIAL = 1_000  # hex coordinates, either way from [0, 0]
MAX_FIGURE_H = 240.0  # mm: a sheet's figure must fit a column of US Letter (246 mm); the tallest shipped one is 188

Position = Annotated[float, Field(ge=-MAX_MM, le=MAX_MM)]
Length = Annotated[float, Field(gt=0, le=MAX_MM)]
Inset = Annotated[float, Field(ge=0, le=100)]
Players = Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
Title = Annotated[str, Field(max_length=MAX_TITLE)]
Language = Annotated[str, AfterValidator(language_code)]  # BCP 47, known to CLDR (numbers, quotes)


def hex_colour(value: str) -> str:
    """A colour the model gives to a template as it is: #rrggbb, as an item's colour field is written."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"expected a colour #rrggbb, found {describe(value)}")
    return value


HexColour = Annotated[str, AfterValidator(hex_colour)]
Axial = tuple[Annotated[int, Field(ge=-MAX_AXIAL, le=MAX_AXIAL)], Annotated[int, Field(ge=-MAX_AXIAL, le=MAX_AXIAL)]]

NAMED_SIZES: dict[str, tuple[float, float]] = {"poker": (63.5, 88.9), "bridge": (57.2, 88.9), "mini": (44.0, 63.0),
                                                "tarot": (70.0, 120.0), "square": (70.0, 70.0)}


def parse_size(value: Any) -> tuple[float, float]:
    if isinstance(value, str):
        if value in NAMED_SIZES:
            return NAMED_SIZES[value]
        raise ValueError(f"expected a size name ({', '.join(NAMED_SIZES)}) or [width, height], found {describe(value)}")
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        if all(0 < v <= MAX_MM for v in value):  # NaN and infinity fail too
            return float(value[0]), float(value[1])
        shown = ", ".join(f"{v:g}" for v in value)
        raise ValueError(f"expected [width, height] in mm, each above 0 and at most {MAX_MM:g}, found [{shown}]")
    raise ValueError(f"expected a size name ({', '.join(NAMED_SIZES)}) or [width, height] in mm, found {describe(value)}")


class Strict(BaseModel):
    # defer_build: a model's validator is built when first used (~20 ms for them all), not at import: a build
    # whose games are all up to date loads none and never pays for it
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)
