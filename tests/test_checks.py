"""Game-specific checks: named in game.yaml, supplied only by installed code."""
from __future__ import annotations

import pytest

from conftest import mini_roots
from printkit.rules import checks
from printkit.build import validate
from printkit.errors import ContentError, Problem


def add_checks(content_dir, names: str) -> None:
    game = content_dir / "mini" / "game.yaml"
    game.write_text(game.read_text() + f"checks: {names}\n")


def test_an_unknown_check_is_a_positioned_error(mini_copy, monkeypatch):
    monkeypatch.setattr(checks, "registry", lambda: {})
    add_checks(mini_copy, "[maps-reachable]")
    with pytest.raises(ContentError) as info:
        validate(mini_roots(mini_copy), ["mini"])
    line = len((mini_copy / "mini" / "game.yaml").read_text().splitlines())
    assert [str(p) for p in info.value.problems] == [
        f"content/mini/game.yaml:{line}:10: expected a registered check (none installed), found 'maps-reachable'"]


def test_a_registered_check_reads_the_model_and_reports(mini_copy, monkeypatch):
    seen = []

    def every_card_has_power(content):
        seen.append(content.id)
        deck = content.components["deck"]
        return [Problem(item.pos, f"expected power ≥ 2, found {item.get('power')}")
                for item in deck.items if item.get("power", 0) < 2]

    monkeypatch.setattr(checks, "registry", lambda: {"strong-cards": every_card_has_power})
    add_checks(mini_copy, "[strong-cards]")
    with pytest.raises(ContentError) as info:
        validate(mini_roots(mini_copy), ["mini"])
    assert seen == ["mini"]
    assert [p.message for p in info.value.problems] == ["expected power ≥ 2, found 1"]
