"""Rule kinds on the fixture game: count bounds, names over list fields, `in` selectors, data tables."""
from __future__ import annotations

from pathlib import Path

from conftest import mini_roots
from printkit.build import validate
from test_errors import col_of, line_of, problems, replace


def add_rule(content: Path, text: str) -> Path:
    game = content / "mini" / "game.yaml"
    replace(game, "facts:\n", text.strip("\n") + "\nfacts:\n")
    return game


def test_count_within_bounds_passes_and_outside_names_the_bounds(mini_copy):
    game = add_rule(mini_copy, """
  - id: deck-size
    source: "test rulebook, a deck of 4 to 6"
    count: {component: deck}
    min: 4
    max: 6
  - id: deck-small
    source: "test rulebook, at most 4"
    count: {component: deck}
    max: 4
""")
    line = line_of(game, "max: 4")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:10: expected ..4 pieces (rule deck-small), found 5"]


def test_names_over_a_list_field_count_each_entry(mini_copy):
    deck = mini_copy / "mini" / "deck.yaml"
    replace(deck, '  power: {type: int', '  tags: {type: list, required: false, doc: "tags"}\n  power: {type: int')
    replace(deck, 'power: 3}', 'power: 3, tags: [fast, sly]}')
    replace(deck, 'power: 2}', 'power: 2, tags: [sly]}')
    game = add_rule(mini_copy, """
  - id: tags
    source: "test rulebook, every tag once"
    names: {component: deck, field: tags, where: {type: red}}
    expect: [fast, sly]
""")
    line = line_of(game, "expect: [fast, sly]")
    assert problems(mini_copy) == [
        f"content/mini/game.yaml:{line}:13: expected [fast, sly] (rule tags), found [fast, sly, sly]"]


def test_in_selector_finds_a_second_copy_of_a_named_card(mini_copy):
    game = add_rule(mini_copy, """
  - id: named-once
    source: "test rulebook, Ada, Bob and Cy exist once each"
    names: {component: deck, field: title, where: {title: {in: [Ada, Cy]}}}
    expect: [Ada, Cy]
""")
    line = line_of(game, "expect: [Ada, Cy]")
    assert problems(mini_copy) == [
        f"content/mini/game.yaml:{line}:13: expected [Ada, Cy] (rule named-once), found [Ada, Cy, Cy, Cy]"]


def test_a_data_table_is_a_collection(mini_copy):
    sheet = mini_copy / "mini" / "sheet.yaml"
    replace(sheet, "blocks:\n", "data:\n  setup:\n    - {players: 2, split: [2]}\n    - {players: 3, split: [2, 1]}\nblocks:\n")
    game = add_rule(mini_copy, """
  - id: setup-rows
    source: "test rulebook, Setup table"
    count: {component: sheet, collection: data.setup}
    expect: 2
  - id: setup-3
    source: "test rulebook, Setup at 3 players: 1 + 1"
    names: {component: sheet, collection: data.setup, field: split, where: {players: 3}}
    expect: [1, 1]
""")
    line = line_of(game, "expect: [1, 1]")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:13: expected [1, 1] (rule setup-3), found [1, 2]"]


def test_an_unknown_collection_is_a_positioned_error(mini_copy):
    game = add_rule(mini_copy, """
  - id: bad
    source: "test rulebook"
    count: {component: deck, collection: rows}
    expect: 1
""")
    line = line_of(game, "collection: rows")
    found = problems(mini_copy)
    assert len(found) == 1 and found[0].startswith(f"content/mini/game.yaml:{line}:")
    assert found[0].endswith("expected items, component, nodes, areas, pieces, placements, starts or data.<name>, found 'rows'")


def test_not_selector_counts_items_that_have_a_value(mini_copy):
    game = add_rule(mini_copy, """
  - id: blue-powerless
    source: "test rulebook, blue cards have no power"
    count: {component: deck, where: {type: blue, power: {not: null}}}
    expect: 0
""")
    line = line_of(game, "expect: 0")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:13: expected 0 pieces (rule blue-powerless), found 3"]


def add_fact(content: Path, text: str) -> Path:
    game = content / "mini" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + text.strip("\n") + "\n", encoding="utf-8")
    return game


def test_nearest_fact_lists_each_home_when_one_is_farther(mini_copy):
    board = mini_copy / "mini" / "board.yaml"
    replace(board, "name: Beta, at:", "name: Beta, tags: [closed], at:")
    game = add_fact(mini_copy, """
  - id: fair-homes
    source: "test rulebook, every Home as near an open Location"
    board: board
    nearest: {from: {kind: home}, to: {kind: location, tags: {not: {has: closed}}}}
""")
    line = line_of(game, "- id: fair-homes")
    assert problems(mini_copy) == [
        f"content/mini/game.yaml:{line}:5: expected the nearest selected 'to' node at the same number of moves "
        "from every 'from' node (fact fair-homes), found Home 1 1, Home 2 4, Home 3 4, Home 4 1"]
    replace(board, "name: Beta, tags: [closed], at:", "name: Beta, at:")
    validate(mini_roots(mini_copy), ["mini"])


def test_nearest_fact_with_expect_points_at_the_expected_moves(mini_copy):
    game = add_fact(mini_copy, """
  - id: one-move
    source: "test rulebook"
    board: board
    nearest: {from: {kind: home}, to: {kind: location}}
    expect: 2
""")
    line = len(game.read_text().splitlines())  # the fact's `expect`, appended last
    assert problems(mini_copy) == [
        f"content/mini/game.yaml:{line}:13: expected the nearest selected 'to' node at exactly 2 moves "
        "from every 'from' node (fact one-move), found Home 1 1, Home 2 1, Home 3 1, Home 4 1"]


def test_exits_fact_names_every_dead_end(mini_copy):
    game = add_fact(mini_copy, """
  - id: no-dead-ends
    source: "test rulebook, no moving straight back"
    board: board
    exits: {nodes: {kind: home}, min: 2}
""")
    line = line_of(game, "- id: no-dead-ends")
    assert problems(mini_copy) == [
        f"content/mini/game.yaml:{line}:5: expected at least 2 links from 'Home {n}' (fact no-dead-ends), found 1"
        for n in (1, 2, 3, 4)]
    board = mini_copy / "mini" / "board.yaml"
    replace(board, "  - [h3, b]", "  - [h3, b]\n  - [h1, s1, h2, s2, h3, s1, h4, s2]")
    validate(mini_roots(mini_copy), ["mini"])


def test_a_selector_that_matches_no_node_is_an_error(mini_copy):
    game = add_fact(mini_copy, """
  - id: no-such
    source: "test rulebook"
    board: board
    exits: {nodes: {kind: castle}}
""")
    line, col = line_of(game, "exits: {nodes"), col_of(game, "{kind: castle}")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:{col}: expected a selector that matches nodes, found no node"]
