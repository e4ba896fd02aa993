"""Hex grid geometry, with numbers checked by hand."""
import math

import pytest

from printkit.geometry.hexgrid import DIRECTIONS, HexGrid, connected, disc, distance, neighbours, ring, rotate


def test_neighbours_are_at_distance_one_and_distinct():
    around = neighbours((2, -1))
    assert len(set(around)) == 6
    assert all(distance((2, -1), n) == 1 for n in around)
    assert distance((0, 0), (3, -1)) == 3 and distance((0, 0), (-2, 3)) == 3


def test_six_rotations_come_back_and_one_turns_each_direction_into_the_next():
    for h in [(1, 0), (2, -1), (0, 3)]:
        assert rotate(h, 6) == h
        assert distance((0, 0), rotate(h, 1)) == distance((0, 0), h)
    for i, d in enumerate(DIRECTIONS):
        assert rotate(d, 1) == DIRECTIONS[(i + 1) % 6]
    assert rotate((3, 1), 2, about=(1, 1)) == (-1, 3)  # two steps east, turned twice: two steps south-west


def test_rings_and_discs_count_1_6_12_hexes():
    assert len(ring((0, 0), 1)) == 6 and len(ring((0, 0), 2)) == 12
    assert len(disc((0, 0), 2)) == 19  # a hexagonal area of radius 2
    assert all(distance((0, 0), h) == 2 for h in ring((0, 0), 2))
    assert connected(set(disc((0, 0), 2)))
    assert not connected({(0, 0), (2, 0)})


def test_layout_in_millimetres():
    pointy = HexGrid(10)
    assert pointy.centre((1, 0)) == pytest.approx((10 * math.sqrt(3), 0))
    assert pointy.centre((0, 1)) == pytest.approx((5 * math.sqrt(3), 15))
    flat = HexGrid(10, flat=True)
    assert flat.centre((1, 0)) == pytest.approx((15, 5 * math.sqrt(3)))
    corners = pointy.corners((0, 0))
    assert len(corners) == 6 and all(math.hypot(x, y) == pytest.approx(10) for x, y in corners)
    # neighbouring hexes share an edge: centres one hex width apart
    a, b = pointy.centre((0, 0)), pointy.centre((1, 0))
    assert math.dist(a, b) == pytest.approx(pointy.width)
