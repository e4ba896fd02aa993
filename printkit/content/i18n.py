"""Keyed per-language catalogs, language-aware typography and number formats.

Languages are BCP 47 codes (`en`, `pt-BR`); number formats come from CLDR through Babel. Babel ships
no CLDR quotation marks, so `_QUOTES` copies them (CLDR `delimiters`), and CLDR has no punctuation
spacing at all: the French spaces before `;:!?` and inside « » stay a small rule of their own."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import ContentError, Pos, Problem, expected_found
from .load import YMap, load_yaml
from .paths import inside

if TYPE_CHECKING:  # Babel (CLDR) is imported by the first code checked or number formatted
    from babel import Locale

LANGS = ("en", "fr", "de", "es")  # the languages of the engine's own catalogs (the print guide)
# The pseudo language of a pseudo-localisation build: the content language's text, every letter
# accented and every text 40 % longer, to find texts that would not fit a longer language.
PSEUDO = "qps"
# U+00A0 rather than the narrow U+202F: the shipped fonts have no glyph for the narrow one.
NBSP = NNBSP = "\u00a0"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
ENGINE_CATALOGS = Path(__file__).resolve().parent / "locale"


@dataclass
class Catalogs:
    """Flattened catalogs: lang → dotted key → text, with each entry's position."""

    texts: dict[str, dict[str, str]] = field(default_factory=dict)
    positions: dict[str, dict[str, Pos]] = field(default_factory=dict)
    files: dict[str, Pos] = field(default_factory=dict)  # lang -> its first catalog file (for a missing key)

    def has(self, key: str) -> bool:
        return any(key in table for table in self.texts.values())

    def get(self, lang: str, key: str) -> str:
        return self.texts[lang][key]

    def format(self, lang: str, key: str, values: Mapping[str, Any]) -> str:
        """The text of a key with {placeholders} filled, numbers in the language's format."""
        return fill(self.get(lang, key), lang, values)


def fill(text: str, lang: str, values: Mapping[str, Any]) -> str:
    if "{" not in text:
        return text  # most texts have no placeholder: thousands of card values skip the regular expression

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        return format_value(values[name], lang) if name in values else match.group(0)

    return PLACEHOLDER.sub(one, text)


def format_value(value: Any, lang: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return format_number(value, lang)


def language_code(code: str) -> str:
    """A BCP 47 code CLDR knows (`es`, `pt-BR`, `sr-Latn-RS`), as written; raises ValueError."""
    from babel import UnknownLocaleError

    try:
        _locale(code)
    except (ValueError, UnknownLocaleError):
        raise ValueError(f"expected a BCP 47 language code CLDR knows (en, es, pt-BR, ...), found {code!r}") from None
    return code


@lru_cache(maxsize=64)
def _locale(code: str) -> Locale:
    from babel import Locale

    if code == PSEUDO:
        return Locale("en")  # the pseudo language keeps the English formats
    if not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*", code):
        raise ValueError(code)
    return Locale.parse(code, sep="-")


def format_number(value: float, lang: str, decimals: int | None = None) -> str:
    """0.5 → '0.5' (en), '0,5' (fr, de, es); 1000 → '1,000', '1 000', '1.000': CLDR's symbols and grouping."""
    if type(value) is int and 0 <= value < 1000 and decimals is None and _plain_digits(lang):
        return str(value)  # page numbers and most counts: thousands per build, each through Babel otherwise
    if value == 0 and isinstance(value, float):  # -0.0 and 0.0 are one key to a cache, and print differently
        return _format_number.__wrapped__(value, lang, decimals)
    return _format_number(value, lang, decimals)


@lru_cache(maxsize=64)
def _plain_digits(lang: str) -> bool:
    """Whether the language writes a whole number under 1000 as Python does (ASCII digits, no sign)."""
    return _format_number(987, lang, None) == "987" and _format_number(10, lang, None) == "10"


@lru_cache(maxsize=4096, typed=True)
def _format_number(value: float, lang: str, decimals: int | None) -> str:
    from babel.numbers import format_decimal

    # Python rounds the digits (as printkit always did); CLDR only places the symbols and groups
    digits = f"{value:.{6 if decimals is None else decimals}f}"
    if decimals is None:
        digits = str(value) if isinstance(value, int) else digits.rstrip("0").rstrip(".")
    locale = _locale(lang)
    integer = locale.decimal_formats[None].pattern.split(";")[0].split(".")[0]
    places = len(digits.partition(".")[2])
    text = format_decimal(Decimal(digits), format=integer + ("." + "0" * places if places else ""), locale=locale)
    # the sheet fonts have no narrow no-break space (CLDR's French group separator)
    return text.replace("\u202f", NNBSP)


_BEFORE_HIGH = re.compile(r"(?<=[^\s\u00a0\u202f;:!?*(])[ \t]*([;!?])(?=[\s\"*)»]|$)")
_BEFORE_COLON = re.compile(r"(?<=[^\s\u00a0\u202f;:!?*(])[ \t]*(:)(?=[\s\"*)»]|$)")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
# CLDR's quotationStart/End (common/main/<lang>.xml, delimiters): Babel does not ship them. A language
# not listed inherits CLDR root's “ ”, as CLDR itself does.
_QUOTES = {"en": "“”", "fr": "«»", "de": "„“", "de-CH": "«»", "es": "«»", "it": "«»", "pt": "“”", "pt-PT": "«»",
           "pl": "„”", "nl": "‘’", "ru": "«»", "uk": "«»", "cs": "„“", "da": "“”", "sv": "””", "fi": "””",
           "nb": "«»", "ca": "«»", "hu": "„”", "ro": "„”", "tr": "“”", "ja": "「」", "zh": "“”"}
_FRENCH = "fr"  # the rule CLDR lacks: no-break spaces before ;:!? and inside « »


def quotes(lang: str) -> tuple[str, str]:
    """A language's opening and closing quotation marks (the region's own first: de-CH, pt-PT)."""
    base = lang.split("-")[0]
    marks = next((_QUOTES[k] for k in (lang, f"{base}-{lang.split('-')[-1]}", base) if k in _QUOTES), _QUOTES["en"])
    if base == _FRENCH:
        return marks[0] + NBSP, NBSP + marks[1]
    return marks[0], marks[1]


_TOUCHED = {_FRENCH: "'\"-:;!?\u00ab\u00bb"}
_OPEN_SINGLE = re.compile(r"(?<![\w'])'(?=[\w?!])")
_CLOSE_SINGLE = re.compile(r"(?<=[\w.!?])'(?![\w])")
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
_MINUS = re.compile(r"(?<![\w/+\-])-(?=\d)")


def typography(text: str, lang: str) -> str:
    """Apply a language's typographic rules to plain text written with ASCII quotes and spaces.

    `Traitor!` between backticks is a name printed as written (a card title keeps its "!" unspaced in
    French); the backticks are dropped."""
    if "`" in text and text.count("`") % 2 == 0:
        names = text.split("`")[1::2]
        # each name stands aside as one private-use character the rules below leave alone
        held = "".join(part if i % 2 == 0 else chr(_HELD + i // 2) for i, part in enumerate(text.split("`")))
        out = _typeset(held, lang)
        for i, name in enumerate(names):
            out = out.replace(chr(_HELD + i), name)
        return out
    return _typeset(text, lang)


_HELD = 0xF0000  # Supplementary Private Use Area-A: never in content


def _typeset(text: str, lang: str) -> str:
    french = lang.split("-")[0] == _FRENCH
    if not any(c in text for c in _TOUCHED.get(_FRENCH if french else lang, "'\"-")):
        return text
    text = _APOSTROPHE.sub("\u2019", text)
    text = _OPEN_SINGLE.sub("\u2018", text)
    text = _CLOSE_SINGLE.sub("\u2019", text)
    text = _RANGE.sub("\u2013", text)  # 2-4 players: an en dash
    text = _MINUS.sub("\u2212", text)  # -1 Investigation: a minus sign
    opening, closing = quotes(lang)
    parts = text.split('"')
    # a short quoted name (a card title) is never broken across lines
    parts = [p.replace(" ", NBSP) if i % 2 and len(p) <= 30 else p for i, p in enumerate(parts)] if len(parts) % 2 else parts
    if len(parts) % 2 == 1 and len(parts) > 1:
        text = "".join(part + (opening if i % 2 == 0 else closing) if i < len(parts) - 1 else part
                       for i, part in enumerate(parts))
    if french:
        text = _BEFORE_HIGH.sub(NNBSP + r"\1", text)
        text = _BEFORE_COLON.sub(NBSP + r"\1", text)
        text = re.sub(r"\u00ab\s*", "\u00ab" + NBSP, text)
        text = re.sub(r"\s*\u00bb", NBSP + "\u00bb", text)
    return text


def _flatten(node: Any, prefix: str, out: dict[str, str], pos: dict[str, Pos], problems: list[Problem],
             at: Pos) -> None:
    """Nested catalog keys → dotted keys; `at` is where the node is, for a key without its own position."""
    for key, value in node.items():
        full = f"{prefix}{key}"
        where = node.key_pos.get(key, at) if isinstance(node, YMap) else at
        if isinstance(value, dict):
            pos[full] = where
            _flatten(value, full + ".", out, pos, problems, where)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            out[full], pos[full] = str(value), where
        else:
            problems.append(expected_found(where, "text", value))


def _catalog_files(folder: Path, lang: str) -> list[Path]:
    """`<lang>.yaml`, then `<lang>/*.yaml` in name order: a long text (a rulebook) may have its own file."""
    files = [folder / f"{lang}.yaml"] if (folder / f"{lang}.yaml").is_file() else []
    sub = folder / lang
    if sub.is_dir():
        files += sorted(p for p in sub.glob("*.yaml") if p.is_file())
    return files


def _load_dir(folder: Path, langs: list[str], shown: Any, within: Path,
              apart: tuple[str, ...] = ()) -> tuple[Catalogs, list[Problem]]:
    """Every language's catalog files in `folder`; a file reached through a link leaving `within` is refused."""
    catalogs, problems = Catalogs(), []
    unread: set[str] = set()  # languages with a file that could not be read: their missing keys would only repeat that
    for lang in langs:
        files = _catalog_files(folder, lang)
        label = shown(files[0] if files else folder / f"{lang}.yaml")
        if not files:
            problems.append(expected_found(Pos(label), f"a catalog for language {lang!r}", "no such file", raw=True))
            catalogs.texts[lang], catalogs.positions[lang] = {}, {}
            continue
        texts: dict[str, str] = {}
        positions: dict[str, Pos] = {}
        for file in files:
            if not inside(file, within):
                problems.append(expected_found(Pos(shown(file)), f"a catalog file inside {shown(within)}",
                                               "a link leaving it", raw=True))
                unread.add(lang)
                continue
            try:
                problems += _load_file(file, shown(file), texts, positions)
            except ContentError as exc:
                problems += exc.problems
                unread.add(lang)
        catalogs.texts[lang], catalogs.positions[lang] = texts, positions
        catalogs.files[lang] = Pos(label)
    problems += _missing_keys(catalogs, [lang for lang in langs if lang not in unread], apart)
    return catalogs, problems


def _load_file(file: Path, label: str, texts: dict[str, str], positions: dict[str, Pos]) -> list[Problem]:
    """One catalog file into a language's texts; a key given by two files is an error. Raises
    ContentError when the file cannot be read."""
    problems: list[Problem] = []
    raw = load_yaml(file, label)
    mine: dict[str, str] = {}
    where: dict[str, Pos] = {}
    if isinstance(raw, dict):
        _flatten(raw, "", mine, where, problems, getattr(raw, "pos", Pos(label)))
    elif raw is not None:
        problems.append(expected_found(Pos(label), "a mapping of keys", raw))
    for key, value in mine.items():
        if key in texts:
            problems.append(expected_found(where[key], f"key {key!r} once (it is also in {positions[key].path})", "a second one",
                                           raw=True))
            continue
        texts[key] = value
    positions.update({k: v for k, v in where.items() if k not in positions})
    return problems


GUIDE_APART = ("guide.",)  # a game's catalogs: the engine's guide.* keys it may give are checked by guide_problems


def _apart(key: str, apart: tuple[str, ...]) -> bool:
    """A key checked elsewhere: under one of `apart` (items.), or one of the engine's own guide keys when
    guide.* is apart; a game's own keys that happen to start with guide. are checked like any other."""
    if key.startswith(tuple(a for a in apart if a not in GUIDE_APART)):
        return True
    engine = key in _guide_keys() or key.startswith("guide.lang_")
    return any(key.startswith(a) for a in apart if a in GUIDE_APART) and engine


def _missing_keys(catalogs: Catalogs, langs: list[str], apart: tuple[str, ...]) -> list[Problem]:
    """Every language must have every key some other language has: no silent fallback. Keys starting
    with one of `apart`, and the engine's own print-guide keys a game may give, are checked elsewhere."""
    problems = []
    for lang in langs:
        file_pos = catalogs.files.get(lang)
        if file_pos is None:
            continue
        mine = catalogs.texts.get(lang, {})
        for other in langs:
            theirs = catalogs.texts.get(other, {})
            for key in sorted(k for k in theirs if k not in mine and not _apart(k, apart)):
                first = next(o for o in langs if key in catalogs.texts.get(o, {}))
                if first == other:
                    problems.append(Problem(file_pos, f"expected key {key!r} (as in {other}.yaml), found none"))
    return problems


def load_catalogs(roots: Any, game_folder: Path, langs: list[str]) -> tuple[Catalogs, list[Problem]]:
    folder = game_folder / "i18n"
    if not folder.is_dir():
        return Catalogs({lang: {} for lang in langs}, {lang: {} for lang in langs}), []
    # items.* are per-item translations: not in the content language, checked item by item (translations.py);
    # guide.* a game's own print guide, only in a language printkit has none for (guide_problems)
    catalogs, problems = _load_dir(folder, list(langs), roots.shown, game_folder, ("items.",) + GUIDE_APART)
    return catalogs, problems


def engine_catalogs() -> Catalogs:
    """The engine's own texts (print guide); a problem here is a bug, so it raises."""
    catalogs, problems = _load_dir(ENGINE_CATALOGS, list(LANGS), lambda p: f"printkit/locale/{p.name}", ENGINE_CATALOGS)
    if problems:
        raise ContentError(problems)
    return catalogs


@lru_cache(maxsize=1)
def _guide_keys() -> tuple[str, ...]:
    """The print guide's keys a language needs; the names of languages (guide.lang_*) come from CLDR."""
    return tuple(k for k in engine_catalogs().texts["en"] if k.startswith("guide.") and not k.startswith("guide.lang_"))


def guide_problems(catalogs: Catalogs, langs: list[str], at: Pos) -> list[Problem]:
    """A language printkit has no print guide for needs the game's own guide.* texts: every missing
    key named, at the language's catalog file (or at `languages:` when there is none)."""
    problems = []
    for lang in langs:
        if lang in LANGS:
            continue
        missing = [k for k in _guide_keys() if k not in catalogs.texts.get(lang, {})]
        if missing:
            problems.append(Problem(catalogs.files.get(lang, at),
                                    f"expected the print guide's texts in {lang!r} (printkit ships {', '.join(LANGS)}; "
                                    f"translate them from printkit/content/locale/en.yaml), found missing: "
                                    f"{', '.join(missing)}"))
    return problems


def with_guide(engine: Catalogs, game: Catalogs, langs: list[str]) -> Catalogs:
    """The engine's catalogs with a game's guide.* texts for the languages printkit has none for, and
    every language's name (guide.lang_<code>) that no catalog gives, from CLDR."""
    for lang in langs:
        if lang not in LANGS:
            engine.texts[lang] = {k: v for k, v in game.texts.get(lang, {}).items() if k.startswith("guide.")}
            engine.positions[lang] = {k: v for k, v in game.positions.get(lang, {}).items() if k in engine.texts[lang]}
    for lang in set(LANGS) | set(langs):
        for code in langs:
            key = f"guide.lang_{code}"
            if lang in engine.texts and key not in engine.texts[lang]:
                engine.texts[lang][key] = _locale(code).get_display_name(_locale(lang)) or code
    return engine


_ACCENTED = str.maketrans("aeiouycnAEIOUYCN", "áéíóúýçñÁÉÍÓÚÝÇÑ")
_KEPT = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\}|`[^`]*`|\*+|\n)")  # placeholders, names, markup, line breaks


def pseudo(text: str) -> str:
    """Pseudo-localised text: letters accented, 40 % longer (extra accented words at the end of each
    paragraph), placeholders, `names`, **markup** and line breaks kept."""
    paragraphs = text.split("\n\n")
    out = []
    for para in paragraphs:
        parts = _KEPT.split(para)
        body = "".join(part if _KEPT.fullmatch(part) else part.translate(_ACCENTED) for part in parts)
        letters = sum(len(part) for part in parts if not _KEPT.fullmatch(part))
        extra = -(-letters * 2 // 5)  # 40 %, rounded up
        if extra:
            words = ["ééé"[: max(1, min(3, extra))]]
            extra -= len(words[0])
            while extra > 1:
                n = min(5, extra - 1)
                words.append("ÿ" * n)
                extra -= n + 1
            body += " " + " ".join(words)
        out.append(body)
    return "\n\n".join(out)


def with_pseudo(catalogs: Catalogs, base: str) -> Catalogs:
    """The catalogs with a pseudo-language table made from the base language's."""
    if PSEUDO not in catalogs.texts and base in catalogs.texts:
        catalogs.texts[PSEUDO] = {k: pseudo(v) for k, v in catalogs.texts[base].items()}
        catalogs.positions[PSEUDO] = dict(catalogs.positions.get(base, {}))
    return catalogs
