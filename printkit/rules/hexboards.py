"""Boards made of hex pieces: where each layout puts its pieces, whether the layout holds together,
each piece's cutting outline, and the geometry that piece and diagram templates draw (mm)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..content import LoadedComponent
from ..errors import Pos, Problem, expected_found
from ..geometry import hexgrid
from ..geometry import Cluster
from ..content import pos_of
from ..content import HexBoard, HexLayout, HexPiece, Placement

Hex = hexgrid.Hex


def placed(piece: HexPiece, p: Placement) -> list[Hex]:
    """A piece's hexes where a placement puts them: turned about its hex [0, 0], then moved."""
    return [hexgrid.add(hexgrid.rotate(tuple(h), p.turn), tuple(p.at)) for h in piece.hexes]


def boundary(hexes: list[Hex], grid: hexgrid.HexGrid) -> list[list[tuple[float, float]]]:
    """The outline loops of a set of hexes: every hex edge not shared by two hexes, chained."""
    def key(pt: tuple[float, float]) -> tuple[float, float]:
        return round(pt[0], 6), round(pt[1], 6)

    edges: set[tuple] = set()
    for h in hexes:
        corners = [key(c) for c in grid.corners(h)]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            if (b, a) in edges:  # a neighbour runs the same edge the other way: inside the cluster
                edges.remove((b, a))
            else:
                edges.add((a, b))
    following = dict(edges)
    loops = []
    while following:
        start = min(following)
        loop, at = [start], following.pop(start)
        while at != start:
            loop.append(at)
            at = following.pop(at)
        loops.append(loop)
    return loops


def piece_cluster(model: HexBoard, piece: HexPiece) -> tuple[tuple[float, float], Cluster, list[dict[str, Any]]]:
    """A piece's box size, its cutting shape and its hexes' centres, in mm from the box's top left."""
    grid = hexgrid.HexGrid(model.hex.size, (0.0, 0.0), model.hex.flat)
    hexes = [tuple(h) for h in piece.hexes]
    points = [pt for h in hexes for pt in grid.corners(h)]
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    w, h = max(p[0] for p in points) - x0, max(p[1] for p in points) - y0
    moved = hexgrid.HexGrid(model.hex.size, (-x0, -y0), model.hex.flat)
    loop = max(boundary(hexes, moved), key=len)
    cells = tuple(tuple(moved.corners(hx)) for hx in hexes)
    cluster = Cluster(cells, tuple(loop), model.hex.size)
    centres = [{"q": q, "r": r, "x": round(x, 4), "y": round(y, 4)}
               for (q, r), (x, y) in ((hx, moved.centre(hx)) for hx in hexes)]
    return (round(w, 4), round(h, 4)), cluster, centres


def _points(loop: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in loop)


def layout_geometry(model: HexBoard, layout: HexLayout, margin: float = 0.0) -> dict[str, Any]:
    """What a diagram template draws: hexes, piece outlines, seats and starts in mm, the box at (0, 0)."""
    pieces = {p.id: p for p in model.pieces}
    base = hexgrid.HexGrid(model.hex.size, (0.0, 0.0), model.hex.flat)
    cells = [(i, h) for i, p in enumerate(layout.placements) if p.piece in pieces for h in placed(pieces[p.piece], p)]
    points = [pt for _, h in cells for pt in base.corners(h)]
    x0, y0 = min(p[0] for p in points) - margin, min(p[1] for p in points) - margin
    w = max(p[0] for p in points) - x0 + margin
    h = max(p[1] for p in points) - y0 + margin
    grid = hexgrid.HexGrid(model.hex.size, (-x0, -y0), model.hex.flat)
    colours = {s.player: s.colour for s in layout.seats}
    centre = (w / 2, h / 2)
    out_hexes = [{"q": hx[0], "r": hx[1], "x": round(grid.centre(hx)[0], 4), "y": round(grid.centre(hx)[1], 4),
                  "piece": i} for i, hx in cells]
    outlines = [_points(max(boundary(placed(pieces[p.piece], p), grid), key=len))
                for p in layout.placements if p.piece in pieces]
    seats = []
    for s in layout.seats:
        # the player sits behind their pieces: opposite the direction they face, at the board's edge
        dx, dy = grid.centre(hexgrid.rotate((0, -1), s.facing, (0, 0)))
        ox, oy = grid.centre((0, 0))
        ux, uy = dx - ox, dy - oy
        norm = (ux * ux + uy * uy) ** 0.5 or 1.0
        reach = min((w / 2) / abs(ux / norm) if abs(ux) > 1e-9 else 1e9, (h / 2) / abs(uy / norm) if abs(uy) > 1e-9 else 1e9)
        seats.append({"player": s.player, "colour": s.colour, "facing": s.facing,
                      "x": round(centre[0] - ux / norm * reach, 4), "y": round(centre[1] - uy / norm * reach, 4),
                      "ux": round(ux / norm, 4), "uy": round(uy / norm, 4)})
    facing = {s.player: s.facing for s in layout.seats}
    starts = [{"player": s.player, "piece": s.piece, "colour": colours.get(s.player), "facing": facing.get(s.player, 0),
               "q": s.at[0], "r": s.at[1], "x": round(grid.centre(tuple(s.at))[0], 4),
               "y": round(grid.centre(tuple(s.at))[1], 4)} for s in layout.starts]
    return {"id": layout.id, "players": layout.players, "label": layout.label, "w": round(w, 4), "h": round(h, 4),
            "size": model.hex.size, "flat": model.hex.flat, "hexes": out_hexes, "outlines": outlines,
            "seats": seats, "starts": starts}


def check_hex_board(comp: LoadedComponent) -> list[Problem]:
    """Pieces hold together; each layout uses pieces it has, without overlaps, in one connected board,
    with its seats and starts on it."""
    model = comp.model
    assert isinstance(model, HexBoard)
    problems: list[Problem] = []
    raw_pieces = comp.raw.get("pieces", [])
    pieces: dict[str, HexPiece] = {}
    for i, piece in enumerate(model.pieces):
        at = pos_of(raw_pieces, i) or comp.raw.pos
        hexes = [tuple(h) for h in piece.hexes]
        if piece.id in pieces:
            problems.append(expected_found(at, "a piece id used once", piece.id))
        if len(set(hexes)) != len(hexes) or not hexgrid.connected(set(hexes)):
            problems.append(expected_found(at, "distinct hexes that touch each other", piece.id))
        pieces[piece.id] = piece
    raw_layouts = comp.raw.get("layouts", [])
    for i, layout in enumerate(model.layouts):
        problems += _check_layout(layout, pieces, raw_layouts[i] if i < len(raw_layouts) else None,
                                  pos_of(raw_layouts, i) or comp.raw.pos)
    return problems


def _check_layout(layout: HexLayout, pieces: dict[str, HexPiece], raw: Any, at: Pos) -> list[Problem]:
    problems: list[Problem] = []
    raw_places = raw.get("placements", []) if raw is not None else []
    owner: dict[Hex, int] = {}
    used: Counter[str] = Counter()
    for i, p in enumerate(layout.placements):
        where = pos_of(raw_places, i) or at
        piece = pieces.get(p.piece)
        if piece is None:
            problems.append(expected_found(where, "a piece id (" + ", ".join(pieces) + ")", p.piece))
            continue
        used[p.piece] += 1
        if used[p.piece] == piece.qty + 1:
            problems.append(expected_found(where, f"at most {piece.qty} placements of piece {p.piece!r} in layout "
                                                  f"{layout.id!r} (its qty)", f"placement {used[p.piece]}", raw=True))
        for h in placed(piece, p):
            if h in owner:
                problems.append(expected_found(where, f"hexes no other piece of layout {layout.id!r} covers",
                                               f"[{h[0]}, {h[1]}] also under placement {owner[h] + 1}", raw=True))
                break
            owner[h] = i
    if owner and not hexgrid.connected(set(owner)):
        problems.append(expected_found(at, f"layout {layout.id!r} in one connected piece", "separate parts", raw=True))
    seats = [s.player for s in layout.seats]
    if layout.seats and (len(set(seats)) != len(seats) or len(seats) != layout.players):
        problems.append(expected_found(pos_of(raw, "seats") or at, f"{layout.players} seats with distinct players",
                                       f"players {seats}", raw=True))
    raw_starts = raw.get("starts", []) if raw is not None else []
    taken: set[Hex] = set()
    for i, s in enumerate(layout.starts):
        where = pos_of(raw_starts, i) or at
        h = tuple(s.at)
        if h not in owner:
            problems.append(expected_found(where, f"a start hex on layout {layout.id!r}", f"[{h[0]}, {h[1]}]", raw=True))
        elif h in taken:
            problems.append(expected_found(where, "a start hex no other start uses", f"[{h[0]}, {h[1]}]", raw=True))
        if seats and s.player not in seats:
            problems.append(expected_found(where, f"a player seated at layout {layout.id!r} ({seats})", s.player))
        taken.add(h)
    return problems


def collection(comp: LoadedComponent, name: str) -> list[tuple[dict[str, Any], int, Pos]]:
    """Rule entries: the pieces (with qty), or every layout's placements or starts (with `layout` and `players`)."""
    model = comp.model
    assert isinstance(model, HexBoard)
    if name == "pieces":
        raw = comp.raw.get("pieces", [])
        return [(p.model_dump(), p.qty, pos_of(raw, i) or comp.raw.pos) for i, p in enumerate(model.pieces)]
    out = []
    raw_layouts = comp.raw.get("layouts", [])
    for li, layout in enumerate(model.layouts):
        raw_list = raw_layouts[li].get(name, []) if li < len(raw_layouts) else []
        for i, entry in enumerate(getattr(layout, name)):
            values = {**entry.model_dump(), "layout": layout.id, "players": layout.players}
            out.append((values, 1, pos_of(raw_list, i) or comp.raw.pos))
    return out
