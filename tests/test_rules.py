"""Rule kinds on the fixture game: count bounds, names over list fields, `in` selectors, data tables."""
from __future__ import annotations

from pathlib import Path

from test_errors import line_of, problems, replace


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
    assert found[0].endswith("expected items, nodes, areas, pieces, placements, starts or data.<name>, found 'rows'")


def test_not_selector_counts_items_that_have_a_value(mini_copy):
    game = add_rule(mini_copy, """
  - id: blue-powerless
    source: "test rulebook, blue cards have no power"
    count: {component: deck, where: {type: blue, power: {not: null}}}
    expect: 0
""")
    line = line_of(game, "expect: 0")
    assert problems(mini_copy) == [f"content/mini/game.yaml:{line}:13: expected 0 pieces (rule blue-powerless), found 3"]
