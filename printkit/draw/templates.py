"""Jinja2 SVG templates: found in templates/<game>/ first, then templates/<kind>/, then templates/common/.

Autoescaping is on, so text from content can never inject SVG markup.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ..geometry import hexgrid
from ..content import is_safe_name


class TemplateProblem(Exception):
    """A template that is missing or fails to render; message names template and line."""


@dataclass(frozen=True)
class TemplateSet:
    """The template search path of one component."""

    folders: tuple[Path, ...]

    @classmethod
    def for_component(cls, roots: tuple[Path, ...], game: str, kind: str) -> "TemplateSet":
        """A user's template folder first, then the shipped kind templates."""
        folders: list[Path] = []
        for root in roots:
            for p in (root / game, root / kind, root / "common"):
                if p.is_dir() and p not in folders:
                    folders.append(p)
        return cls(tuple(folders))

    def render(self, name: str, **values: Any) -> str:
        return _render(self.folders, name, values)

    def asset(self, href: str) -> Path | None:
        """An SVG art file named in a template; never outside the template folders."""
        parts = href.split("/")
        if not href or href.startswith("/") or ":" in href or not all(is_safe_name(p) for p in parts):
            return None
        for folder in self.folders:
            candidate = folder.joinpath(*parts)
            if candidate.is_file() and candidate.resolve().is_relative_to(folder.resolve()):
                return candidate
        return None


@lru_cache(maxsize=64)
def environment(folders: tuple[Path, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(f) for f in folders]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["fmt"] = lambda v, spec="g": format(v, spec)
    env.globals.update(HEX_HELPERS)
    return env


def _hex_points(cx: float, cy: float, size: float, flat: bool = True, inset: float = 0.0) -> str:
    layout = hexgrid.HexGrid(size, (cx, cy), flat)
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in layout.corners((0, 0), inset))


def _hex_centre(q: int, r: int, size: float, flat: bool = True) -> tuple[float, float]:
    x, y = hexgrid.HexGrid(size, (0.0, 0.0), flat).centre((q, r))
    return round(x, 4), round(y, 4)


# hex-grid helpers for templates: axial (q, r) coordinates, directions clockwise from north-east (flat)
HEX_HELPERS = {
    "hex_points": _hex_points,  # "x,y x,y …" corners of a hex centred at (cx, cy), `size` centre to corner
    "hex_centre": _hex_centre,  # (x, y) of hex (q, r) relative to hex (0, 0)
    "hex_rotate": lambda q, r, steps: hexgrid.rotate((q, r), steps),  # turned by steps x 60 degrees clockwise
    "hex_disc": lambda radius: hexgrid.disc((0, 0), radius),  # every hex within radius of (0, 0)
    "hex_distance": lambda q, r: hexgrid.distance((q, r), (0, 0)),
    "hex_directions": hexgrid.DIRECTIONS,
}


def _render(folders: tuple[Path, ...], name: str, values: dict[str, Any]) -> str:
    if not is_safe_name(name):
        raise TemplateProblem(f"expected a template file name, found {name!r}")
    env = environment(folders)
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound:
        where = ", ".join(str(f.name) for f in folders) or "no template folder"
        raise TemplateProblem(f"expected template {name!r} in templates/({where}), found none") from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateProblem(f"expected a valid template, found {exc.message} in {name}:{exc.lineno}") from None
    try:
        return template.render(values)
    except jinja2.UndefinedError as exc:
        raise TemplateProblem(f"expected every value {name} uses, found {exc.message}") from None
    except (TypeError, ValueError, jinja2.TemplateError) as exc:
        raise TemplateProblem(f"expected {name} to render, found {exc}") from None
