"""Imposition, tiling and graph geometry, with numbers checked by hand."""
import math

import pytest

from printkit.geometry.graph import Graph
from printkit.geometry.paper import EDGE, MARGIN, MARK_GAP, MIN_MARK, PAPERS
from printkit.layout.impose import best_grid, grid, gutterfold, solve_axis, tiling


def test_axis_with_room_gets_full_gutter_and_is_centred():
    # 2 x 63.5 = 127 in 200: gutters of 4 (bleed 2), marks of 6, 0.3 clear of the bleed, centred
    a = solve_axis(5, 205, 63.5)
    assert a.count == 3  # 3 x (63.5 + 2) + 2 x 3.3 = 203.1 does not fit 200, 3 x 65.5 = 196.5 does
    a = solve_axis(5, 205, 63.5, 2)
    assert (a.count, a.gutter, a.mark) == (2, 4.0, 6.0)
    left = a.start - a.bleed - MARK_GAP - a.mark
    right = 205 - (a.end + a.bleed + MARK_GAP + a.mark)
    assert left - 5 == pytest.approx(right) and right >= 0


def test_an_axis_too_tight_for_marks_prints_its_cuts_as_lines_and_keeps_1_mm_of_bleed():
    # A4 across inside a quarter inch: 3 x 63.5 = 190.5 in 197.3 leaves 6.8: 3 gutters of 2.27, no marks
    a = solve_axis(EDGE, 210 - EDGE, 63.5)
    assert (a.count, a.mark, a.marked) == (3, 0.0, False)
    assert a.gutter == pytest.approx(6.8 / 3)
    assert a.bleed >= 1.0


def test_marks_are_used_when_they_cost_no_piece():
    # 2 x 88.9 + 2 x 2 + 2 x 3.3 = 188.4 in 190: marks, and the 1.6 mm left widens the gutters
    a = solve_axis(10, 200, 88.9)
    assert a.count == 2 and a.marked and a.mark >= MIN_MARK and a.bleed >= 1.0


def test_no_layout_ever_shares_a_cut_or_bleeds_less_than_1_mm():
    for size in (8, 9.5, 15, 22, 45, 63.5, 88.9, 120, 190):
        for hi in range(60, 280, 7):
            a = solve_axis(EDGE, hi, size)
            assert a is None or (a.gutter >= 2.0 - 1e-9 and (a.mark == 0 or a.mark >= MIN_MARK - 1e-9)), (size, hi, a)


def test_a_short_run_uses_only_the_columns_it_needs():
    g = grid(PAPERS["a4"], 24, 96, count=4)
    assert (g.x.count, g.y.count, g.x.gutter) == (4, 1, 4.0)


def test_axis_too_small_for_one_piece():
    assert solve_axis(0, 50, 63.5) is None


@pytest.mark.parametrize("paper, per_sheet", [("a4", 9), ("letter", 8)])
def test_poker_cards_keep_bleed_and_marks_inside_a_quarter_inch(paper, per_sheet):
    # Letter is 3 x 88.9 mm + 2 quarter inches tall: 9 cards with bleed cannot fit; 4 x 2 on landscape do
    g = best_grid(PAPERS[paper], 63.5, 88.9)
    assert g.per_sheet == per_sheet and g.x.bleed >= 1.0 and g.y.bleed >= 1.0
    p = g.paper
    for axis, length in ((g.x, p.width), (g.y, p.height)):
        reach = axis.bleed + (MARK_GAP + axis.mark if axis.marked else 0.0)
        assert axis.start - reach >= EDGE - 1e-9 and axis.end + reach <= length - EDGE + 1e-9


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


def test_poker_cards_keep_the_ruler_band_below():
    assert best_grid(PAPERS["letter"], 63.5, 88.9).band == "bottom"
    assert best_grid(PAPERS["a4"], 63.5, 88.9).band == "bottom"


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
