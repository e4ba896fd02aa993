"""Every character of a game's catalog text, as typeset, exists in the sheet fonts: checked with the
rules, before anything is drawn, so a missing glyph is a positioned error and not an empty box."""
from __future__ import annotations

from ..content import GameContent
from ..content import typography
from ..errors import Problem, expected_found
from . import text as T


def check_catalog_glyphs(content: GameContent) -> list[Problem]:
    """Every character of localised text, and of the texts printed as written, as typeset, exists in the sheet fonts;
    and no rules sheet's text names an icon."""
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
    return problems + sheet_icon_problems(content)


def sheet_icon_problems(content: GameContent) -> list[Problem]:
    """An icon a rules sheet's text names that the game does not have: never printed as its name."""
    from ..content import Sheet
    from .media.icons import ICON, icon_file, unknown
    from .pieces import templates_for

    problems = []
    for comp in content.components.values():
        if not isinstance(comp.model, Sheet):
            continue
        asset = templates_for(content, comp).asset
        keys = [f"{comp.model.catalog}.{k}" for b in comp.model.blocks for k in (b.keys or ([b.key] if b.key else []))]
        for lang, table in content.catalogs.texts.items():
            for key in keys:
                for name in dict.fromkeys(ICON.findall(table.get(key, ""))):
                    if icon_file(asset, name) is None:
                        problems.append(Problem(content.catalogs.positions[lang][key], unknown(name)))
    return problems
