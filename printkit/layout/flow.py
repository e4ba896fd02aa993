"""Flowing text on sheets (rules summaries, player aids, the print guide), with ReportLab's platypus.

Platypus (~45 ms to import, its paragraph module most) is imported only where text is poured: a build
that draws no guide or sheet, or that has nothing to draw, never pays for it. So the flowables made here
(Figure, Together) are a plain body each, joined to platypus's Flowable on first use (`flowable`).
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from reportlab.lib import colors
from reportlab.lib.pagesizes import mm as MM
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from ..draw import ICON, preload as preload_drawing, text as T
from ..geometry import MARGIN, Paper
from .sheets import SheetLabels
from ..write import Writer

if TYPE_CHECKING:
    from reportlab.platypus import Flowable, Frame, Spacer, Table

SIDE = 13.0
TOP = 16.0
BOTTOM = MARGIN + 7 + 5
GAP = 7.0


def styles(lang: str) -> dict[str, ParagraphStyle]:
    T.register_fonts()
    base = ParagraphStyle("p", fontName=T.font_name("Barlow"), fontSize=9, leading=11.6, spaceAfter=3.2,
                          textColor=colors.HexColor("#1a1a1a"), hyphenationLang=None,
                          bulletFontName=T.font_name("Barlow"), bulletFontSize=9,
                          allowWidows=0)  # never one line of a paragraph alone at the top of a column
    return {
        "title": ParagraphStyle("title", parent=base, fontName=T.font_name("Barlow Condensed", "bold"), fontSize=19,
                                leading=22, spaceAfter=6, textColor=colors.HexColor("#111111")),
        "h2": ParagraphStyle("h2", parent=base, fontName=T.font_name("Barlow Condensed", "bold"), fontSize=12.5,
                             leading=14.5, spaceBefore=7, spaceAfter=2.5, textColor=colors.HexColor("#8a1c1c"),
                             keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=base, fontName=T.font_name("Barlow", "bold"), fontSize=10, leading=12.5,
                             spaceBefore=4, spaceAfter=1.5, keepWithNext=1),
        "p": base,
        # the text indent clears bullet + ReportLab's 0.6 em gap, so a first line starts where the others do
        "bullets": ParagraphStyle("li", parent=base, leftIndent=10, bulletIndent=1.5, spaceAfter=1.8),
        "numbered": ParagraphStyle("ol", parent=base, leftIndent=13, bulletIndent=0, spaceAfter=1.8),
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "caption": ParagraphStyle("caption", parent=base, fontName=T.font_name("Barlow", "italic"), fontSize=8,
                                  leading=10, textColor=colors.HexColor("#444444"), spaceAfter=5),
    }


_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", re.S)


ICON_EM = 0.7  # an icon's height in ems: the cap height, as on pieces
# a transparent pixel: the room an icon takes in its line (the icon itself is drawn by the callback before it;
# a file, as ReportLab's reader refuses data: addresses)
_ROOM = str(Path(__file__).with_name("icon-room.png"))


def markup(text: str, icons: Callable[[str], float | None] | None = None, size: float = 9.0) -> str:
    """Content markup → platypus markup, escaping everything else; with `icons` (an icon's width in ems, None
    for a name the game has no icon for), each `:name:` a word as wide as its icon, `size` pt text high."""
    # escaped as xml.sax.saxutils.escape does (that module imports urllib.request: ~15 ms)
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _ITALIC.sub(r"<i>\1</i>", out)
    if icons is not None:
        def one(found: re.Match[str]) -> str:
            ems = icons(found.group(1))
            if ems is None:
                return found.group(0)  # validate reports it at its catalog text
            w, h = ems * size, ICON_EM * size
            return (f'<onDraw name="printkit_icon" label="{found.group(1)}|{w:.3f}|{h:.3f}"/>'
                    f'<img src="{_ROOM}" width="{w:.3f}" height="{h:.3f}" valign="baseline"/>')

        out = ICON.sub(one, out)
    return out.replace("\n", "<br/>")


def _icon_drawer(flow: "Flow") -> Callable[[Canvas, str, str], None]:
    """The callback that draws each icon of a flow's text where its room starts, on the line's baseline."""
    from ..draw import Context, Renderer

    renderers: dict[int, Renderer] = {}  # one per canvas: its compiled shapes are reused from icon to icon

    def draw(c: Canvas, _kind: str, label: str) -> None:
        name, w, h = label.split("|")
        info = c._curr_tx_info  # platypus's position of the callback in its line
        found = icon_file_of(flow, name)
        if found is None:
            return
        wmm, hmm = float(w) / MM, float(h) / MM
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {wmm:.4f} {hmm:.4f}">'
               f'<image href="icons/{found}" width="{wmm:.4f}" height="{hmm:.4f}"/></svg>')
        c.saveState()
        c.transform(MM, 0, 0, -MM, info["cur_x"], info["cur_y"] + float(h))
        renderer = renderers.setdefault(id(c), Renderer(c, flow.assets))
        renderer.draw_svg(svg, Context(flow.lang, None))
        c.restoreState()

    return draw


def icon_file_of(flow: "Flow", name: str) -> str | None:
    for kind in (".svg", ".png"):
        if flow.assets is not None and flow.assets(f"icons/{name}{kind}") is not None:
            return f"{name}{kind}"
    return None


@dataclass
class Flow:
    """A flowing document part: builds its flowables afresh each time (platypus consumes them)."""

    make: Callable[[], list[Flowable]]
    columns: int
    header: tuple[str, str]
    problems: list = field(default_factory=list)  # (figure name, TextProblem) found while drawing
    assets: Callable | None = None  # the sheet's template folders: its icons
    lang: str = "en"


def preload() -> None:
    """Import now what drawing imports on first use (platypus, Jinja): a build calls it before its pool forks,
    so that every worker inherits them instead of importing them again."""
    import reportlab.platypus  # noqa: F401

    preload_drawing()


@lru_cache(maxsize=None)
def flowable(body: type) -> type:
    """A body (_Figure, _Together) as a platypus Flowable, the class made once; the module's Figure and
    Together name them (`__getattr__`), for the modules that import them."""
    from reportlab.platypus import Flowable

    name = body.__name__.lstrip("_")
    return type(name, (body, Flowable), {"__doc__": body.__doc__, "__module__": __name__, "__qualname__": name})


def __getattr__(name: str) -> type:
    if name in _BODIES:
        return flowable(_BODIES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Figure:
    """An SVG drawing in the flow, its size in mm, shrunk to the column when wider."""

    canv: Canvas  # platypus's: set while drawing

    def __init__(self, svg: str, size: tuple[float, float], lang: str, assets: Callable, problems: list, name: str):
        super().__init__()
        self.svg, self.size, self.lang, self.assets = svg, size, lang, assets
        self.problems, self.name = problems, name
        self.scale = 1.0

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        w, h = self.size
        self.scale = min(1.0, aw / (w * MM))
        self.width, self.height = w * MM * self.scale, h * MM * self.scale
        return self.width, self.height

    def getSpaceAfter(self) -> float:  # noqa: N802 - platypus API
        return 2.5 * MM

    def draw(self) -> None:
        from ..draw import Context, Renderer

        c = self.canv
        if getattr(c, "_printkit_counting", False):
            return  # pages are only counted: the drawing finds the figure's problems
        w, h = self.size
        ctx = Context(self.lang, (0.0, 0.0, w, h))
        c.saveState()
        c.transform(MM * self.scale, 0, 0, -MM * self.scale, 0, self.height)
        Renderer(c, self.assets).draw_svg(self.svg, ctx)
        c.restoreState()
        self.problems += [(self.name, tp) for tp in ctx.problems]


def _frames(paper: Paper, columns: int) -> list[Frame]:
    from reportlab.platypus import Frame

    width = paper.width - 2 * SIDE
    col_w = (width - GAP * (columns - 1)) / columns
    height = paper.height - TOP - BOTTOM
    return [Frame((SIDE + i * (col_w + GAP)) * MM, BOTTOM * MM, col_w * MM, height * MM,
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0) for i in range(columns)]


def _header(c: Canvas, paper: Paper, left: str, right: str) -> None:
    y = (paper.height - TOP + 6) * MM
    c.setFont(T.font_name("Barlow Condensed", "bold"), 9)
    c.setFillColor(colors.HexColor("#555555"))
    c.drawString(SIDE * MM, y, left)
    c.drawRightString((paper.width - SIDE) * MM, y, right)
    c.setStrokeColor(colors.HexColor("#999999"))
    c.setLineWidth(0.4)
    c.line(SIDE * MM, y - 2.2 * MM, (paper.width - SIDE) * MM, y - 2.2 * MM)


class _Together:
    """A heading and the first block after it, stacked; splits only inside the last block."""

    canv: Canvas  # platypus's: set while drawing

    def __init__(self, items: list[Flowable]):
        super().__init__()
        self.items = items
        self._sizes: list[tuple[float, float, float]] = []

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self._sizes, total = [], 0.0
        for i, item in enumerate(self.items):
            before = item.getSpaceBefore() if i else 0.0
            _, h = item.wrap(aw, ah)
            self._sizes.append((before, h, item.getSpaceAfter()))
            total += before + h + (item.getSpaceAfter() if i < len(self.items) - 1 else 0.0)
        self.width, self.height = aw, total
        return aw, total

    def getSpaceBefore(self) -> float:  # noqa: N802 - platypus API
        return self.items[0].getSpaceBefore()

    def getSpaceAfter(self) -> float:  # noqa: N802 - platypus API
        return self.items[-1].getSpaceAfter()

    def draw(self) -> None:
        y = self.height
        for i, (item, (before, h, after)) in enumerate(zip(self.items, self._sizes)):
            y -= before + h
            item.drawOn(self.canv, 0, y)
            y -= after if i < len(self.items) - 1 else 0.0

    def split(self, aw: float, ah: float) -> list[Flowable]:
        head, last = self.items[:-1], self.items[-1]
        used = sum(b + h + a for b, h, a in (self._sizes[:-1] or [])) if self._sizes else 0.0
        parts = last.split(aw, ah - used - (last.getSpaceBefore() if head else 0.0))
        if len(parts) < 2:
            return []
        return [type(self)(head + [parts[0]]), *parts[1:]]


def keep_headings(story: list[Flowable]) -> list[Flowable]:
    """A heading travels with the block after it (frames alone ignore keepWithNext)."""
    out: list[Flowable] = []
    i = 0
    while i < len(story):
        item = story[i]
        style = getattr(item, "style", None)
        if style is not None and getattr(style, "keepWithNext", 0) and i + 1 < len(story):
            out.append(flowable(_Together)([item, story[i + 1]]))
            i += 2
        else:
            out.append(item)
            i += 1
    return out


def _fill(frame: Frame, story: list[Flowable], c: Canvas) -> None:
    """Fill one frame from the story, splitting the block that does not fit whole."""
    while story:
        if frame.add(story[0], c, trySplit=0):
            story.pop(0)
            continue
        parts = frame.split(story[0], c)
        if len(parts) > 1 and frame.add(parts[0], c, trySplit=0):
            story[0:1] = parts[1:]
        elif frame._atTop and isinstance(story[0], _Together):
            story[0:1] = story[0].items  # a heading and its block are taller than a column: they part, the build goes on
            continue
        return


def _pour(c: Canvas, paper: Paper, flow: Flow, on_page: Callable[[int], None]) -> int:
    c.setNamedCB("printkit_icon", _icon_drawer(flow))
    story = keep_headings(flow.make())
    pages = 0
    while story:
        frames = _frames(paper, flow.columns)
        _header(c, paper, *flow.header)
        first = story[0]
        for frame in frames:
            _fill(frame, story, c)
            if not story:
                break
        pages += 1
        on_page(pages)
        if story and story[0] is first:  # nothing at all fitted an empty page (a block split over it moves on)
            raise ValueError("a block is taller than a page")
    return pages


def count_pages(paper: Paper, flow: Flow) -> int:
    c = Canvas(io.BytesIO(), pagesize=(paper.width * MM, paper.height * MM), initialFontName=T.register_fonts())
    c._printkit_counting = True  # figures are not drawn where pages are only counted
    return _pour(c, paper, flow, lambda n: c.showPage())


def flow_pages(w: Writer, paper: Paper, flow: Flow, label: SheetLabels, total: int | None = None) -> int:
    """Pour a flow onto pages of the writer; each page gets the ruler and footer."""
    total = total or count_pages(paper, flow)
    w.begin(paper, mm=False)

    def finish(n: int) -> None:
        c = w.canvas
        c.saveState()
        c.transform(MM, 0, 0, -MM, 0, paper.height * MM)
        w.furniture((MARGIN, paper.height - MARGIN - 7, paper.width - 2 * MARGIN, 7), label.footer(n, total), label.t("ruler"))
        c.restoreState()
        w.end()
        if n < total:
            w.begin(paper, mm=False)

    return _pour(w.canvas, paper, flow, finish)


def paragraph_lines(text: str, width_mm: float, size_pt: float) -> list[str]:
    """Plain wrap for short furniture paragraphs drawn line by line."""
    font = T.font_name("Barlow")
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}".strip()
        if line and T.width(trial, font, size_pt * T.PT) > width_mm:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def table(rows: list[list[str]], widths_mm: list[float], lang: str) -> Table:
    from reportlab.platypus import Paragraph, Table, TableStyle

    st = styles(lang)
    cells = [[Paragraph(markup(cell), st["small"]) for cell in row] for row in rows]
    t = Table(cells, colWidths=[w * MM for w in widths_mm], repeatRows=1)
    t.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), T.font_name("Barlow")),
        ("FONTNAME", (0, 0), (-1, 0), T.font_name("Barlow", "bold")),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    return t


def spacer(mm: float) -> Spacer:
    from reportlab.platypus import Spacer

    return Spacer(1, mm * MM)


_BODIES: dict[str, Any] = {"Figure": _Figure, "Together": _Together}
