"""Imposition, tiling and graph geometry, with numbers checked by hand."""
import math

import pytest

from printkit.geometry.graph import Graph
from printkit.geometry.paper import MARGIN, PAPERS
from printkit.layout.impose import best_grid, grid, gutterfold, solve_axis, tiling


def test_axis_with_room_gets_full_gutter_and_is_centred():
    # 3 x 63.5 = 190.5 in 200: 9.5 left; 3 gutters of (9.5 - 6) / 3 and 3 mm marks
    a = solve_axis(5, 205, 63.5)
    assert a.count == 3
    assert a.gutter == pytest.approx(3.5 / 3)
    assert a.mark == pytest.approx(3.0)
    left = a.start - a.bleed - a.mark
    right = 205 - (a.end + a.bleed + a.mark)
    assert left == pytest.approx(5) and right == pytest.approx(0)


def test_tight_axis_shares_cuts_instead_of_a_useless_gutter():
    # US Letter height: 3 x 88.9 in 269.4 leaves 2.7 mm: no gutter, 1.35 mm marks
    a = solve_axis(5, 274.4, 88.9)
    assert (a.count, a.gutter) == (3, 0.0)
    assert a.mark == pytest.approx(1.35)
    assert a.edge(1) == pytest.approx(a.edge(0) + 88.9)


def test_a_short_run_uses_only_the_columns_it_needs():
    g = grid(PAPERS["a4"], 24, 96, count=4)
    assert (g.x.count, g.y.count, g.x.gutter) == (4, 1, 3.0)


def test_axis_too_small_for_one_piece():
    assert solve_axis(0, 50, 63.5) is None


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_fit_both_papers_inside_the_margin(paper):
    g = grid(PAPERS[paper], 63.5, 88.9)
    assert g.per_sheet == 9
    p = g.paper
    assert g.x.start - g.x.bleed - g.x.mark >= MARGIN - 1e-9
    assert g.y.start - g.y.bleed - g.y.mark >= MARGIN - 1e-9
    assert g.x.end + g.x.bleed + g.x.mark <= p.width - MARGIN + 1e-9
    assert g.y.end + g.y.bleed + g.y.mark <= p.height - MARGIN + 1e-9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_mirror_fronts_about_the_vertical_centre(paper):
    g = grid(PAPERS[paper], 63.5, 88.9)
    for i in range(g.per_sheet):  # turned over on the long edge, each back lands behind its front
        (fx, fy), (bx, by) = g.slot(i), g.mirrored(i)
        assert (fx + 63.5 / 2, fy) == pytest.approx((g.paper.width - (bx + 63.5 / 2), by))
    if g.band == "bottom":
        # with the ruler band below, the grid is centred across: the backs fall on the grid's own slots,
        # columns reversed, so one set of cut marks serves both sides (with the band at the side they cannot)
        slots = {(round(x, 6), round(y, 6)) for x, y in (g.slot(i) for i in range(g.per_sheet))}
        assert {(round(x, 6), round(y, 6)) for x, y in (g.mirrored(i) for i in range(g.per_sheet))} == slots
        assert g.mirrored(0) == pytest.approx(g.slot(g.x.count - 1))


def test_letter_moves_the_ruler_band_to_the_side():
    assert grid(PAPERS["letter"], 63.5, 88.9).band == "right"
    assert grid(PAPERS["a4"], 63.5, 88.9).band == "bottom"


def test_gutterfold_puts_backs_opposite_their_fronts_across_the_fold():
    g = gutterfold(PAPERS["a4"], 63.5, 88.9)
    assert g.per_sheet == 4 and g.paper.width == 297.0  # landscape: 2 x 2 per half
    for i in range(g.per_sheet):
        fx, _ = g.front(i)
        bx, _ = g.back(i)
        assert (fx + 63.5 / 2) + (bx + 63.5 / 2) == pytest.approx(2 * g.fold)
        assert fx + 63.5 <= g.fold
    assert not g.turned


def test_a_piece_too_wide_for_half_a_sheet_folds_below_a_horizontal_line_half_a_turn_round():
    g = gutterfold(PAPERS["a4"], 180, 124)
    assert g.axis == "y" and g.turned and g.per_sheet == 1 and g.paper.width == 210.0
    (fx, fy), (bx, by) = g.front(0), g.back(0)
    assert bx == fx and (fy + 62) + (by + 62) == pytest.approx(2 * g.fold)
    assert fy + 124 <= g.fold - 1.5 and by >= g.fold + 1.5  # clear of the fold line
    assert by + 124 <= 297 - MARGIN - 7  # above the ruler band
    assert gutterfold(PAPERS["letter"], 180, 124) is not None


def test_pieces_whose_front_and_back_cannot_share_a_sheet_do_not_fold():
    assert gutterfold(PAPERS["a4"], 180, 180) is None
    assert gutterfold(PAPERS["letter"], 255, 170) is None


def test_tiles_cover_the_board_with_overlap():
    t = tiling(PAPERS["a4"], 560, 400)
    assert t.cols * t.rows == 6
    covered_x = {round(x, 6) for r in range(t.rows) for c in range(t.cols) for x in (t.window(r, c)[0],)}
    assert 0.0 in covered_x
    last = t.window(t.rows - 1, t.cols - 1)
    assert last[0] + last[2] == pytest.approx(560) and last[1] + last[3] == pytest.approx(400)
    a, b = t.window(0, 0), t.window(0, 1)
    assert a[0] + a[2] - b[0] == pytest.approx(t.overlap)
    assert t.label(1, 2) == "B3"


def test_best_grid_keeps_portrait_unless_landscape_holds_more():
    assert best_grid(PAPERS["a4"], 63.5, 88.9).paper.width == 210.0
    wide = best_grid(PAPERS["a4"], 120, 80)
    assert wide.per_sheet >= grid(PAPERS["a4"], 120, 80).per_sheet


def test_graph_distances_and_nearest():
    nodes = {"a": (0, 0), "b": (10, 0), "c": (20, 0), "d": (0, 30)}
    g = Graph.from_chains(nodes, [["a", "b", "c"], ["a", "d"]])
    assert g.distances("a") == {"a": 0, "b": 1, "d": 1, "c": 2}
    assert g.nearest((19, 1)) == "c"
    lone = Graph.from_chains({**nodes, "e": (99, 99)}, [["a", "b"]])
    assert "e" not in lone.distances("a")
    assert math.isclose(len(g.adjacent["a"]), 2)


def test_seams_move_off_obstacles_without_adding_tiles():
    from printkit.geometry.seams import crossing, uniform_count, windows

    plain = windows(560, 196, 12)
    assert len(plain) == uniform_count(560, 196, 12) == 4 - 1  # 3 tiles
    seam = plain[1][0] + 6
    blocked = [(seam - 3, seam + 3, 5.0)]  # narrower than the slack three tiles leave
    moved = windows(560, 196, 12, blocked)
    assert len(moved) == len(plain)
    assert crossing(moved[1][0] + 6, blocked) == 0
    # still a cover: each tile overlaps the next by exactly 12 mm, the last ends at the board edge
    for (a, wa), (b, _) in zip(moved, moved[1:]):
        assert a + wa - b == pytest.approx(12)
        assert wa <= 196 + 1e-9
    assert moved[-1][0] + moved[-1][1] == pytest.approx(560)


def test_landscape_sheets_turn_over_top_to_bottom():
    g = grid(PAPERS["a4"].landscape(), 255, 170)
    assert g.landscape and g.per_sheet == 1
    fx, fy = g.slot(0)
    bx, by = g.mirrored(0)
    assert bx == pytest.approx(fx)
    assert fy + 170 / 2 == pytest.approx(g.paper.height - (by + 170 / 2))


def test_the_fill_rules_agree_unless_an_outline_crosses_itself_or_holds_another():
    from printkit.geometry import rules_agree

    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert rules_agree([square])
    assert rules_agree([square + [(0, 0)]])  # closed on its start
    assert rules_agree([square, [(20, 0), (30, 0), (30, 10)]])  # side by side
    assert rules_agree([[(0, 0), (10, 10)], [(10, 0), (0, 10)]])  # a cross of two strokes encloses nothing
    assert not rules_agree([square, [(2, 2), (8, 2), (8, 8)]])  # a loop inside another
    assert not rules_agree([[(50, 0), (79, 90), (2, 35), (98, 35), (21, 90)]])  # a star crosses itself
