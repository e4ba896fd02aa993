"""The PDF writer: one canvas per file, deterministic, fonts embedded, drawn in mm with y down.

Page boxes (TrimBox, BleedBox), viewer preferences for the print dialog, cut marks, the
calibration ruler and the footer are drawn here; what goes where is decided in impose.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable

from reportlab.lib.pagesizes import mm as MM
from reportlab.pdfbase.pdfdoc import PDFName
from reportlab.pdfgen.canvas import Canvas

from ..draw import text as T
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from ..geometry import outline, trace
from ..geometry import MARGIN, Paper
from ..draw import Context, Renderer, end_form
from .ahead import Ahead
from .replay import mark, record, replay

Rect = tuple[float, float, float, float]  # x, y, w, h in mm from the top left
MARK_WIDTH = 0.15
MARK_COLOUR = (0.1, 0.1, 0.1)


@dataclass
class PageInfo:
    paper: Paper
    trim: Rect | None = None
    bleed: Rect | None = None
    shift: tuple[float, float] = (0.0, 0.0)  # the page's duplex offset, mm right and down


class Writer:
    """Writes one PDF to a temporary path; `finish()` returns it for the build to rename."""

    def __init__(self, path: Path | IO[bytes], title: str, subject: str, duplex: bool,
                 back_offset: tuple[float, float] = (0.0, 0.0)):
        self.path = path  # a file, or a buffer for a PDF that is only rasterised (piece images)
        self.back_offset = back_offset  # mm, right and down: corrects a printer whose backs land off their fronts
        font = T.register_fonts()
        self.canvas = Canvas(str(path) if isinstance(path, Path) else path, invariant=1, initialFontName=font, initialFontSize=9,
                             pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setSubject(subject)
        self.canvas.setAuthor("printkit")
        self.canvas.setCreator("printkit")
        self.canvas.setViewerPreference("PrintScaling", PDFName("None"))
        if duplex:
            self.canvas.setViewerPreference("Duplex", PDFName("DuplexFlipLongEdge"))
        self.renderer = Renderer(self.canvas, lambda href: None)
        self.pages = 0
        self.page: PageInfo | None = None
        self._rulers: set[str] = set()
        self._replays: dict[tuple, list[str]] = {}

    # ------------------------------------------------------------ pages
    def begin(self, paper: Paper, mm: bool = True, back: bool = False) -> None:
        """Start a page; with mm, drawing units are millimetres from the top left, y down. A back page is
        shifted by the printer's duplex offset, its page boxes with it."""
        c = self.canvas
        c.setPageSize((paper.width * MM, paper.height * MM))
        c.setTrimBox(None)
        c.setBleedBox(None)
        shift = self.back_offset if back and mm else (0.0, 0.0)
        if mm:
            c.transform(MM, 0, 0, -MM, 0, paper.height * MM)
            if shift != (0.0, 0.0):
                c.translate(*shift)
        self.page = PageInfo(paper, shift=shift)

    def boxes(self, trim: Rect, bleed: Rect) -> None:
        assert self.page
        self.page.trim, self.page.bleed = trim, bleed

    def end(self) -> None:
        assert self.page
        h = self.page.paper.height
        for rect, setter in ((self.page.trim, self.canvas.setTrimBox), (self.page.bleed, self.canvas.setBleedBox)):
            if rect:
                x, y, w, hh = rect
                x, y = x + self.page.shift[0], y + self.page.shift[1]
                setter([round(x * MM, 3), round((h - y - hh) * MM, 3), round((x + w) * MM, 3), round((h - y) * MM, 3)])
        self.canvas.showPage()
        self.pages += 1
        self.page = None

    def finish(self) -> Path | IO[bytes]:
        self.canvas.save()
        return self.path

    # ------------------------------------------------------------ pieces
    def piece(self, face, x: float, y: float, w: float, h: float, bleed: tuple[float, float],
              ctx: Context, assets: Callable, form: str | None = None, shape: str = "rect",
              turned: bool = False) -> None:
        """Draw one piece with its trim's top left at (x, y), clipped to its shape grown by its bleed;
        `turned` draws it half a turn round in its place."""
        c = self.canvas
        bx, by = bleed
        c.saveState()
        c.translate(x, y)
        if turned:
            c.transform(-1, 0, 0, -1, w, h)
        path = c.beginPath()
        if shape in ("rect", "square"):
            path.rect(-bx, -by, w + 2 * bx, h + 2 * by)
        else:
            trace(path, outline(shape, w, h, min(bx, by)))
        c.clipPath(path, stroke=0, fill=0, fillMode=FILL_NON_ZERO)  # overlapping grown hexes make one area
        self.renderer.asset_path = assets
        if form:
            c.doForm(form)
        else:
            self._face(face, ctx)
        c.restoreState()

    def _face(self, face, ctx: Context) -> None:
        """A face drawn once per build unit, replayed wherever it is printed again (write/replay)."""
        key = (ctx.lang, ctx.safe)
        done = face.recordings.get(key)
        if isinstance(done, Ahead):  # drawn ahead in another process (write/ahead)
            done = done.take(face, key)
        if done and replay(self.canvas, done, self.renderer._text_ops, ctx):  # noqa: SLF001
            return
        before = mark(self.canvas)
        self._draw(face, ctx)
        if done is None:
            face.recordings[key] = record(self.canvas, before, ctx) or False

    def _draw(self, face, ctx: Context) -> None:
        if face.plan is not None:
            ctx.values = face.values
            self.renderer.draw_tree(face.plan.root, ctx)
        else:
            self.renderer.draw_svg(face.svg, ctx)

    def recording_of(self, face, key: tuple, assets: Callable):
        """A face drawn only to be recorded (in a process drawing ahead): its recording, or False."""
        self.renderer.asset_path = assets
        ctx = Context(*key)
        before = mark(self.canvas)
        self._draw(face, ctx)
        found = record(self.canvas, before, ctx) or False
        del before.code[before.start:]
        return found

    def cut_outline(self, shape: str, x: float, y: float, w: float, h: float) -> None:
        """The cutting line of a round or hexagonal piece (rectangles are cut at the margin marks)."""
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        c.setStrokeColorRGB(0.15, 0.15, 0.15)
        c.setLineWidth(0.2)
        path = c.beginPath()
        trace(path, outline(shape, w, h))
        c.drawPath(path, stroke=1, fill=0)
        c.restoreState()

    def shared_form(self, svg: str, w: float, h: float, ctx: Context, assets: Callable) -> str:
        self.renderer.asset_path = assets
        return self.renderer.form_for(svg, (-10, -10, w + 10, h + 10), ctx)

    def replay(self, key: tuple, draw: Callable[[], None]) -> None:
        """Run draw once per key; afterwards append the PDF operators it produced (no resources)."""
        code = self.canvas._code  # noqa: SLF001 - the canvas's operator list
        ops = self._replays.get(key)
        if ops is not None:
            code.extend(ops)
            return
        start = len(code)
        draw()
        self._replays[key] = code[start:]

    # ------------------------------------------------------------ marks and furniture
    def lines(self, segments: list[tuple[float, float, float, float]], width: float = MARK_WIDTH,
              colour: tuple[float, float, float] = MARK_COLOUR, dash: list[float] | None = None) -> None:
        c = self.canvas
        c.saveState()
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        if dash:
            c.setDash(dash)
        c.lines(segments)
        c.restoreState()

    def text(self, x: float, y: float, content: str, size_pt: float = 6.5, style: str = "regular",
             anchor: str = "start", colour: tuple[float, float, float] = (0.25, 0.25, 0.25),
             rotate: bool = False, family: str = "Barlow") -> float:
        """A line of furniture text at baseline (x, y); returns its width in mm."""
        font = T.font_name(family, style)
        size = size_pt * T.PT
        w = T.width(content, font, size)
        shift = {"middle": w / 2, "end": w}.get(anchor, 0.0)
        c = self.canvas
        t = c.beginText()
        t.setFont(font, size)
        t.setFillColorRGB(*colour)
        if rotate:  # reads bottom to top
            t.setTextTransform(0, -1, -1, 0, x, y + shift)
        else:
            t.setTextTransform(1, 0, 0, -1, x - shift, y)
        t.textOut(content)
        c.drawText(t)
        return w

    def ruler(self, x: float, y: float, vertical: bool = False, length_mm: int = 102) -> float:
        """Calibration ruler: mm ticks on one side of a line, 1/8 in ticks on the other; returns its length."""
        inches = int(length_mm / 25.4 * 8)
        segs: list[tuple[float, float, float, float]] = []

        def seg(a: float, b0: float, b1: float) -> None:
            segs.append((x + b0, y + a, x + b1, y + a) if vertical else (x + a, y + b0, x + a, y + b1))

        segs.append((x, y, x, y + length_mm) if vertical else (x, y, x + length_mm, y))
        for i in range(length_mm + 1):
            seg(i, -(1.6 if i % 10 == 0 else 1.1 if i % 5 == 0 else 0.7), 0)
        for i in range(inches + 1):
            seg(i * 25.4 / 8, 0, 1.6 if i % 8 == 0 else 1.0 if i % 4 == 0 else 0.6)
        self.lines(segs, width=0.1, colour=(0, 0, 0))
        for cm in range(0, length_mm // 10 + 1, 5):
            label = f"{cm * 10} mm" if cm else "0"
            if vertical:
                self.text(x - 1.9, y + cm * 10, label, 4.5, rotate=True, anchor="middle")
            else:
                self.text(x + cm * 10, y - 1.9, label, 4.5, anchor="middle")
        for inch in range(0, inches // 8 + 1):
            label = f"{inch} in" if inch else "0"
            if vertical:
                self.text(x + 3.3, y + inch * 25.4, label, 4.5, rotate=True, anchor="middle")
            else:
                self.text(x + inch * 25.4, y + 3.4, label, 4.5, anchor="middle")
        return float(length_mm)

    def furniture(self, band: Rect, footer: str, ruler_label: str) -> None:
        """Ruler and footer in the band reserved for them (bottom or side)."""
        x, y, w, h = band
        vertical = h > w
        name = "ruler-v" if vertical else "ruler-h"
        if name not in self._rulers:
            # the same ruler on every page: one form XObject, placed by reference
            self.canvas.beginForm(name, -10, -10, 120, 120)
            self.ruler(0, 0, vertical=vertical)
            end_form(self.canvas, name)
            self._rulers.add(name)
        c = self.canvas
        c.saveState()
        if vertical:
            c.translate(x + w / 2, y + 3)
        else:
            c.translate(x + 3, y + h / 2)
        c.doForm(name)
        c.restoreState()
        caption = ruler_label + "  ·  " + footer
        room = (h if vertical else w) - 112 - 1
        size = fit_line(caption, room, 5.5)
        if vertical:
            # rotated text reads bottom to top: anchored at its end so it runs below the ruler
            self.text(x + w / 2 + 0.9, y + 112, caption, size, rotate=True, anchor="end")
        else:
            self.text(x + 112, y + h / 2 + 1.2, caption, size)


def within_margin(rect: Rect, paper: Paper) -> bool:
    x, y, w, h = rect
    return x >= MARGIN - 1e-6 and y >= MARGIN - 1e-6 and x + w <= paper.width - MARGIN + 1e-6 and y + h <= paper.height - MARGIN + 1e-6


def fit_line(content: str, room_mm: float, size_pt: float, min_pt: float = 3.5) -> float:
    """The largest size up to size_pt at which one line of furniture text fits its room."""
    natural = T.width(content, T.font_name("Barlow"), size_pt * T.PT)
    return size_pt if natural <= room_mm else max(min_pt, size_pt * room_mm / natural)
