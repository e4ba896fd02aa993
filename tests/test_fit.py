"""Text fit across languages: the fit report of a build, and the pseudo-localisation build of every shipped game."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pdfcheck import text
from printkit.content.i18n import pseudo

POSITIONED = re.compile(r"^[^:\s]+\.yaml:\d+:\d+: ")


def test_pseudo_text_is_longer_accented_and_keeps_placeholders_markup_and_names():
    source = "Hand limit {hand_limit}. **Move**: play `Traitor!` now.\n\nSecond paragraph."
    out = pseudo(source)
    plain = "Draw as many cards as your Investigation."
    assert len(pseudo(plain)) >= 1.4 * len(plain)
    assert "{hand_limit}" in out and "**Móvé**" in out and "`Traitor!`" in out and "\n\n" in out
    assert "Háñd límít" in out and "Séçóñd" in out


def test_the_fit_report_lists_each_shrunk_text_with_its_position(repdetect_build):
    report = (repdetect_build / "fit-report.md").read_text(encoding="utf-8")
    assert re.search(r"^## en: \d+ text\(s\)$", report, re.M), report
    line = next(line for line in report.splitlines() if "And If the Machine" in line)
    assert POSITIONED.match(line) and "field title: 11 pt -> " in line, line


def test_every_shipped_game_builds_in_pseudo_localisation_or_lists_each_overflow_with_its_position(tmp_path):
    out = tmp_path / "pseudo"
    result = subprocess.run([sys.executable, "-m", "printkit", "build", "all", "--pseudo", "--paper", "a4",
                             "--no-poster", "--no-gutterfold", "--out", str(out)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert "Traceback" not in result.stderr
    if result.returncode == 0:
        kits = sorted(out.rglob("*-kit.qps.pdf"))
        assert len(kits) == 5
        assert "Rúlés" in text(out / "rep-detect" / "a4" / "rules-summary.qps.pdf")
    else:
        assert result.returncode == 2
        problems = [line for line in result.stderr.splitlines() if not line.endswith("nothing was written.")]
        assert problems and all(POSITIONED.match(line) for line in problems), problems[:5]
        # each one a text that does not fit, nothing else (a template must not fail on longer text)
        assert [line for line in problems if " to fit " not in line] == []
        assert not out.exists() or not list(out.rglob("*.pdf"))


def test_text_below_6_pt_on_a_piece_is_a_positioned_error(tmp_path):
    import shutil

    from conftest import FIXTURES
    from printkit.build import Settings, build
    from printkit.content import Roots
    from printkit.errors import ContentError

    content, templates = tmp_path / "content", tmp_path / "templates"
    shutil.copytree(FIXTURES / "content", content)
    shutil.copytree(FIXTURES / "templates", templates)
    front = templates / "mini" / "front.svg.j2"
    front.write_text(front.read_text().replace('font-size="12pt" font-weight="bold">{{ card.power }}',
                                               'font-size="5pt" font-weight="bold" data-field="power">{{ card.power }}'))
    try:
        build(Settings(roots=Roots.default(content, templates), out=tmp_path / "out", papers=("a4",), langs=("en",),
                       kits=False, poster=False, gutterfold=False), ["mini"])
    except ContentError as exc:
        found = [str(p) for p in exc.problems]
    else:
        found = []
    deck = (content / "mini" / "deck.yaml").read_text().splitlines()
    ada = next(i for i, line in enumerate(deck, 1) if "title: Ada" in line)
    assert f"content/mini/deck.yaml:{ada}:{deck[ada - 1].index('power') + 1 + 7}: expected text of at least 6 pt, " \
           f"found '3' at 5.0 pt (deck 'Ada', field power)" in found
    assert all("at least 6 pt" in p for p in found) and len(found) == 3  # Ada, Bob and Cy
