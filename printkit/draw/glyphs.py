"""Every character of a game's catalog text, as typeset, exists in the sheet fonts: checked with the
rules, before anything is drawn, so a missing glyph is a positioned error and not an empty box."""
from __future__ import annotations

from ..content import GameContent
from ..content import typography
from ..errors import Problem, expected_found
from . import text as T


def check_catalog_glyphs(content: GameContent) -> list[Problem]:
    """Every character of localised text, and of the texts printed as written, as typeset, exists in the sheet fonts."""
    T.register_fonts()
    fonts = [T.font_name("Barlow", style) for style in ("regular", "bold")]
    problems = []
    for lang, table in content.catalogs.texts.items():
        for key, value in table.items():
            typeset = typography(value, lang).replace("*", "")
            missing = "".join(sorted({c for f in fonts for c in T.missing_glyphs(typeset, f)}))
            if missing:
                problems.append(expected_found(content.catalogs.positions[lang][key],
                                               "characters the sheet font Barlow has", repr(missing), raw=True))
    for pos, text in content.printed_texts():  # the game's title, credits, component titles: printed as written
        typeset = "".join(typography(text, lang) for lang in content.game.languages)
        missing = "".join(sorted({c for f in fonts for c in T.missing_glyphs(typeset, f)}))
        if missing:
            problems.append(expected_found(pos, "characters the sheet font Barlow has", repr(missing), raw=True))
    return problems
