"""Large boards on small sheets: overlapping tiles with registration, an assembly diagram, a poster."""
from __future__ import annotations

from typing import Callable

from ..geometry import MARGIN, PAPERS, Paper
from .impose import Tiling, best_grid, tiling
from ..content import Board, GraphBoard
from .sheets import CUT_LINE_COLOUR, CUT_LINE_WIDTH, SheetLabels, Sink
from ..errors import Pos, Problem
from ..write import Writer
from ..draw import Context

POSTER_BLEED = 3.0
CROP = 8.0
POSTER_ROOM = 25.0  # around the board on the poster sheet: crop marks, note, ruler
CROSS_INSET = 8.0


def _board_form(w: Writer, svg: str, size: tuple[float, float], lang: str, safe: float, sink: Sink,
                where: Pos, assets: Callable) -> str:
    bw, bh = size
    ctx = Context(lang, (safe, safe, bw - safe, bh - safe))
    form = w.shared_form(svg, bw, bh, ctx, assets)
    sink.problems += [Problem(where, f"{tp.message} (board, field {tp.field})") for tp in ctx.problems]
    return form


def poster_paper(bw: float, bh: float) -> Paper:
    """The smallest standard sheet (A2, A1, A0) that holds the board with room for marks."""
    for name in ("a2", "a1", "a0"):
        sheet = PAPERS[name]
        if bw > bh:
            sheet = sheet.landscape()
        if bw + 2 * POSTER_ROOM <= sheet.width and bh + 2 * POSTER_ROOM <= sheet.height:
            return sheet
    return sheet


def board_obstacles(model: GraphBoard) -> tuple:
    """What a seam should not cut through, as the board template draws it: card spaces and player
    areas (cards would slide on a taped seam), named nodes with their labels, then spaces."""
    data = model.data
    radius = float(data.get("location_radius", 12))
    space = float(data.get("space_radius", 4.5))
    label_w, label_h = data.get("label_size", [50, 12])
    out = [(a.at[0], a.at[1], a.at[0] + a.size[0], a.at[1] + a.size[1], 5.0) for a in model.areas]
    for n in model.nodes:
        x, y = n.at
        r = space if n.kind == "space" else radius
        out.append((x - r - 1, y - r - 1, x + r + 1, y + r + 1, 1.0 if n.kind == "space" else 3.0))
        if n.kind not in ("space", "home"):
            out.append((x - label_w / 2, y + r + 1, x + label_w / 2, y + r + 1 + label_h, 2.0))
    return tuple(out)


def board_tiling(paper: Paper, model: Board) -> Tiling:
    obstacles = board_obstacles(model) if isinstance(model, GraphBoard) else ()
    return tiling(paper, *model.size, obstacles=obstacles)


def fits_sheet(paper: Paper, model: Board) -> bool:
    """Whether the board prints whole on one sheet of this paper (then it is a piece, not tiles)."""
    return best_grid(paper, *model.size, 1) is not None


def tile_count(paper: Paper, model: Board) -> int:
    t = board_tiling(paper, model)
    return t.rows * t.cols


def _cross(x: float, y: float, r: float = 2.0) -> list[tuple[float, float, float, float]]:
    return [(x - r, y, x + r, y), (x, y - r, x, y + r)]


def tile_pages(w: Writer, svg: str, model: Board, paper: Paper, title: str, label: SheetLabels, sink: Sink,
               where: Pos, assets: Callable, safe: float) -> int:
    """Assembly diagram, then one page per tile."""
    size = model.size
    t = board_tiling(paper, model)
    form = _board_form(w, svg, size, label.text_lang or label.lang, safe, sink, where, assets)
    assembly_page(w, form, t, title, label)
    total = t.rows * t.cols
    n = 1
    for row in range(t.rows):
        for col in range(t.cols):
            _tile(w, form, t, row, col, label, n + 1, total + 1)
            n += 1
    return total + 1


def _tile(w: Writer, form: str, t: Tiling, row: int, col: int, label: SheetLabels, n: int, total: int) -> None:
    bx, by, tw, th = t.window(row, col)
    ox, oy = t.origin
    c = w.canvas
    w.begin(t.paper)
    c.saveState()
    path = c.beginPath()
    path.rect(ox, oy, tw, th)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(ox - bx, oy - by)
    c.doForm(form)
    c.restoreState()
    # the overlap this tile lays over its left / upper neighbour: cut at its middle
    segs = []
    half = t.overlap / 2
    cuts = []
    # registration crosses sit on each seam near its two ends, away from the board's middle
    near = (CROSS_INSET, th - CROSS_INSET)
    if col > 0:
        x = ox + half
        cuts.append((x, oy, x, oy + th))
        for k in near:
            segs += _cross(x, oy + k)
    if row > 0:
        y = oy + half
        cuts.append((ox, y, ox + tw, y))
        for k in (CROSS_INSET, tw - CROSS_INSET):
            segs += _cross(ox + k, y)
    # where the neighbours to the right / below will lie: their cut lines, for registration
    if col < t.cols - 1:
        x = ox + tw - t.overlap + half
        for k in near:
            segs += _cross(x, oy + k)
    if row < t.rows - 1:
        y = oy + th - t.overlap + half
        for k in (CROSS_INSET, tw - CROSS_INSET):
            segs += _cross(ox + k, y)
    # white under black: visible on dark and light art alike
    w.lines(cuts, width=0.7, colour=(1, 1, 1))
    w.lines(cuts, width=0.3, colour=(0, 0, 0), dash=[2.5, 1.5])
    w.lines(segs, width=0.6, colour=(1, 1, 1))
    w.lines(segs, width=0.2, colour=(0, 0, 0))
    # the board's outer edges on this tile: a cut line along each (a crop mark would need room left of the
    # first column that a quarter-inch printer margin does not leave)
    edge = []
    if col == 0:
        edge.append((ox, oy, ox, oy + th))
    if row == 0:
        edge.append((ox, oy, ox + tw, oy))
    if col == t.cols - 1:
        edge.append((ox + tw, oy, ox + tw, oy + th))
    if row == t.rows - 1:
        edge.append((ox, oy + th, ox + tw, oy + th))
    w.lines(edge, width=CUT_LINE_WIDTH, colour=CUT_LINE_COLOUR)
    name = t.label(row, col)
    left = t.label(row, col - 1) if col else label.t("none")
    above = t.label(row - 1, col) if row else label.t("none")
    w.text(ox + tw, MARGIN + 4.5, label.t("tile_label", label=name, row=chr(65 + row), col=col + 1), 9, "bold", anchor="end",
           colour=(0, 0, 0))
    w.text(ox + tw, MARGIN + 7.8, label.t("tile_neighbours", left=left, above=above), 6.5, anchor="end")
    _mini_map(w, t, row, col, ox, MARGIN + 0.5)
    band = (MARGIN, t.paper.height - MARGIN - 7, t.paper.width - 2 * MARGIN, 7)
    w.furniture(band, label.footer(n, total), label.t("ruler"))
    w.boxes((ox, oy, tw, th), (ox, oy, tw, th))
    w.end()


def _mini_map(w: Writer, t: Tiling, row: int, col: int, x: float, y: float) -> None:
    cell = min(7.0 / t.rows, 12.0 / t.cols)
    c = w.canvas
    c.saveState()
    c.setLineWidth(0.15)
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    for r in range(t.rows):
        for k in range(t.cols):
            if (r, k) == (row, col):
                c.setFillColorRGB(0.2, 0.2, 0.2)
                c.rect(x + k * cell * 1.4, y + r * cell, cell * 1.4, cell, stroke=1, fill=1)
            else:
                c.rect(x + k * cell * 1.4, y + r * cell, cell * 1.4, cell, stroke=1, fill=0)
    c.restoreState()


def assembly_page(w: Writer, form: str, t: Tiling, title: str, label: SheetLabels) -> None:
    """The whole board scaled to the sheet, with the tile grid and labels over it."""
    paper = t.paper
    w.begin(paper)
    w.text(MARGIN + 2, MARGIN + 7, label.t("assembly_title", title=title), 14, "bold", colour=(0, 0, 0))
    avail_w = paper.width - 2 * MARGIN - 4
    avail_h = paper.height - 2 * MARGIN - 60
    scale = min(avail_w / t.board_w, avail_h / t.board_h)
    x0 = (paper.width - t.board_w * scale) / 2
    y0 = MARGIN + 14
    c = w.canvas
    c.saveState()
    c.translate(x0, y0)
    c.scale(scale, scale)
    c.doForm(form)
    c.restoreState()
    segs = []
    for row in range(t.rows):
        for col in range(t.cols):
            bx, by, tw, th = t.window(row, col)
            cx, cy = x0 + (bx + tw / 2) * scale, y0 + (by + th / 2) * scale
            w.canvas.saveState()
            w.canvas.setFillColorRGB(1, 1, 1)
            w.canvas.setFillAlpha(0.85)
            w.canvas.roundRect(cx - 7, cy - 5, 14, 8, 1.5, stroke=0, fill=1)
            w.canvas.restoreState()
            w.text(cx, cy + 1.2, t.label(row, col), 12, "bold", anchor="middle", colour=(0, 0, 0))
            if col:
                x = x0 + (bx + t.overlap / 2) * scale
                segs.append((x, y0, x, y0 + t.board_h * scale))
            if row:
                y = y0 + (by + t.overlap / 2) * scale
                segs.append((x0, y, x0 + t.board_w * scale, y))
    w.lines(segs, width=0.4, colour=(0.85, 0.1, 0.1), dash=[3, 2])
    text_y = y0 + t.board_h * scale + 8
    from .flow import paragraph_lines

    for line in paragraph_lines(label.t("tiles_p"), paper.width - 2 * MARGIN - 4, 9):
        w.text(MARGIN + 2, text_y, line, 9, colour=(0, 0, 0))
        text_y += 4.4
    band = (MARGIN, paper.height - MARGIN - 7, paper.width - 2 * MARGIN, 7)
    w.furniture(band, label.footer(1, t.rows * t.cols + 1), label.t("ruler"))
    w.end()


def poster_page(w: Writer, svg: str, size: tuple[float, float], label: SheetLabels, sink: Sink, where: Pos,
                assets: Callable, safe: float) -> int:
    """The board on one large standard sheet, for a print shop: crop marks, TrimBox = the board."""
    bw, bh = size
    paper = poster_paper(bw, bh)
    form = _board_form(w, svg, size, label.text_lang or label.lang, safe, sink, where, assets)
    w.begin(paper)
    x0, y0 = (paper.width - bw) / 2, (paper.height - bh) / 2
    c = w.canvas
    c.saveState()
    path = c.beginPath()
    path.rect(x0 - POSTER_BLEED, y0 - POSTER_BLEED, bw + 2 * POSTER_BLEED, bh + 2 * POSTER_BLEED)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(x0, y0)
    c.doForm(form)
    c.restoreState()
    gap = POSTER_BLEED + 1
    segs = []
    for x in (x0, x0 + bw):
        segs += [(x, y0 - gap - CROP, x, y0 - gap), (x, y0 + bh + gap, x, y0 + bh + gap + CROP)]
    for y in (y0, y0 + bh):
        segs += [(x0 - gap - CROP, y, x0 - gap, y), (x0 + bw + gap, y, x0 + bw + gap + CROP, y)]
    w.lines(segs, width=0.2)
    w.text(x0, y0 + bh + gap + CROP + 4, label.t("poster_note"), 8)
    w.ruler(x0 + bw - 105, y0 + bh + gap + CROP + 3)
    w.boxes((x0, y0, bw, bh), (x0 - POSTER_BLEED, y0 - POSTER_BLEED, bw + 2 * POSTER_BLEED, bh + 2 * POSTER_BLEED))
    w.end()
    return 1
