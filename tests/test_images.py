"""`build --images`: piece images for print services and Tabletop Simulator files, measured in the
written files with independent readers (Pillow opens the PNGs, zipfile the zip, PyMuPDF renders the PDFs)."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pymupdf as fitz
import pytest
from PIL import Image

from conftest import FIXTURES, mini_roots
from printkit.build import Settings, build
from printkit.content import Roots, load_game, translated

IMAGE_KINDS = {"image", "tts-sheet", "tts-image", "tts-json", "images-zip"}


def px(mm: float, dpi: int = 300) -> int:
    return round(mm / 25.4 * dpi)


def manifest(out: Path) -> dict[str, dict]:
    return {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["files"]}


def digests(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def titles(game: str, stem: str, lang: str | None = None) -> list[str]:
    """Every card's title, copies included, read from the content."""
    content = load_game(Roots.default(), game)
    comp = content.components[stem]
    return [translated(content, item, item.values, lang or "en")["title"] for item in comp.items for _ in range(item.qty)]


@pytest.fixture(scope="session")
def mini_images(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture game built as by default, with --images."""
    out = tmp_path_factory.mktemp("mini-images")
    build(Settings(roots=mini_roots(), out=out, images=True), ["mini"])
    return out


@pytest.fixture(scope="session")
def rep_images(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rep-Detect's parts on A4 in English and French, with --images."""
    out = tmp_path_factory.mktemp("rep-images")
    build(Settings(roots=Roots.default(), out=out, papers=("a4",), langs=("en", "fr"), kits=False, gutterfold=False,
                   poster=False, images=True), ["rep-detect"])
    return out


@pytest.fixture(scope="session")
def big_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture game with a deck of 75 different cards and a double-sided deck of 3, images only."""
    import shutil

    content = tmp_path_factory.mktemp("big-content")
    shutil.copytree(FIXTURES / "content" / "mini", content / "mini")
    cards = "\n".join(f"  - {{title: Card {n}, type: {'red' if n % 2 else 'blue'}, text: \"Card {n}.\", power: {n % 6 + 1}}}"
                      for n in range(1, 76))
    head = ("size: poker\nfront: front.svg.j2\nback: back.svg.j2\nfields:\n  type: {type: enum, values: [red, blue]}\n"
            "  text: {type: text}\n  power: {type: int}\n")
    (content / "mini" / "big.yaml").write_text(f"kind: deck\ntitle: Big deck\n{head}cards:\n{cards}\n")
    pairs = "\n".join(f"  - {{title: Pair {n}, type: red, text: \"Pair {n}.\", power: {n}}}" for n in range(1, 4))
    (content / "mini" / "pairs.yaml").write_text(f"kind: double-sided\ntitle: Pairs\n{head}cards:\n{pairs}\n")
    game = content / "mini" / "game.yaml"
    game.write_text(game.read_text().replace("components: [deck,", "components: [big, pairs, deck,"))
    out = tmp_path_factory.mktemp("big-out")
    build(Settings(roots=mini_roots(content), out=out, papers=("a4",), parts=False, kits=False, poster=False,
                   images=True), ["mini"])
    return out


def test_a_poker_card_is_825_by_1125_px_at_300_dpi_in_srgb(rep_images):
    card = rep_images / "rep-detect" / "images" / "draw-deck" / "en" / "001-not-fish-snake-scale-front.png"
    with Image.open(card) as image:
        assert image.size == (825, 1125)
        assert image.mode == "RGB"
        assert [round(d) for d in image.info["dpi"]] == [300, 300]
        assert image.info.get("srgb") == 0  # PNG's sRGB chunk, perceptual intent
        # the template's background reaches the image's edge: the whole 1/8 in bleed is painted
        corner = image.getpixel((0, 0))
    assert max(corner) < 80, corner


def test_every_face_of_the_mini_game_is_an_image_of_its_trim_plus_bleed(mini_images):
    images = mini_images / "mini" / "images"
    found = {str(p.relative_to(images)): Image.open(p).size for p in sorted(images.rglob("*.png"))}
    expected = {
        "deck/001-ada-front.png": (63.5, 88.9), "deck/002-bob-front.png": (63.5, 88.9),
        "deck/003-cy-front.png": (63.5, 88.9), "deck/back.png": (63.5, 88.9),
        "tokens/001-red-front.png": (24, 96), "tokens/002-blue-front.png": (24, 96),  # standees: tab, face, face, tab
        "discs/001-discs-front.png": (20, 20), "discs/001-discs-back.png": (20, 20),
        "discs/002-discs-front.png": (20, 20), "discs/002-discs-back.png": (20, 20),
        "hexes/001-ada-front.png": (30, 26),
        "player-board/001-player-board-front.png": (180, 120), "player-board/001-player-board-back.png": (180, 120),
        "board/001-mini-map-front.png": (300, 200),  # larger than a sheet: one image all the same
    }
    assert found == {name: (px(w + 6.35), px(h + 6.35)) for name, (w, h) in expected.items()}
    assert not list(images.rglob("sheet*")), "text sheets have no piece images"


def test_the_image_shows_what_the_pdf_prints(rep_images):
    """The centre of a card's PNG (rendered by PDFium) against the same card on the A4 part (rendered by MuPDF
    with the card's trim on the pixel grid); another card's PNG does not match."""
    from printkit.geometry import PAPERS
    from printkit.layout.impose import best_grid

    x, y = best_grid(PAPERS["a4"], 63.5, 88.9, 55).slot(0)
    scale = 300 / 72
    with fitz.open(str(rep_images / "rep-detect" / "a4" / "draw-deck.en.pdf")) as doc:
        clip = fitz.Rect(x, y, x + 63.5, y + 88.9) * (72 / 25.4)
        pix = doc[0].get_pixmap(matrix=fitz.Matrix(scale, 0, 0, scale, -clip.x0 * scale, -clip.y0 * scale), clip=clip)
        printed = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    assert printed.shape[:2] == (1050, 750)
    centre = (slice(1050 // 4, 3 * 1050 // 4), slice(750 // 4, 3 * 750 // 4))

    def difference(name: str) -> np.ndarray:
        with Image.open(rep_images / "rep-detect" / "images" / "draw-deck" / "en" / name) as im:
            trim = np.asarray(im.convert("RGB"))[37:37 + 1050, 37:37 + 750]  # 37 px of bleed left and top
        return np.abs(trim[centre].astype(int) - printed[centre].astype(int))

    same = difference("001-not-fish-snake-scale-front.png")
    assert same.mean() < 2, same.mean()
    assert (same.max(axis=2) > 60).mean() < 0.01  # anti-aliasing differs at edges; nothing is missing or moved
    other = difference("002-precious-photos-front.png")
    assert other.mean() > 3 and (other.max(axis=2) > 60).mean() > 0.015


def test_localised_pieces_have_an_image_per_language_and_the_others_one(rep_images):
    images = rep_images / "rep-detect" / "images"
    assert {p.name for p in (images / "draw-deck").iterdir()} == {"en", "fr"}
    assert (images / "draw-deck" / "fr" / "back.png").is_file()
    assert len(list((images / "draw-deck" / "en").glob("*-front.png"))) == 53  # 55 cards, two of them twice
    assert sorted(p.name for p in (images / "skill-markers").iterdir()) == [
        "001-red-front.png", "002-blue-front.png", "003-green-front.png", "004-yellow-front.png"]
    assert not list(images.rglob("rules-summary*"))


def test_the_zip_holds_every_png_in_sorted_order_with_fixed_dates(rep_images):
    images = rep_images / "rep-detect" / "images"
    with zipfile.ZipFile(images / "rep-detect-images.zip") as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert set(names) == {str(p.relative_to(images)) for p in images.rglob("*.png")}
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        first = names[0]
        assert archive.read(first) == (images / first).read_bytes()


def deck(out: Path, game: str, lang: str | None, name: str) -> dict:
    saved = json.loads((out / game / "tts" / (f"{game}.{lang}.json" if lang else f"{game}.json")).read_text())
    return next(o for o in saved["ObjectStates"] if o.get("Nickname") == name)


def test_tts_sheets_of_the_rep_detect_cards_name_all_60_cards(rep_images):
    tts = rep_images / "rep-detect" / "tts"
    draw, replicants = deck(rep_images, "rep-detect", "en", "Draw Deck"), deck(rep_images, "rep-detect", "en", "Replicants")
    assert len(draw["ContainedObjects"]) + len(replicants["ContainedObjects"]) == 60
    assert [c["Nickname"] for c in draw["ContainedObjects"]] == titles("rep-detect", "draw-deck")
    assert [c["Nickname"] for c in replicants["ContainedObjects"]] == titles("rep-detect", "replicant-deck")
    french = deck(rep_images, "rep-detect", "fr", "Pioche")
    assert [c["Nickname"] for c in french["ContainedObjects"]] == titles("rep-detect", "draw-deck", "fr")
    for obj in (draw, replicants):
        assert obj["Name"] == "DeckCustom"
        assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
        (deck_id, entry), = obj["CustomDeck"].items()
        assert all(c["CardID"] // 100 == int(deck_id) for c in obj["ContainedObjects"])
        assert entry["UniqueBack"] is False and entry["BackIsHidden"] is True
        with Image.open(tts / entry["FaceURL"]) as sheet:
            assert sheet.width <= 4096 and sheet.height <= 4096
            assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
            assert sheet.width % entry["NumWidth"] == 0 and sheet.height % entry["NumHeight"] == 0
            cell = (sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"])
            assert abs(cell[1] / cell[0] - 88.9 / 63.5) < 0.01
        assert (tts / entry["BackURL"]).is_file()
    # a card's CardID is its cell: the draw deck's 53 designs fill cells 0..52, copies share theirs
    assert sorted(set(draw["DeckIDs"])) == [100 + n for n in range(53)]


def test_the_hidden_card_is_the_back_in_the_sheets_last_cell(rep_images):
    tts = rep_images / "rep-detect" / "tts"
    entry = deck(rep_images, "rep-detect", "en", "Draw Deck")["CustomDeck"]["1"]
    with Image.open(tts / entry["FaceURL"]) as sheet, Image.open(tts / entry["BackURL"]) as back:
        cw, ch = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
        last = sheet.crop((sheet.width - cw, sheet.height - ch, sheet.width, sheet.height))
        assert back.size == (cw, ch)
        assert np.array_equal(np.asarray(last.convert("RGB")), np.asarray(back.convert("RGB")))
        first = np.asarray(sheet.crop((0, 0, cw, ch)).convert("RGB")).astype(int)
    with Image.open(rep_images / "rep-detect" / "images" / "draw-deck" / "en" / "back.png") as printed:
        trimmed = printed.convert("RGB").crop((37, 37, 37 + 750, 37 + 1050)).resize((cw, ch))
    hidden = np.asarray(last.convert("RGB")).astype(int)
    assert np.abs(hidden - np.asarray(trimmed).astype(int)).mean() < 4  # the print image's back, without its bleed
    assert np.abs(hidden - first).mean() > 20  # and not a card face


def test_tokens_and_boards_are_tiles_and_boards_on_the_table(rep_images):
    saved = json.loads((rep_images / "rep-detect" / "tts" / "rep-detect.en.json").read_text())
    tts = rep_images / "rep-detect" / "tts"
    tiles = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert sum(o["Nickname"] == "Batty" for o in tiles) == 1
    assert len(tiles) == 12 + 5  # skill markers (4 designs x 3) and replicant markers, one object a piece
    batty = next(o for o in tiles if o["Nickname"] == "Batty")["CustomImage"]
    assert batty["CustomTile"]["Type"] == 2  # a circle
    with Image.open(tts / batty["ImageURL"]) as image:
        assert image.size == (px(18), px(18))  # without bleed
    board, = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert board["CustomImage"]["ImageURL"] == "board/en/001-los-angeles-front.png"
    with Image.open(tts / board["CustomImage"]["ImageURL"]) as image:
        assert max(image.size) <= 4096


def test_a_deck_over_69_cards_splits_across_sheets(big_deck):
    tts = big_deck / "mini" / "tts"
    big = deck(big_deck, "mini", None, "Big deck")
    assert len(big["ContainedObjects"]) == 75
    assert [c["Nickname"] for c in big["ContainedObjects"]] == [f"Card {n}" for n in range(1, 76)]
    assert list(big["CustomDeck"]) == ["1", "2"]
    first, second = big["CustomDeck"]["1"], big["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert big["DeckIDs"] == [100 + n for n in range(69)] + [200 + n for n in range(6)]
    assert first["BackURL"] == second["BackURL"] == "big/back.png"
    for entry in (first, second):
        with Image.open(tts / entry["FaceURL"]) as sheet:
            assert sheet.width <= 4096 and sheet.height <= 4096
            assert sheet.width // entry["NumWidth"] <= 409
    assert sorted(p.name for p in (tts / "big").iterdir()) == ["back.png", "faces-1.png", "faces-2.png"]


def test_cards_with_their_own_backs_get_a_sheet_of_backs(big_deck):
    pairs = deck(big_deck, "mini", None, "Pairs")
    entry = pairs["CustomDeck"]["3"]  # after the big deck's two sheets
    assert entry["UniqueBack"] is True
    assert entry["BackURL"] == "pairs/backs-1.png"
    tts = big_deck / "mini" / "tts"
    with Image.open(tts / entry["FaceURL"]) as faces, Image.open(tts / entry["BackURL"]) as backs:
        assert faces.size == backs.size
    assert (big_deck / "mini" / "images" / "pairs" / "003-pair-3-back.png").is_file()


def test_two_builds_with_images_are_byte_identical(tmp_path, mini_images):
    again = tmp_path / "again"
    build(Settings(roots=mini_roots(), out=again, images=True), ["mini"])
    assert digests(again) == digests(mini_images)


def test_images_leave_the_pdfs_as_they_are(mini_build, mini_images):
    """The default build is unchanged: the same PDFs byte for byte, and no image or TTS file."""
    pdfs = {k: v for k, v in digests(mini_images).items() if k.endswith(".pdf") or k == "fit-report.md"}
    assert pdfs == {k: v for k, v in digests(mini_build).items() if k != "manifest.json" and ".printkit-" not in k}
    assert not (mini_build / "mini" / "images").exists() and not (mini_build / "mini" / "tts").exists()
    assert {k: v for k, v in manifest(mini_images).items() if k.endswith(".pdf")} == manifest(mini_build)


def test_the_manifest_lists_every_image_with_its_pixels_and_dpi(mini_images):
    files = manifest(mini_images)
    on_disk = {str(p.relative_to(mini_images)) for p in mini_images.rglob("*")
               if p.is_file() and p.name not in ("manifest.json", "fit-report.md") and not p.name.startswith(".printkit-")}
    assert set(files) == on_disk
    for path, entry in files.items():
        data = (mini_images / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        if path.endswith(".pdf"):
            assert "px" not in entry and "dpi" not in entry
            continue
        assert entry["kind"] in IMAGE_KINDS and entry["paper"] is None
        if path.endswith(".png"):
            with Image.open(mini_images / path) as image:
                assert entry["px"] == list(image.size)
                if entry["kind"] == "image":
                    assert entry["dpi"] == 300 == round(image.info["dpi"][0])
    kinds = {e["kind"] for e in files.values()}
    assert IMAGE_KINDS <= kinds
    assert files["mini/images/deck/003-cy-front.png"]["items"] == 3  # pieces printed from it
    assert files["mini/images/deck/back.png"]["items"] == 5


def test_a_board_too_large_for_12000_px_is_rendered_at_a_lower_dpi():
    from printkit.write import face_page, image_dpi

    assert image_dpi((63.5, 88.9)) == 300
    dpi = image_dpi((1200, 800))
    assert dpi < 300
    page = face_page((1200, 800), dpi)
    assert max(page.px) <= 12000 and max(page.px) > 11900


def test_the_cli_writes_images_with_the_option(tmp_path):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "printkit", "build", "mini", "--content", str(FIXTURES / "content"),
                          "--templates", str(FIXTURES / "templates"), "--out", str(out), "--paper", "a4",
                          "--no-parts", "--no-kit", "--no-poster", "--images"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (out / "mini" / "images" / "mini-images.zip").is_file()
    assert (out / "mini" / "tts" / "mini.json").is_file()


def test_tts_grids_stay_within_10_by_7_and_4096_px_with_a_cell_for_the_hidden_card():
    from printkit.write import tts

    assert tts.sheet_counts(69) == [69] and tts.sheet_counts(70) == [69, 1] and tts.sheet_counts(140) == [69, 69, 2]
    for faces in (1, 2, 5, 9, 10, 55, 69):
        grid = tts.grid_for(faces, (750, 1050))
        assert 2 <= grid.cols <= 10 and 2 <= grid.rows <= 7 and grid.slots >= faces + 1
        assert max(grid.px) <= 4096 and grid.cell[0] <= 750
    assert tts.grid_for(69, (750, 1050)).cell[0] == 409  # 10 poker cards across 4096 px


def test_a_deck_of_one_card_is_a_single_card_object():
    from printkit.write import tts

    sheet = tts.SheetFiles("x/faces-1.png", "x/back.png", tts.grid_for(1, (750, 1050)))
    card = tts.deck_object("Solo", 63.5, [tts.Card("Only", 1)], [sheet], False, 4)
    assert (card["Name"], card["Nickname"], card["CardID"]) == ("CardCustom", "Only", 400)
    assert card["CustomDeck"]["4"]["FaceURL"] == "x/faces-1.png"


def _preview(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", "preview", "mini", *args, "--out", str(out),
                           "--content", str(FIXTURES / "content"), "--templates", str(FIXTURES / "templates")],
                          capture_output=True, text=True, timeout=120)


def test_preview_writes_one_piece_as_the_images_build_draws_it(mini_images, tmp_path):
    for piece in ("deck/2", "deck/bob", "deck/002-bob"):
        result = _preview(tmp_path, piece)
        assert result.returncode == 0, result.stderr
        written = sorted(p.name for p in (tmp_path / "mini" / "preview").iterdir())
        assert written == ["deck-002-bob-front.png", "deck-back.png"]
        assert f"wrote {tmp_path}/mini/preview/deck-002-bob-front.png (825 x 1125 px, 300 dpi)" in result.stderr
    preview = tmp_path / "mini" / "preview"
    assert (preview / "deck-002-bob-front.png").read_bytes() == \
        (mini_images / "mini" / "images" / "deck" / "002-bob-front.png").read_bytes()
    assert (preview / "deck-back.png").read_bytes() == (mini_images / "mini" / "images" / "deck" / "back.png").read_bytes()
    assert not (tmp_path / "manifest.json").exists()  # a look while designing, not part of the kit


def test_preview_names_the_pieces_there_are(tmp_path):
    result = _preview(tmp_path, "deck/9")
    assert result.returncode == 2 and result.stderr.splitlines()[0] == \
        "error: expected a piece of deck (001-ada, 002-bob, 003-cy), found '9'"
    result = subprocess.run([sys.executable, "-m", "printkit", "preview", "all", "deck/1", "--out", str(tmp_path),
                             "--content", str(FIXTURES / "content"), "--templates", str(FIXTURES / "templates")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.splitlines()[0] == "error: expected one game to preview a piece of, found 'all'"
    result = _preview(tmp_path, "dek/1")
    assert result.returncode == 2 and "a component of mini with pieces (deck, tokens" in result.stderr
    assert not (tmp_path / "mini").exists()
