"""Replicants review fixes, measured in the written PDFs: player colours that stay apart for colour-blind
players (rendered pixels, simulated with Machado et al. 2009), the players' shapes, the one front symbol,
the soul reference sheet, the energy bar without 8, the rulebook's own words (designed content, kit
rulings, typos, one name per action, figure references that follow the layout), and the kit's own design
rules broken on purpose with their exact errors."""
from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pymupdf as fitz
import pytest
import yaml

from conftest import game_copy
from pdfcheck import PT, text
from printkit.build import Settings, build
from printkit.content.paths import Roots
from test_errors import problems

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "content" / "replicants"
LANGS = ("fr", "en", "de")
PAPERS = ("a4", "letter")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replicants-fixes")
    build(Settings(roots=Roots.default(), out=folder, poster=False), ["replicants"])
    return folder / "replicants"


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    return game_copy(tmp_path, "replicants")


def page_texts(path: Path) -> list[str]:
    with fitz.open(path) as doc:
        return [page.get_text() for page in doc]


def flat(s: str) -> str:
    """Text with its line breaks and hyphen breaks undone, spaces of every kind made plain."""
    s = re.sub(r"-\n(?=[a-zäöüß])", "", s).replace("\u2019", "'")
    return re.sub(r"[\s\u00a0\u202f]+", " ", s)


def line_col(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


# ---- colour vision: an implementation of its own, not printkit's ------------------------------------------
# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear sRGB; CIEDE2000 (Sharma et al. 2005).
MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
# Why 20: two prints of one solid ink may differ by about 5 (the ISO 12647-2 tolerance for solids); the
# old red and green were 6.6 apart for a deuteranope, i.e. within what a printer varies. Four times the
# tolerance cannot be mistaken for print variation, and is well past "just noticeable" (about 1-2).
MIN_DELTA_E = 20.0
OLD_PALETTE = {"red": "#c62828", "blue": "#1e5bb8", "green": "#2e7d32", "yellow": "#f2b705"}


def to_lab(rgb: tuple[int, int, int], vision: str | None) -> np.ndarray:
    c = np.array(rgb, dtype=float) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    if vision:
        lin = np.clip(np.array(MACHADO[vision]) @ lin, 0, 1)
    xyz = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                    [0.0193339, 0.1191920, 0.9503041]]) @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c7 = ((math.hypot(a1, b1) + math.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_hh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    lm, cm = (l1 + l2) / 2, (c1 + c2) / 2
    hm = h1 + h2 if c1 * c2 == 0 else (h1 + h2) / 2 if abs(h1 - h2) <= 180 else \
        (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cm, 1 + 0.015 * cm * t
    rt = -2 * math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)) * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2))))
    return math.sqrt(((l2 - l1) / sl) ** 2 + ((c2 - c1) / sc) ** 2 + (d_hh / sh) ** 2 + rt * (c2 - c1) / sc * d_hh / sh)


def closest(colours: list[tuple[int, int, int]]) -> dict[str, float]:
    """For normal vision and each simulated deficiency: the smallest difference between two colours."""
    out = {}
    for vision in (None, *MACHADO):
        labs = [to_lab(c, vision) for c in colours]
        out[vision or "normal"] = min(ciede2000(a, b) for a, b in itertools.combinations(labs, 2))
    return out


def hex_rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def pixels(page: fitz.Page, dpi: int = 100) -> np.ndarray:
    pix = page.get_pixmap(dpi=dpi)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]


def soul_faces(path: Path) -> list[tuple[int, int, int]]:
    """Each soul's face colour, in print order: the pixel 12 mm left of the token's centre (outside its diagram)."""
    faces = []
    with fitz.open(path) as doc:
        for page in doc:
            img, scale = pixels(page), 100 / 72
            cuts = [d["rect"] for d in page.get_drawings() if d.get("color") is not None
                    and abs(d["rect"].width * PT - 30.022) < 0.1 and abs(d["rect"].height * PT - 26) < 0.1]
            for r in sorted(cuts, key=lambda r: (round(r.y0), r.x0)):
                x, y = (r.x0 + r.x1) / 2 - 12 / PT, (r.y0 + r.y1) / 2
                patch = img[int(y * scale) - 1:int(y * scale) + 2, int(x * scale) - 1:int(x * scale) + 2].reshape(-1, 3)
                faces.append(Counter(map(tuple, patch)).most_common(1)[0][0])
    return faces


def player_colours(page: fitz.Page) -> list[tuple[int, int, int]]:
    """The saturated colours that cover at least 0.1 % of a page: the players' fills on a diagram."""
    img = pixels(page).reshape(-1, 3)
    counts = Counter(map(tuple, img))
    return [c for c, n in counts.items() if n > 0.001 * len(img) and max(c) - min(c) > 40]


def test_the_measure_fails_the_old_red_and_green():
    found = closest([hex_rgb(v) for v in OLD_PALETTE.values()])
    assert found["deuteranopia"] < MIN_DELTA_E and found["normal"] > MIN_DELTA_E


@pytest.mark.parametrize("paper", PAPERS)
def test_player_colours_stay_apart_for_colour_blind_players(out, paper):
    souls = yaml.safe_load((GAME / "souls.yaml").read_text())["items"]
    colours = [it["colour"] for it in souls for _ in range(it.get("qty", 1))]
    faces = soul_faces(out / paper / "souls.pdf")
    assert len(faces) == 60
    by_colour: dict[str, set] = {}
    for name, face in zip(colours, faces):
        by_colour.setdefault(name, set()).add(face)
    assert all(len(v) == 1 for v in by_colour.values()), by_colour  # every soul of a colour has one face
    worst = closest([next(iter(v)) for v in by_colour.values()])
    assert min(worst.values()) >= MIN_DELTA_E, worst
    layouts = yaml.safe_load((GAME / "arena.yaml").read_text())["layouts"]
    with fitz.open(out / paper / "arena.en.pdf") as doc:
        diagrams = [p for p in doc if re.search(r"^[234] players$", p.get_text(), re.M)]
        assert len(diagrams) == len(layouts)
        for page, layout in zip(diagrams, layouts):
            seen = player_colours(page)
            assert len(seen) == layout["players"]
            worst = closest(seen)
            assert min(worst.values()) >= MIN_DELTA_E, worst


# ---- shapes and the front symbol -------------------------------------------------------------------------
def white_paths(page: fitz.Page) -> list[dict]:
    return [d for d in page.get_drawings() if d.get("fill") and all(abs(c - 1) < 1e-3 for c in d["fill"])]


def triangle(d: dict) -> tuple[float, float] | None:
    """A white triangle's base (its longest side) and height, mm."""
    if [i[0] for i in d["items"]] != ["l", "l", "l"]:
        return None
    pts = [(i[1].x * PT, i[1].y * PT) for i in d["items"]]
    sides = [(math.dist(pts[k], pts[(k + 1) % 3]), k) for k in range(3)]
    base, k = max(sides)
    a, b, apex = pts[k], pts[(k + 1) % 3], pts[(k + 2) % 3]
    area = abs((b[0] - a[0]) * (apex[1] - a[1]) - (b[1] - a[1]) * (apex[0] - a[0])) / 2
    return base, 2 * area / base


NOTCH = 0.6 / 0.17  # the front notch: 0.6 of the hex size wide, 0.17 deep, whatever its size and turn


def notches(page: fitz.Page) -> list[tuple[float, float]]:
    found = [triangle(d) for d in white_paths(page)]
    return [t for t in found if t and t[0] / t[1] > 1.6]  # a player's triangle is about as high as wide


def big_shapes(page: fitz.Page, least: float, most: float) -> int:
    """White shapes (circle, square, triangle, diamond) between least and most mm across, notches aside."""
    n = 0
    for d in white_paths(page):
        t = triangle(d)
        if t and t[0] / t[1] > 1.6:
            continue
        size = max(d["rect"].width, d["rect"].height) * PT
        n += least <= size <= most
    return n


@pytest.mark.parametrize("paper", PAPERS)
def test_souls_carry_the_notch_and_two_large_player_shapes(out, paper):
    with fitz.open(out / paper / "souls.pdf") as doc:
        found = [t for page in doc for t in notches(page)]
        shapes = sum(big_shapes(page, 4.3, 8.0) for page in doc)
    assert len(found) == 60 and all(abs(b / h - NOTCH) < 0.1 for b, h in found)
    assert shapes == 2 * 60


LEGEND = {
    "fr": ("joueurs", "Règle du kit : l'encoche marque l'avant du Replicant ; tournez chaque pièce pour que son encoche pointe "
                      "comme ici : vers le centre de l'arène"),
    "en": ("players", "Kit ruling: the notch marks the Replicant's front; turn each piece so its notch points as drawn here: "
                      "towards the middle of the arena"),
    "de": ("Spieler", "Kit-Regel: Die Kerbe markiert die Vorderseite des Replicants; drehen Sie jede Figur so, dass ihre Kerbe "
                      "wie hier zeigt: zur Mitte der Arena"),
}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_diagrams_use_the_notch_and_a_shape_on_every_start(out, paper, lang):
    layouts = yaml.safe_load((GAME / "arena.yaml").read_text())["layouts"]
    players, legend = LEGEND[lang]
    with fitz.open(out / paper / f"arena.{lang}.pdf") as doc:
        diagrams = [p for p in doc if f"2 {players}" in p.get_text() or f"3 {players}" in p.get_text()
                    or f"4 {players}" in p.get_text()]
        assert len(diagrams) == len(layouts)
        for page, layout in zip(diagrams, layouts):
            starts = len(layout["starts"])
            found = notches(page)
            # every start and the legend's sample piece: the notch, and the value inside a shape of 5 mm or more
            assert len(found) == starts + 1 and all(abs(b / h - NOTCH) < 0.1 for b, h in found)
            assert big_shapes(page, 4.5, 12.0) == starts + 1
            # no other front symbol: no small white dot
            assert not [d for d in white_paths(page) if any(i[0] == "c" for i in d["items"])
                        and max(d["rect"].width, d["rect"].height) * PT < 3.0]
            words = flat(page.get_text())
            assert legend in words
            # only the kit's language
            assert [other for other, (_, text_) in LEGEND.items() if other != lang and text_ in words] == []


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_figures_and_aids_draw_the_same_notch(out, lang):
    for stem in ("rulebook", "reference", "player-aids"):
        with fitz.open(out / "a4" / f"{stem}.{lang}.pdf") as doc:
            found = [t for page in doc for t in notches(page)]
        assert found and all(abs(b / h - NOTCH) < 0.15 for b, h in found), stem


# ---- the soul reference ------------------------------------------------------------------------------------
REFERENCE = {
    "en": ("Soul patterns and setup", "Setup checklist", ["Matrix", "Replicant 2", "Replicant 7", "energy marker on 0"]),
    "fr": ("Déplacements des âmes et mise en place", "Mise en place pas à pas", ["Matrice", "Replicant 2", "Replicant 7", "sur le 0"]),
    "de": ("Bewegungsmuster der Seelen und Spielaufbau", "Spielaufbau Schritt für Schritt", ["Matrix", "Replicant 2", "Replicant 7", "auf die 0"]),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", PAPERS)
def test_the_soul_reference_is_one_page_with_every_pattern_and_the_setup(out, paper, lang):
    params = yaml.safe_load((GAME / "game.yaml").read_text())["params"]
    path = out / paper / f"reference.{lang}.pdf"
    pages = page_texts(path)
    assert len(pages) == 1
    words = flat(pages[0])
    title, checklist, names = REFERENCE[lang]
    assert title in words and checklist in words and all(n in words for n in names)
    joiner = {"en": ("each with 2 players", "each with 3 or 4"), "fr": ("chacun à 2 joueurs", "chacun à 3 ou 4"),
              "de": ("bei 2 Spielern", "bei 3 oder 4")}[lang]
    assert f"{params['hearts_2p']} {joiner[0]}" in words and f"{params['hearts_34p']} {joiner[1]}" in words
    with fitz.open(path) as doc:
        # seven patterns (the Matrix and souls 2 to 7) and the key's front symbol, each with its notch
        assert len(notches(doc[0])) == 8
    assert title in flat(text(out / paper / f"replicants-kit.{lang}.pdf"))


# ---- the energy bar ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", PAPERS)
def test_the_energy_bar_has_no_square_8(out, paper):
    with fitz.open(out / paper / "energy-bars.pdf") as doc:  # the bars' numbers, not the ruler's (12 pt)
        numbers = [s["text"].strip() for page in doc for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
                   for s in line["spans"] if s["size"] > 10 and s["text"].strip().isdigit()]
    rows = [numbers[i:i + 9] for i in range(0, len(numbers), 9)]
    assert len(rows) == 4 and all(r == ["0", "1", "2", "3", "4", "5", "6", "7", "9"] for r in rows)


# ---- the rulebook's words ----------------------------------------------------------------------------------
KIT_NOTE = {"en": ("About this kit:", "designed its own", "Kit ruling:", "Each starting Replicant faces the way its notch points"),
            "fr": ("À propos de ce kit :", "a donc conçu les siennes", "Règle du kit :",
                   "Chaque Replicant de départ est tourné du côté où pointe son encoche"),
            "de": ("Zu diesem Kit:", "eigene gestaltet", "Kit-Regel:", "Jeder Start-Replicant zeigt in die Richtung, in die seine Kerbe")}
FIXED = {
    "en": (["Replicants do not move", "It sends out", "will be overloaded", "scores 0.5 points", "During the move/create action",
            "Charge/rotate action"],
           ["Replicant do not", "It send out", "will be overload.", "0.5 point.", "Load/rotate", "During the move action"]),
    "fr": (["Quel que soit", "peu importe", "À 2 joueurs", "À 3 joueurs", "À 4 joueurs", "apporte 0,5 point"],
           ["Quelque soit", "peut importe", "A 2 joueurs", "A 3 joueurs", "A 4 joueurs"]),
    "de": (["elektrischen Lichtbögen", "bringt 0,5 Punkte", "auf einen gegnerischen Replicant bewegen",
            "Aktion „Aufladen/Drehen“", "Aktion „Bewegen/Erschaffen“", "Aktion „Aufladen“", "Energieleiste", "Ihre Gruppe",
            "Mitwirkende"],
           ["der Elektrische", "von Elektrische", "dorthin Elektrische", "0,5 Punkt.", "zubewegen", "Bewegungsaktionen",
            "anderen Replicants hinweg", "blauen Replicants", "Bewegungs-/Erschaffungsaktion", "Bewegen/Erzeugen",
            "Bewegung/Erschaffung", "Aktion „Bewegen“", "Lade-/Drehaktion", "Laden/Rotieren", "Aufladeaktion",
            "Energieanzeige", "ihre Gruppe", "Einzelspielermodus", "Credits"]),
}
POSITIONAL = {"en": ["below", "opposite", "image on the left", "image right", "(image"],
              "fr": ["ci-dessous", "ci-contre", "image de gauche", "image à droite", "avec l'image"],
              "de": ["Bild unten", "unten links", "unten rechts", "Abbildung unten", "Bild links", "Bild rechts",
                     "nebenstehend", "folgenden Bildern", "Beispiel unten", "Beispiel mit Bild"]}


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_names_the_kits_design_and_its_rulings(out, lang):
    words = flat(text(out / "a4" / f"rulebook.{lang}.pdf"))
    assert all(w in words for w in KIT_NOTE[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_source_typos_and_action_names_are_fixed(out, lang):
    present, absent = FIXED[lang]
    for stem in ("rulebook", "player-aids", "reference"):
        words = flat(text(out / "a4" / f"{stem}.{lang}.pdf"))
        assert not [w for w in absent if w in words], stem
        if stem == "rulebook":
            assert [w for w in present if w not in words] == []
    if lang == "de":  # the aids and the reference use the same names as the rulebook
        aid, ref = (flat(text(out / "a4" / f"{s}.de.pdf")) for s in ("player-aids", "reference"))
        for name in ("Aktion „Aufladen“", "Aktion „Bewegen/Erschaffen“", "Aktion „Aufladen/Drehen“", "elektrischen Lichtbögen"):
            assert name in aid
        assert "Aktion „Bewegen/Erschaffen“" in ref
        assert not re.search(r"\b(du|dein\w*|dich|dir)\b", aid + ref + flat(text(out / "a4" / "rulebook.de.pdf")))
    if lang == "en":
        assert "Charge/rotate action" in flat(text(out / "a4" / "player-aids.en.pdf"))


CAPTION = re.compile(r"(?:Fig\.|Abb\.) (\d+) –")
REFERENCE_RE = re.compile(r"(?:\bfig\.|\bfigures?|\bAbb\.|\bAbbildung)\s*((?:\d+(?:\s*(?:,|and|et|und|to|à|bis)\s*)?)+)", re.I)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("paper", PAPERS)
def test_figure_references_follow_the_layout(out, paper, lang):
    pages = [flat(p) for p in page_texts(out / paper / f"rulebook.{lang}.pdf")]
    captions: dict[int, int] = {}
    refs: dict[int, list[int]] = {}
    for number, page in enumerate(pages):
        for m in CAPTION.finditer(page):
            captions[int(m.group(1))] = number
        body = CAPTION.sub("", page)
        for m in REFERENCE_RE.finditer(body):
            nums = [int(n) for n in re.findall(r"\d+", m.group(1))]
            if re.search(r"\b(to|à|bis)\b", m.group(1)):
                nums = list(range(nums[0], nums[-1] + 1))
            for n in nums:
                refs.setdefault(n, []).append(number)
    assert sorted(captions) == list(range(1, 15)) and [captions[n] for n in sorted(captions)] == sorted(captions.values())
    for n, page in captions.items():
        # each figure is referred to by number, and stands on the page of a reference to it or the next one
        assert n in refs and any(p <= page <= p + 1 for p in refs[n]), (n, page, refs.get(n))
    words = " ".join(pages)
    assert not [w for w in POSITIONAL[lang] if w in words]


# ---- the player aids ---------------------------------------------------------------------------------------
AIDS = {
    "en": ["Triggering the end by a destruction", "0.5 points", "missing either, you cannot create",
           "An overload can end the game", "constrained by the forbidden destruction rule"],
    "fr": ["Déclencher la fin par une destruction", "0,5 point", "s'il vous manque l'un ou l'autre, vous ne pouvez pas créer",
           "Une surcharge peut déclencher la fin de partie", "contraint par la règle de la destruction interdite"],
    "de": ["Spielende durch eine Zerstörung auslösen", "0,5 Punkte", "Fehlt Ihnen eines davon, können Sie nicht erschaffen",
           "Eine Überlastung kann das Spielende auslösen", "durch die Regel der verbotenen Zerstörung eingeschränkt"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_player_aids_have_the_whole_rules(out, lang):
    words = flat(text(out / "a4" / f"player-aids.{lang}.pdf"))
    assert [w for w in AIDS[lang] if w not in words] == []


CREDITS = {"en": ("Graphics of the original edition", "designed for it anew"),
           "fr": ("Graphismes de l'édition originale", "conçus pour lui"),
           "de": ("Grafik der Originalausgabe", "neu dafür gestaltet")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_original_artists_are_credited_only_for_their_work(out, lang):
    rulebook = flat(text(out / "a4" / f"rulebook.{lang}.pdf"))
    assert all(w in rulebook for w in CREDITS[lang])
    guide = flat(page_texts(out / "a4" / f"replicants-kit.{lang}.pdf")[0])
    assert {"en": "graphics of the original edition", "fr": "graphismes de l'édition originale",
            "de": "Grafik der Originalausgabe"}[lang] in guide


# ---- the kit's design rules, broken on purpose --------------------------------------------------------------
def test_a_colour_that_colour_blind_players_confuse_is_an_error(copy):
    souls = copy / "replicants" / "souls.yaml"
    body = souls.read_text()
    old = 'green: {fill: "#4cae78"'
    assert old in body
    souls.write_text(body.replace(old, 'green: {fill: "#2e7d32"').replace('red: {fill: "#b0280f"', 'red: {fill: "#c62828"'))
    found = problems(copy, "replicants")
    line, col = line_col(souls, "red: {fill")
    assert f"content/replicants/souls.yaml:{line}:{col}: expected player colours at least 20 apart (CIEDE2000) " \
           f"in deuteranopia, found green and red 6.6 apart" in found
    arena = copy / "replicants" / "arena.yaml"
    line, col = line_col(arena, 'green: {fill: "#4cae78"')
    assert f"content/replicants/arena.yaml:{line}:{col + 14}: expected the souls' fill of green (#2e7d32), found #4cae78" in found


def test_a_matrix_that_a_turn_leaves_unchanged_is_an_error(copy):
    souls = copy / "replicants" / "souls.yaml"
    body = souls.read_text()
    old = "      walk: [[0, -1], [1, -1], [-1, 0], [0, 1]]"
    assert old in body
    souls.write_text(body.replace(old, "      walk: [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]]"))
    line, col = line_col(souls, "&matrix")
    assert f"content/replicants/souls.yaml:{line}:{col}: expected a pattern that a 60-degree turn changes (soul M: " \
           f"rotation is an action), found the same pattern after a turn" in problems(copy, "replicants")


def hex_gap(a: list[list[int]], b: list[list[int]]) -> int:
    """Least axial distance between two groups of hexes."""
    return min((abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[0] + p[1] - q[0] - q[1])) // 2 for p in a for q in b)


def test_an_unfair_opening_is_an_error(copy):
    arena = copy / "replicants" / "arena.yaml"
    body = arena.read_text()
    old = '      - {player: 1, piece: "3", at: [-4, 5]}'
    assert old in body
    arena.write_text(body.replace(old, '      - {player: 1, piece: "3", at: [-4, 4]}'))
    layout = yaml.safe_load(arena.read_text())["layouts"][2]
    group = {p: [s["at"] for s in layout["starts"] if s["player"] == p] for p in (1, 2, 3, 4)}
    gap = {(a, b): hex_gap(group[a], group[b]) for a, b in itertools.combinations((1, 2, 3, 4), 2)}
    assert gap[1, 2] != gap[2, 3]  # player 1's 3 now stands nearer player 2
    line, col = line_col(arena, "  - id: 4-players")
    at = f"content/replicants/arena.yaml:{line}:{col + 4}"
    near = ", ".join(f"{a}-{b}: {gap[a, b]}" for a, b in ((1, 2), (1, 4), (2, 3), (3, 4)))
    far = ", ".join(f"{a}-{b}: {gap[a, b]}" for a, b in ((1, 3), (2, 4)))
    expected = [f"{at}: expected the same gap between every two players 1 seat(s) apart (layout 4-players), found {near}"]
    if gap[1, 3] != gap[2, 4]:
        expected.append(f"{at}: expected the same gap between every two players 2 seat(s) apart (layout 4-players), found {far}")
    assert problems(copy, "replicants") == expected


def test_a_creation_on_a_threatened_hex_and_a_leap_past_nothing_are_errors(copy):
    sheet = copy / "replicants" / "rulebook.yaml"
    body = sheet.read_text()
    for old, new in (("created: {soul: '7', at: [0, -1]}", "created: {soul: '7', at: [1, -1]}"),
                     ("over: [[-1, -1]]", "over: [[0, 2]]")):
        assert old in body
        body = body.replace(old, new)
    sheet.write_text(body)
    found = problems(copy, "replicants")
    line, _ = line_col(sheet, "    creation:")
    assert f"content/replicants/rulebook.yaml:{line}:5: expected scene 'creation': a soul created on a free hex around " \
           f"the Matrix that no opponent threatens ([0, -1]), found soul 7 on [1, -1]" in found
    line, _ = line_col(sheet, "    soul-6-blocked:")
    assert f"content/replicants/rulebook.yaml:{line}:5: expected scene 'soul-6-blocked': over hexes the subject leaps " \
           f"to, past a Replicant next to it, found [0, 2]" in found


def test_a_square_8_on_the_energy_bar_is_an_error(copy):
    bars = copy / "replicants" / "energy-bars.yaml"
    body = bars.read_text()
    bars.write_text(body.replace("    - {value: 9}", "    - {value: 8}\n    - {value: 9}"))
    game = copy / "replicants" / "game.yaml"
    line, col = line_col(game, "expect: [0, 1, 2, 3, 4, 5, 6, 7, 9]")
    assert any(p.startswith(f"content/replicants/game.yaml:{line}:{col + 8}: expected [0, 1, 2, 3, 4, 5, 6, 7, 9]")
               for p in problems(copy, "replicants"))


SHAPE_WORDS = {"en": ({"circle": "circle", "square": "square", "triangle": "triangle", "diamond": "diamond"},
                      {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow"}),
               "fr": ({"circle": "rond", "square": "carré", "triangle": "triangle", "diamond": "losange"},
                      {"red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune"}),
               "de": ({"circle": "Kreis", "square": "Quadrat", "triangle": "Dreieck", "diamond": "Raute"},
                      {"red": "Rot", "blue": "Blau", "green": "Grün", "yellow": "Gelb"})}


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_and_guide_name_each_colours_shape_as_printed(out, lang):
    colours = yaml.safe_load((GAME / "souls.yaml").read_text())["data"]["colours"]
    shapes, names = SHAPE_WORDS[lang]
    said = [f"{shapes[spec['mark']]} {names[colour]}" for colour, spec in colours.items()]
    for path in (out / "a4" / f"rulebook.{lang}.pdf", out / "a4" / f"replicants-kit.{lang}.pdf"):
        words = flat(page_texts(path)[0] if "kit" in path.name else text(path))
        assert [s for s in said if s not in words] == [], path.name


@pytest.mark.parametrize("lang, remaining, symbols", [
    ("en", "the most points among the remaining players", ["with a green circle (fig. 7)", "with a blue circle (fig. 7)",
                                                         "with a grey bar (fig. 7)", "with a lightning bolt (fig. 7)"]),
    ("fr", "le plus de points parmi les joueurs restants", ["avec un rond vert (fig. 7)", "avec un rond bleu (fig. 7)",
                                                          "avec un trait gris (fig. 7)", "avec un éclair (fig. 7)"]),
    ("de", "den meisten Punkten unter den übrigen Spielern", ["mit einem grünen Kreis (Abb. 7)", "mit einem blauen Kreis (Abb. 7)",
                                                            "mit einem grauen Strich (Abb. 7)", "mit einem Blitz (Abb. 7)"]),
])
def test_aids_count_every_remaining_player_and_the_rulebook_names_each_symbol(out, lang, remaining, symbols):
    aids = " ".join(text(out / "a4" / f"player-aids.{lang}.pdf").split())
    assert remaining in aids
    rulebook = " ".join(text(out / "a4" / f"rulebook.{lang}.pdf").split())
    assert [s for s in symbols if s not in rulebook] == []
    assert "this symbol" not in rulebook and "ce symbole" not in rulebook and "diesem Symbol" not in rulebook
    assert "Matrixes" not in rulebook
