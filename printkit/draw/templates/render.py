"""Jinja2 SVG templates: found in templates/<game>/ first, then templates/<kind>/, then templates/common/.

Templates render in a sandbox (`sandbox`) with autoescaping on, so text from content can never
inject SVG markup. What a template renders is checked (`check`) before anything is drawn. Every
failure (a template that does not load or render, SVG that does not parse, an element or a value
printkit cannot draw) is a TemplateProblem placed at the template's own path and line (`sourcemap`).
Jinja itself is behind `engine`, imported by the first render.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
import xml.parsers.expat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...content import is_safe_name
from ...errors import Pos, Problem
from ...geometry import hexgrid
from ..svgvalues import parse_svg
from .check import check
from .sourcemap import element_starts, offset, output_origins, place

if TYPE_CHECKING:
    import jinja2

MAX_PROBLEMS = 20  # of one render: the first ones say what is wrong
# renders found good, by template folders and text, with their notes: a face or figure rendered again for
# another file of the build is not checked twice
_CHECKED: dict[tuple[tuple[Path, ...], str], tuple[Problem, ...]] = {}
# notes of the renders since the last `take_notes` (images under 300 dpi), placed in their templates
_NOTES: set[Problem] = set()


def take_notes() -> list[Problem]:
    """The notes of every template rendered since the last call (a build starts by emptying them)."""
    notes = sorted(_NOTES)
    _NOTES.clear()
    return notes


class TemplateProblem(Exception):
    """A template that is missing, fails to render, or renders SVG printkit cannot draw. Its `problems`
    are placed in the template; without them the caller places the message (at the template's name)."""

    def __init__(self, message: str, problems: list[Problem] | None = None):
        super().__init__(message)
        self.problems = problems or []

    def at(self, fallback: Pos) -> list[Problem]:
        return self.problems or [Problem(fallback, str(self))]


@dataclass(frozen=True)
class TemplateSet:
    """The template search path of one component, and the folders its paths are shown relative to."""

    folders: tuple[Path, ...]
    bases: tuple[Path, ...] = ()
    looked: str = ""  # where a missing template was looked for, as messages say it

    @classmethod
    def for_component(cls, roots: tuple[Path, ...], game: str, kind: str) -> "TemplateSet":
        """A user's template folder first, then the shipped kind templates."""
        folders: list[Path] = []
        for root in roots:
            for p in (root / game, root / kind, root / "common"):
                if p.is_dir() and p not in folders:
                    folders.append(p)
        own = f"{roots[0].name}/{game}/" if roots else f"{game}/"
        return cls(tuple(folders), tuple(dict.fromkeys(root.parent for root in roots)),
                   f"{own} (the game's own), or the shared {kind}/ and common/ templates")

    def render(self, name: str, **values: Any) -> str:
        """The template filled with `values`, checked: SVG printkit can draw, or a TemplateProblem."""
        svg = _render(self, name, values)
        self._check(name, values, svg)
        return svg

    def probe(self, name: str, **values: Any) -> str:
        """A render that is not checked: a compiled plan's render with placeholders (its group's first
        piece was rendered whole and checked)."""
        return _render(self, name, values)

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

    def is_template(self, filename: str) -> bool:
        return any(Path(filename).is_relative_to(folder) for folder in self.folders)

    def shown(self, filename: str) -> str:
        """A template file's path as messages print it: relative to the folder holding the templates root."""
        file = Path(filename)
        for base in (*self.bases, *(f.parent for f in self.folders)):
            if file.is_relative_to(base):
                return file.relative_to(base).as_posix()
        return file.as_posix()

    def _check(self, name: str, values: dict[str, Any], svg: str) -> None:
        known = _CHECKED.get((self.folders, svg))
        if known is not None:
            _NOTES.update(known)
            return
        try:
            root = parse_svg(svg)
        except ET.ParseError as exc:
            line, col = exc.position
            at = offset(svg, line, col)
            tag = svg.rfind("<", svg.rfind("\n", 0, at) + 1, at + 1)  # the tag the parser stopped in
            found = svg[tag if tag >= 0 else at:].split("\n", 1)[0][:40] or "the end"
            message = f"expected well-formed SVG, found {xml.parsers.expat.ErrorString(exc.code)} at {found!r}"
            raise TemplateProblem(message, self._placed(name, values, svg, [(at, None, None, message)])) from None
        found = check(root, self.asset)
        starts = element_starts(svg) if found else []
        notes = self._placed(name, values, svg, [(starts[f.index], f.tag, f.attr, f.message) for f in found
                                                 if f.note]) if any(f.note for f in found) else []
        findings = [f for f in found if not f.note][:MAX_PROBLEMS]
        if findings:
            problems = self._placed(name, values, svg, [(starts[f.index], f.tag, f.attr, f.message) for f in findings])
            raise TemplateProblem(problems[0].message, problems)
        if len(_CHECKED) > 512:
            _CHECKED.clear()
        _CHECKED[(self.folders, svg)] = tuple(notes)
        _NOTES.update(notes)

    def _placed(self, name: str, values: dict[str, Any], svg: str,
                found: list[tuple[int, str | None, str | None, str]]) -> list[Problem]:
        """Problems found at offsets of the rendered output, placed at the template lines that wrote them."""
        template = environment(self.folders).get_template(name)
        origins = output_origins(template, values, [at for at, *_ in found])
        problems = []
        for (at, tag, attr, message), (owner, line, breaks) in zip(found, origins):
            start_tag = svg[at:svg.find(">", at) + 1] if svg else ""
            filename, line, col = place(owner, line, breaks, tag, attr, start_tag)
            problems.append(Problem(Pos(self.shown(filename or name), line, col), message))
        return problems


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


def environment(folders: tuple[Path, ...]) -> jinja2.Environment:
    """The sandboxed Jinja environment of template folders (engine.py): Jinja (~30 ms) is imported by the first
    render, so a build with nothing to draw never pays for it."""
    from .engine import environment as made

    return made(folders)


def _render(tpl: TemplateSet, name: str, values: dict[str, Any]) -> str:
    if not is_safe_name(name):
        raise TemplateProblem(f"expected a template file name, found {name!r}")
    try:
        return environment(tpl.folders).get_template(name).render(values)
    except TemplateProblem:
        raise  # a helper's own problem (a catalog key), placed by the caller
    except Exception as exc:  # noqa: BLE001 - a template may fail in any way; each becomes a placed problem
        from .engine import placed_failure

        raise placed_failure(tpl, name, exc) from None
