"""A designer's own game, made the way they make one: a deck from their spreadsheet (their headers, a cell
over two lines, a Copies column, saved by Excel with a byte-order mark), a PNG illustration, a TTF font from
the game's folder, Spanish rules and inline icons. It builds, and the PDF shows each of them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import fontpkg
import pymupdf as fitz
import pytest
from PIL import Image

from printkit.build import Settings, build
from printkit.content.paths import Roots
from printkit.draw import text

MM = 25.4 / 72  # mm per PDF point
ART_PX = 600  # the illustration's pixels, printed 30 mm wide: 508 dpi

GAME = """id: fiesta
title: "Fiesta"
credits: "Un juego de prueba."
players: "2-5"
languages: [es]
content_lang: es
fonts:
  - {family: "Fiesta Display", file: fonts/Display.ttf}
components: [cartas, reglas]
"""
DECK = """kind: deck
title: Cartas
size: poker
front: carta.svg.j2
back: card-back.svg.j2
fields:
  text: {type: text}
cards:
  file: cartas.csv
  columns: {"Nombre de la carta": title, "Texto": text, "Copias": qty}
"""
# the designer's own headers and a column of notes printkit ignores; a quoted cell with a comma and a line break
CSV = ("Nombre de la carta,Texto,Copias,Notas\r\n"
       'Piñata,"Paga 2 :moneda: y roba, luego juega.",3,probar\r\n'
       'Mariachi,"Todos roban una carta.\nDespués, descarta una.",2,\r\n'
       "Sombrero,Gana 1 :moneda:.,,nueva\r\n")
FRONT = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">
  <rect x="-{{ bleed }}" y="-{{ bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#fff3e0"/>
  <text x="6" y="12" font-family="Fiesta Display" font-size="14pt" data-w="{{ w - 12 }}" data-field="title">{{ card.title }}</text>
  <image href="art/sol.png" x="{{ (w - 30) / 2 }}" y="16" width="30" height="30"/>
  <text x="6" y="54" font-size="10pt" data-w="{{ w - 12 }}" data-h="28" data-min="7" data-field="text">{{ card.text }}</text>
</svg>
"""
COIN = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="5" fill="#e0a000"/></svg>')
RULES = """kind: sheet
title: Reglas
catalog: reglas
blocks:
  - {style: title, key: title}
  - {style: p, key: intro}
  - {style: h2, key: turn.h}
  - {style: bullets, keys: [turn.play, turn.pay]}
"""
CATALOG = """reglas:
  title: "Reglas de Fiesta"
  intro: "Gana quien tenga más monedas cuando se acabe el mazo: el "Sombrero" cuenta 1,5 puntos."
  turn:
    h: "Tu turno"
    play: "Juega una carta y haz lo que dice."
    pay: "Paga con las monedas :moneda: de tu reserva."
"""


@pytest.fixture(scope="module")
def fiesta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fiesta")
    game = root / "content" / "fiesta"
    (game / "fonts").mkdir(parents=True)
    (game / "i18n").mkdir()
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "cartas.yaml").write_text(DECK, encoding="utf-8")
    (game / "cartas.csv").write_bytes(b"\xef\xbb\xbf" + CSV.encode("utf-8"))  # as Excel saves "CSV UTF-8"
    (game / "reglas.yaml").write_text(RULES, encoding="utf-8")
    (game / "i18n" / "es.yaml").write_text(CATALOG.replace('el "Sombrero"', 'el \\"Sombrero\\"'), encoding="utf-8")
    shutil.copy(fontpkg.path("barlow", 100, "normal"), game / "fonts" / "Display.ttf")
    templates = root / "templates" / "fiesta"
    (templates / "art").mkdir(parents=True)
    (templates / "icons").mkdir()
    (templates / "carta.svg.j2").write_text(FRONT, encoding="utf-8")
    (templates / "icons" / "moneda.svg").write_text(COIN, encoding="utf-8")
    sun = Image.new("RGB", (ART_PX, ART_PX), (255, 160, 0))
    sun.paste((200, 40, 0), (150, 150, 450, 450))
    sun.save(templates / "art" / "sol.png")
    out = root / "out"
    try:
        build(Settings(roots=Roots.default(root / "content", root / "templates"), out=out, papers=("a4",),
                       gutterfold=False, poster=False), ["fiesta"])
    finally:
        text.forget_game_fonts()
    return out


def front_pages(pdf: Path) -> list[fitz.Page]:
    doc = fitz.open(str(pdf))
    return [page for page in doc if "Piñata" in page.get_text() or "Mariachi" in page.get_text()
            or "Sombrero" in page.get_text()]


def test_the_spreadsheet_gives_every_card_its_copies(fiesta):
    pdf = fiesta / "fiesta" / "a4" / "cartas.pdf"
    words = [w[4] for page in fitz.open(str(pdf)) for w in page.get_text("words")]
    assert (words.count("Piñata"), words.count("Mariachi"), words.count("Sombrero")) == (3, 2, 1)
    manifest = json.loads((fiesta / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert next(f for f in manifest if f["path"] == "fiesta/a4/cartas.pdf")["items"] == 6
    # the cell over two lines keeps its line break: two lines of text, "Después," starting the second
    page = next(p for p in fitz.open(str(pdf)) if "Mariachi" in p.get_text())
    todos = next(w for w in page.get_text("words") if w[4] == "Todos")
    despues = next(w for w in page.get_text("words") if w[4] == "Después,")
    assert despues[1] > todos[1] + 5 and despues[0] == pytest.approx(todos[0], abs=0.5)


def test_the_games_own_font_is_embedded_and_names_the_titles(fiesta):
    pdf = fiesta / "fiesta" / "a4" / "cartas.pdf"
    doc = fitz.open(str(pdf))
    fonts = {f[3]: f for page in doc for f in page.get_fonts(full=True)}
    thin = [name for name in fonts if name.split("+")[-1] == "Barlow-Thin"]
    assert thin and all("+" in name for name in thin)  # embedded as a subset
    assert all(fonts[name][1] == "ttf" for name in thin)
    spans = [s for page in doc for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
             for s in line["spans"] if s["text"] == "Piñata"]
    assert spans and all(s["font"].endswith("Barlow-Thin") for s in spans)


def test_the_png_prints_once_per_file_at_its_resolution(fiesta):
    pdf = fiesta / "fiesta" / "a4" / "cartas.pdf"
    doc = fitz.open(str(pdf))
    xrefs = {img[0] for page in doc for img in page.get_images(full=True) if img[2] == ART_PX}
    assert len(xrefs) == 1  # embedded once, drawn on every front
    placed = [i for page in doc for i in page.get_image_info(xrefs=True) if i["xref"] in xrefs]
    assert len(placed) == 6
    for info in placed:
        width_mm = fitz.Rect(info["bbox"]).width * MM
        assert width_mm == pytest.approx(30, abs=0.1)
        assert ART_PX / (width_mm / 25.4) == pytest.approx(508, abs=2)


def test_an_icon_is_drawn_inside_its_line_of_text(fiesta):
    pdf = fiesta / "fiesta" / "a4" / "cartas.pdf"
    page = next(p for p in fitz.open(str(pdf)) if "Piñata" in p.get_text())
    words = page.get_text("words")
    paga = next(w for w in words if w[4] == "Paga")
    dos = next(w for w in words if w[4] == "2" and abs(w[3] - paga[3]) < 0.5 and w[0] > paga[0])
    y_ = next(w for w in words if w[4] == "y" and abs(w[3] - paga[3]) < 0.5 and w[0] > dos[0])
    coin_fill = (224 / 255, 160 / 255, 0.0)  # the SVG icon is drawn as vectors: found among the page's drawings
    coins = [d["rect"] for d in page.get_drawings()
             if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], coin_fill))]
    between = [c for c in coins if dos[2] < c.x0 < c.x1 < y_[0] and paga[1] - 1 < c.y0 and c.y1 < paga[3] + 1]
    assert len(between) == 1  # the coin stands between "2" and "y", on that line


def test_the_rules_print_in_spanish_with_spanish_typography(fiesta):
    kit = fiesta / "fiesta" / "a4" / "fiesta-kit.es.pdf"
    body = "".join(page.get_text() for page in fitz.open(str(kit)))
    assert "Reglas de Fiesta" in body and "Tu turno" in body
    assert "«Sombrero»" in body  # CLDR's Spanish quotes
    assert "Guía de impresión" in body  # printkit's guide, in Spanish
    # the deck prints in no language of its own: its file's sheet labels are in the game's language
    deck = "".join(page.get_text() for page in fitz.open(str(fiesta / "fiesta" / "a4" / "cartas.pdf")))
    assert "Regla: imprimir al 100 %" in deck and "hoja 1 de 1" in deck and "Ruler" not in deck


def test_an_icon_in_the_rules_is_drawn_inside_its_line(fiesta):
    kit = fitz.open(str(fiesta / "fiesta" / "a4" / "fiesta-kit.es.pdf"))
    page = next(p for p in kit if "Tu turno" in p.get_text())
    words = page.get_text("words")
    monedas, de = next((m, d) for m in words if m[4] == "monedas" for d in words
                       if d[4] == "de" and abs(d[3] - m[3]) < 0.5 and d[0] > m[0])  # "Paga con las monedas :moneda: de"
    coin_fill = (224 / 255, 160 / 255, 0.0)
    coins = [d["rect"] for d in page.get_drawings()
             if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], coin_fill))]
    between = [c for c in coins if monedas[2] < c.x0 < c.x1 < de[0] and monedas[1] - 1 < c.y0 and c.y1 < monedas[3] + 1]
    assert len(between) == 1  # the coin stands between "monedas" and "de", on their line
    assert ":moneda:" not in page.get_text()
