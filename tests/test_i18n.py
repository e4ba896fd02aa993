"""Language-aware typography and numbers, done by the engine."""
from printkit.content.i18n import NBSP, NNBSP, fill, format_number, typography


def test_french_spaces_before_high_punctuation_and_inside_guillemets():
    out = typography('Attention: jouez! Vraiment? Oui; "bien"', "fr")
    assert out == f"Attention{NBSP}: jouez{NNBSP}! Vraiment{NNBSP}? Oui{NNBSP}; «{NBSP}bien{NBSP}»"


def test_french_leaves_times_and_urls_alone():
    assert typography("à 10:30, voir http://x.fr", "fr") == "à 10:30, voir http://x.fr"


def test_german_and_english_quotes_and_apostrophes():
    assert typography('Er sagt "Hallo".', "de") == "Er sagt \u201eHallo\u201c."
    assert typography('Don\'t say "no".', "en") == "Don\u2019t say \u201cno\u201d."


def test_numbers_follow_the_language():
    assert format_number(0.5, "en") == "0.5"
    assert format_number(0.5, "fr") == "0,5"
    assert format_number(0.5, "de") == "0,5"
    assert format_number(1000, "de") == "1.000"
    assert format_number(1000, "fr") == f"1{NNBSP}000"
    assert NNBSP == NBSP  # the narrow one is missing from the shipped fonts


def test_numbers_are_formatted_alike_whether_remembered_or_not():
    # whole numbers under 1000 skip Babel, others are remembered per value: -0.0 is not 0.0's entry
    assert [format_number(v, "en") for v in (0.0, -0.0, 0.0, -0.0)] == ["0", "-0", "0", "-0"]
    assert format_number(-0.0, "fr", 2) == "-0,00" and format_number(0.0, "fr", 2) == "0,00"
    assert [format_number(v, "de") for v in (7, 999, 1000, -3, 2.5)] == ["7", "999", "1.000", "-3", "2,5"]


def test_placeholders_are_filled_with_formatted_values():
    assert fill("{half} point, limite {hand_limit}", "fr", {"half": 0.5, "hand_limit": 5}) == "0,5 point, limite 5"
    assert fill("{unknown} stays", "en", {}) == "{unknown} stays"


def test_ranges_get_en_dashes_and_negative_numbers_minus_signs():
    assert typography("2-4 players, -1 Investigation, +/-1, Nexus-6", "en") == \
        "2\u20134 players, \u22121 Investigation, +/-1, Nexus-6"


def test_a_name_between_backticks_is_printed_as_written():
    assert typography('Jouez `Traitor!` : "vite"!', "fr") == f"Jouez Traitor!{NBSP}: «{NBSP}vite{NBSP}»{NNBSP}!"
    assert typography('Spielt `Traitor!` "jetzt"', "de") == "Spielt Traitor! „jetzt“"
    assert typography("one ` tick!", "fr") == f"one ` tick{NNBSP}!"  # unpaired: plain text


def test_the_german_guide_speaks_in_one_register():
    """Instructions in the infinitive, never du/ihr (games' own texts may use Sie): one register in every kit."""
    import re
    from printkit.content.i18n import engine_catalogs

    texts = engine_catalogs().texts["de"]
    informal = re.compile(r"\b(du|dich|dir|dein\w*|ihr|euch|euer\w*)\b", re.IGNORECASE)
    imperative = re.compile(r"\b(drucke|prüfe|schneide|lege|klebe|falte)\b")
    found = {k: v for k, v in texts.items() if informal.search(v) or imperative.search(v)}
    assert found == {}
