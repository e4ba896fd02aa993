"""Every page of every French and German kit is in its language: no English word outside the names a game
declares as printed as written (`proper_names` in game.yaml), measured on the text of the built PDFs."""
from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
import yaml

CONTENT = Path(__file__).resolve().parents[1] / "content"
GAMES = sorted(p.name for p in CONTENT.iterdir() if (p / "game.yaml").is_file())
# common English words that are not also French or German words (so "in", "an", "die", "on", "a" are out)
ENGLISH = set("""the and of with your you is are when each this that from must may then its into onto their they
which there have has been would should any every next card cards player players turn turns draw discard roll
move moves space spaces back only one two three if not for here out game wins win""".split())
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")  # whole words, accented letters included ("obéis" is not "is")
# English words French and German board-game texts use as their own
LOANWORDS = ["print-and-play"]


def proper_names(game: str) -> list[str]:
    names = yaml.safe_load((CONTENT / game / "game.yaml").read_text(encoding="utf-8")).get("proper_names") or []
    return sorted(names, key=len, reverse=True)  # "Blade Runner: Rep-Detect" before "Blade Runner"


def english_words(page_text: str, names: list[str]) -> list[str]:
    flat = " ".join(page_text.replace("\u2019", "'").replace("\u00a0", " ").split())
    for name in names + LOANWORDS:
        flat = re.sub(re.escape(name), " ", flat, flags=re.I)
    return [w for w in WORD.findall(flat) if w.lower() in ENGLISH]


def test_the_measure_finds_english_and_skips_declared_names():
    assert english_words("Draw a card from the Draw Deck.", []) == ["Draw", "card", "from", "the", "Draw"]
    assert english_words("Piochez une carte de la Draw Deck.", ["Draw Deck"]) == []
    assert english_words("Ziehe eine Karte in die Hand.", []) == []
    assert english_words("Je t'obéis, mais l'Ø is here.", []) == ["is", "here"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_french_and_german_kits_have_no_english_words(full_build, game, lang):
    names = proper_names(game)
    found = {}
    for paper in ("a4", "letter"):
        with pymupdf.open(full_build / game / paper / f"{game}-kit.{lang}.pdf") as doc:
            for page in doc:
                words = english_words(page.get_text(), names)
                if words:
                    found[f"{paper} p{page.number + 1}"] = " ".join(words[:12])
    assert found == {}
