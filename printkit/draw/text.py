"""Fonts (from PyPI font packages, embedded), text metrics, markup, wrapping and fitting."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import fontpkg
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..content import GameContent, inside, pos_of
from ..errors import Pos, Problem

PT = 25.4 / 72.0  # one point in mm
STYLES = ("regular", "bold", "italic", "bolditalic")
# family as named in templates → (PyPI font package family, ReportLab name prefix)
FAMILIES = {"Barlow Condensed": ("barlow-condensed", "BarlowCondensed"), "Barlow": ("barlow", "Barlow")}
DEFAULT_FAMILY = "Barlow Condensed"
_WEIGHTS = {"regular": (400, "normal"), "bold": (700, "normal"), "italic": (400, "italic"), "bolditalic": (700, "italic")}
_SUFFIX = {"regular": "", "bold": "-Bold", "italic": "-Italic", "bolditalic": "-BoldItalic"}


@lru_cache(maxsize=None)
def register_fonts() -> str:
    """Register every shipped family once; returns the default (embedded) font name."""
    for family, (package, prefix) in FAMILIES.items():
        names = {}
        for style, (weight, slant) in _WEIGHTS.items():
            name = prefix + _SUFFIX[style]
            pdfmetrics.registerFont(TTFont(name, str(fontpkg.path(package, weight, slant))))
            names[style] = name
        pdfmetrics.registerFontFamily(prefix, normal=names["regular"], bold=names["bold"],
                                      italic=names["italic"], boldItalic=names["bolditalic"])
        for style, name in names.items():
            addMapping(prefix, "bold" in style, "italic" in style, name)
    return font_name(DEFAULT_FAMILY, "regular")


# The fonts of the game being checked or built (family → style → ReportLab name): module state like
# ReportLab's own font registry, replaced whole for each game so one game never sees another's fonts;
# likewise the families templates name by another name (game.yaml's font_map: a drawing program's Arial).
_GAME: dict[str, dict[str, str]] = {}
_MAP: dict[str, str] = {}
GENERIC = {"sans-serif": "Barlow"}  # the generic families printkit maps by itself; others need font_map


def families() -> tuple[str, ...]:
    """The families a template may name: the shipped ones and the game's own."""
    return (*FAMILIES, *_GAME)


def resolve_family(value: str | None) -> str | None:
    """The family printkit draws a font-family with: the first of its list it has, by name or font_map (or GENERIC)."""
    for name in (value or DEFAULT_FAMILY).split(","):
        name = _MAP.get(name.strip().strip("'\"")) or GENERIC.get(name.strip()) or name.strip().strip("'\"")
        if name in FAMILIES or name in _GAME:
            return name
    return None


@lru_cache(maxsize=256)
def font_name(family: str | None, style: str = "regular") -> str:
    faces = _GAME.get(family or "")
    if faces:  # a style the family lacks is refused where text asks for it (missing_style)
        return faces.get(style) or faces.get("regular") or next(iter(faces.values()))
    prefix = FAMILIES.get(family or DEFAULT_FAMILY, FAMILIES[DEFAULT_FAMILY])[1]
    return prefix + _SUFFIX[style]


def missing_style(family: str, base: str, text: str) -> str | None:
    """The style text needs (its own, or its **bold** and *italic* markup) that a game's family lacks."""
    faces = _GAME.get(family)
    if not faces:
        return None
    needed = {run.style for run in parse_markup(text, base)} if "*" in text else {base}
    return next((style for style in STYLES if style in needed and style not in faces), None)


def use_game_fonts(content: GameContent) -> list[Problem]:
    """Register the fonts game.yaml declares and make them the families templates may name; every
    declaration that cannot be used is a problem at its place."""
    register_fonts()
    faces: dict[str, dict[str, str]] = {}
    problems: list[Problem] = []
    listed = pos_of(content.raw, "fonts")
    declared = content.raw.get("fonts") if hasattr(content.raw, "get") else None
    for i, font in enumerate(content.game.fonts):
        node = declared[i] if isinstance(declared, list) and i < len(declared) else None
        at = pos_of(declared, i) or listed or content.raw.pos
        problems += _register(font, content, faces, node, at)
    mapped = dict(content.game.font_map)
    problems += [Problem(pos_of(content.raw.get("font_map"), name) or listed or content.raw.pos,
                         f"expected a family printkit has ({', '.join((*FAMILIES, *faces))}), found {family!r}")
                 for name, family in mapped.items() if family not in FAMILIES and family not in faces]
    if faces != _GAME or mapped != _MAP:
        forget_game_fonts()
        _GAME.update(faces)
        _MAP.update(mapped)
    return problems


def forget_game_fonts() -> None:
    """Back to the shipped families only (the fonts stay registered with ReportLab)."""
    _GAME.clear(), _MAP.clear()
    font_name.cache_clear()
    fit.cache_clear()  # a family's name may stand for another game's file


def _register(font: Any, content: GameContent, faces: dict[str, dict[str, str]], node: Any, at: Pos) -> list[Problem]:
    """One entry of `fonts` (a content.model.Font) added to faces; `node` is its YAML mapping, for positions."""
    def place(key: str) -> Pos:
        return pos_of(node, key) or at if node is not None else at

    if (font.file is None) == (font.package is None):
        found = "both" if font.file else "neither"
        return [Problem(at, f"expected exactly one of file, package, found {found}")]
    if font.file is not None:
        if font.family is None:
            return [Problem(at, "expected the family templates name the font by, found none")]
        style = ("bold" if font.weight == "bold" else "") + ("italic" if font.style == "italic" else "") or "regular"
        loaded = _file_font(content.roots.content / content.id, font.file, content.roots.shown, place("file"))
        if isinstance(loaded, Problem):
            return [loaded]
        family, found = font.family, {style: loaded}
    else:
        package = _package_fonts(font.package, place("package"))
        if isinstance(package, Problem):
            return [package]
        family, found = font.family or package[0], package[1]
    if family in FAMILIES:
        return [Problem(place("family"), f"expected a family name printkit does not ship, found {family!r}")]
    mine = faces.setdefault(family, {})
    twice = sorted(set(mine) & set(found))
    if twice:
        return [Problem(at, f"expected each style of {family!r} once, found {', '.join(twice)} a second time")]
    mine.update(found)
    return []


def _file_font(folder: Path, name: str, shown: Callable[[Path], str], at: Pos) -> str | Problem:
    path = folder / name
    if Path(name).suffix.lower() not in (".ttf", ".otf"):
        return Problem(at, f"expected a .ttf or .otf font file, found {name!r}")
    if not inside(path, folder):
        return Problem(at, f"expected a font file inside {shown(folder)}, found {name!r}")
    if not path.is_file():
        return Problem(at, f"expected a font file, found no file {shown(path)}")
    return _load(path, at)


def _load(path: Path, at: Pos) -> str | Problem:
    """Register one font file under a name of its own (its content's hash: two games may share a family name)."""
    data = path.read_bytes()
    name = "F" + hashlib.sha256(data).hexdigest()[:12]
    if name in pdfmetrics.getRegisteredFontNames():
        return name
    try:
        pdfmetrics.registerFont(TTFont(name, str(path)))
    except (TTFError, OSError, ValueError, KeyError) as exc:
        # ReportLab embeds TrueType outlines only; its message names the absolute path, so it is not shown
        found = "PostScript (CFF) outlines" if "postscript outlines" in str(exc).lower() else "a file that is not one"
        return Problem(at, f"expected a TrueType font (TTF, or OTF with TrueType outlines), found {found}")
    return name


def _package_fonts(package: str, at: Pos) -> tuple[str, dict[str, str]] | Problem:
    """A fontpkg package's family name and every style of the four printkit sets (regular, bold,
    italic, bold italic) it has."""
    slug = package.removeprefix("fontpkg-")
    try:
        family = fontpkg.family(slug)
    except fontpkg.FontpkgError:
        return Problem(at, f"expected an installed font package (pip install {package}), found none")
    found: dict[str, str] = {}
    for style, (weight, slant) in _WEIGHTS.items():
        try:
            path = fontpkg.path(slug, weight, slant)
        except fontpkg.FontpkgError:
            continue
        loaded = _load(path, at)
        if isinstance(loaded, Problem):
            return loaded
        found[style] = loaded
    return family.name, found


def style_of(weight: str | None, slant: str | None) -> str:
    return ("bold" if weight in ("bold", "bolder", "600", "700", "800", "900") else "") + (
        "italic" if slant in ("italic", "oblique") else "") or "regular"


def width(text: str, font: str, size: float) -> float:
    """Width in the same unit as size."""
    return _unit_width(text, font) * size


# ---------------------------------------------------------------- inline icons
# An icon in text is one character of the supplementary private-use plane, which content never holds (it is refused
# there): character ICON_BASE + k is the text's k-th icon, `icons[k]` ems wide, drawn by the caller where ICON_FONT says.
ICON_BASE, ICON_FONT = 0xF0000, ""


def is_icon(part: str) -> bool:
    """Whether a part of text split by its icons is an icon (a single icon character)."""
    return len(part) == 1 and ord(part) >= ICON_BASE


def has_icons(text: str) -> bool:  # noqa: D103
    return any(ord(c) >= ICON_BASE for c in text)


def runs_with_icons(text: str, font: str, size: float, icons: tuple[float, ...]) -> list[tuple[float, str, str]]:
    """One line of text as (x, text, font) runs, an icon a run of its own in ICON_FONT; its width last."""
    out: list[tuple[float, str, str]] = []
    x = 0.0
    for part in _ICON_SPLIT.split(text):
        if not part:
            continue
        f = ICON_FONT if is_icon(part) else font
        out.append((x, part, f))
        x += _fragment_width(part, f, icons) * size
    out.append((x, "", ""))
    return out


def _fragment_width(text: str, font: str, icons: tuple[float, ...]) -> float:
    """Width in ems of a run in one font, or of one icon."""
    return icons[ord(text) - ICON_BASE] if font == ICON_FONT else _unit_width(text, font)


_ICON_SPLIT = re.compile("([\U000F0000-\U000FFFFD])")


@lru_cache(maxsize=65536)
def _unit_width(text: str, font: str) -> float:
    return pdfmetrics.stringWidth(text, font, 1.0)


def missing_glyphs(text: str, font: str) -> str:
    """Characters of text the font cannot draw."""
    if text.isascii() and _covers_ascii(font):
        return ""
    table = pdfmetrics.getFont(font).face.charToGlyph
    return "".join(sorted({c for c in text if ord(c) not in table and c not in "\n\t"}))


@lru_cache(maxsize=64)
def _covers_ascii(font: str) -> bool:
    table = pdfmetrics.getFont(font).face.charToGlyph
    return all(code in table for code in range(32, 127))


# ---------------------------------------------------------------- markup → runs
_MARK = re.compile(r"(\*\*|\*)")


@dataclass(frozen=True)
class Run:
    text: str
    style: str


def parse_markup(text: str, base: str = "regular") -> list[Run]:
    """`**bold**` and `*italic*` → runs. Unbalanced markers are printed as they are."""
    runs: list[Run] = []
    bold = italic = False
    base_bold, base_italic = "bold" in base, "italic" in base
    for part in _MARK.split(text):
        if part == "**":
            bold = not bold
            continue
        if part == "*":
            italic = not italic
            continue
        if part:
            style = ("bold" if bold or base_bold else "") + ("italic" if italic or base_italic else "") or "regular"
            runs.append(Run(part, style))
    return runs


# ---------------------------------------------------------------- wrapping and fitting
@dataclass(frozen=True)
class Piece:
    """A run of text placed on a line: x offset in the box, font name."""

    x: float
    text: str
    font: str


@dataclass(frozen=True)
class TextLayout:
    size: float  # font size in the drawing unit
    leading: float
    lines: tuple[tuple[tuple[Piece, ...], float], ...]  # (pieces, line width), with blank-line gaps as ()
    height: float


def _words(runs: list[Run]) -> list[list[tuple[str, str]]]:
    """Split runs into words (lists of (text, style) fragments) and hard line breaks (None)."""
    words: list[list[tuple[str, str]] | None] = []
    current: list[tuple[str, str]] = []
    for run in runs:
        for i, chunk in enumerate(re.split(r"( |\n)", run.text)):
            if chunk == " ":
                if current:
                    words.append(current)
                current = []
            elif chunk == "\n":
                if current:
                    words.append(current)
                current = []
                words.append(None)
            elif chunk:
                current += [(part, "icon" if is_icon(part) else run.style) for part in _ICON_SPLIT.split(chunk) if part]
    if current:
        words.append(current)
    return words


def _wrap(words: list, family: str, size: float, max_width: float,
          icons: tuple[float, ...] = ()) -> tuple[list[tuple[tuple[Piece, ...], float]], bool]:
    """Greedy wrap; returns lines and whether every word fitted the width. An icon is a fragment of its word."""
    space = width(" ", font_name(family), size)
    fonts = {style: font_name(family, style) for style in STYLES}
    fonts["icon"] = ICON_FONT
    lines: list[tuple[tuple[Piece, ...], float]] = []
    line: list[Piece] = []
    x = 0.0
    fits = True
    for word in words:
        if word is None:
            lines.append((tuple(line), x))
            line, x = [], 0.0
            continue
        w = sum(_fragment_width(t, fonts[s], icons) for t, s in word) * size
        start = x + (space if line else 0.0)
        if line and start + w > max_width + 1e-6:
            lines.append((tuple(line), x))
            line, start = [], 0.0
        if w > max_width + 1e-6:
            fits = False
        cursor = start
        for i, (t, s) in enumerate(word):
            f = fonts[s]
            if i == 0 and line and line[-1].font == f and f != ICON_FONT:
                # same font as the previous word: one run "a b", so the PDF gets one text show per run
                prev = line.pop()
                line.append(Piece(prev.x, prev.text + " " + t, f))
            else:
                line.append(Piece(cursor, t, f))
            cursor += _fragment_width(t, f, icons) * size
        x = cursor
    lines.append((tuple(line), x))
    return lines, fits


def _wrap_plain(para: str, font: str, size: float, max_width: float) -> tuple[list[tuple[tuple[Piece, ...], float]], bool]:
    """Greedy wrap of text in one font: one run per line (the common case, kept fast)."""
    space = _unit_width(" ", font)
    limit = max_width / size + 1e-9
    lines: list[tuple[tuple[Piece, ...], float]] = []
    fits = True
    for hard in para.split("\n"):
        words: list[str] = []
        line_w = 0.0
        for word in hard.split(" "):
            if not word:
                continue
            w = _unit_width(word, font)
            if w > limit:
                fits = False
            if words and line_w + space + w > limit:
                lines.append(((Piece(0.0, " ".join(words), font),), line_w * size))
                words, line_w = [word], w
            else:
                line_w = line_w + space + w if words else w
                words.append(word)
        lines.append(((Piece(0.0, " ".join(words), font),) if words else (), line_w * size))
    return lines, fits


@lru_cache(maxsize=20000)
def fit(text: str, family: str, style: str, size: float, min_size: float, box_w: float, box_h: float,
        leading: float = 1.18, step: float = 0.25, icons: tuple[float, ...] = ()) -> TextLayout | None:
    """Largest layout from size down to min_size that fits the box, or None.

    Sizes are in the drawing unit. Blank lines separate paragraphs (half a line of space). `icons`: the
    widths in ems of the text's icon characters (see ICON_BASE).
    """
    paragraphs = [p.strip("\n") for p in re.split(r"\n\s*\n", text)]
    current = size
    while current >= min_size - 1e-9:
        lines: list[tuple[tuple[Piece, ...], float]] = []
        ok = True
        for i, para in enumerate(paragraphs):
            if i:
                lines.append(((), -1.0))  # paragraph gap marker
            if "*" in para or (icons and has_icons(para)):
                wrapped, fits = _wrap(_words(parse_markup(para, style)), family, current, box_w, icons)
            else:
                wrapped, fits = _wrap_plain(para, font_name(family, style), current, box_w)
            ok = ok and fits
            lines += wrapped
        height = _height(lines, current, leading)
        if ok and height <= box_h + 1e-6:
            return TextLayout(current, current * leading, tuple(lines), height)
        current = round(current - step, 4)
    return None


def _height(lines: list, size: float, leading: float) -> float:
    n_lines = sum(1 for pieces, w in lines if w >= 0)
    gaps = sum(1 for pieces, w in lines if w < 0)
    return size + (n_lines - 1) * size * leading + gaps * size * leading * 0.5 if n_lines else 0.0
