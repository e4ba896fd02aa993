"""Any BCP 47 language: CLDR's numbers and quotes through Babel, the print guide shipped in Spanish, from the
game's own catalog for a language printkit ships none for, and an unknown code refused at its line."""
from __future__ import annotations

from pathlib import Path

from conftest import mini_roots
from pdfcheck import text
from printkit.build import Settings, build
from printkit.content import format_number, typography
from test_errors import line_of, problems, replace

ENGINE_EN = Path(__file__).resolve().parents[1] / "printkit" / "content" / "locale" / "en.yaml"


def second_language(content: Path, lang: str = "es", guide: bool = False) -> Path:
    """The mini game in English and one more language; its catalog with (or without) the guide's texts."""
    game = content / "mini" / "game.yaml"
    replace(game, "languages: [en, fr, de]", f"languages: [en, {lang}]")
    replace(game, "  half: 0.5\n", "  half: 0.5\n  big: 1000.5\n")
    i18n = content / "mini" / "i18n"
    body = (i18n / "en.yaml").read_text().replace(
        'intro: "Hand limit: {hand_limit} cards. Score {half} point per tie!"',
        'intro: "Límite: {big} cartas, \\"Ada\\" gana."')
    if guide:  # the guide's texts left in English: the test reads the Spanish numbers and quotes
        body += ENGINE_EN.read_text().split("\n", 1)[1]
    (i18n / f"{lang}.yaml").write_text(body)
    return game


def test_cldr_formats_spanish_numbers_and_quotes():
    assert format_number(1000.5, "es") == "1.000,5" and format_number(1000.5, "pt-BR") == "1.000,5"
    assert typography('"Ada"', "es") == "«Ada»" and typography('"Ada"', "pl") == "„Ada”"


def test_a_spanish_kit_prints_cldr_numbers_and_quotes(mini_copy, tmp_path):
    second_language(mini_copy)
    out = tmp_path / "out"
    build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",), langs=("es",), parts=False,
                   gutterfold=False, poster=False), ["mini"])
    kit = text(out / "mini" / "a4" / "mini-kit.es.pdf")
    assert "1.000,5" in kit and "«Ada»" in kit
    assert "Guía de impresión print-and-play" in kit  # printkit's own Spanish guide


def test_a_game_gives_the_guide_of_a_language_printkit_has_none_for(mini_copy, tmp_path):
    second_language(mini_copy, "it", guide=True)
    out = tmp_path / "out"
    build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",), langs=("it",), parts=False,
                   gutterfold=False, poster=False), ["mini"])
    kit = text(out / "mini" / "a4" / "mini-kit.it.pdf")
    assert "1.000,5" in kit and "«Ada»" in kit and "Print-and-play guide" in kit  # the game's (untranslated) guide


def test_a_language_without_a_guide_names_the_keys_to_translate(mini_copy):
    second_language(mini_copy, "it")
    found = problems(mini_copy)
    assert len(found) == 1 and found[0].startswith("content/mini/i18n/it.yaml:1:1: expected the print guide's texts in 'it' "
                                                   "(printkit ships en, fr, de, es;")
    assert "guide.title, guide.subtitle" in found[0]


def test_an_unknown_language_code_is_refused_at_its_line(mini_copy):
    game = mini_copy / "mini" / "game.yaml"
    replace(game, "languages: [en, fr, de]", "languages: [en, xx-YY-invalid]")
    found = problems(mini_copy)
    line = line_of(game, "languages:")
    assert found == [f"content/mini/game.yaml:{line}:17: expected a BCP 47 language code CLDR knows (en, es, pt-BR, ...), "
                     "found 'xx-YY-invalid'"]
