"""Tabletop Simulator: card sheets and the saved-object JSON that names them.

A deck is one or more sheets of card faces in a grid (at most 10 x 7, at most 4096 px a side), the
image TTS shows for a hidden card in the grid's last cell; its back is one image when every card shares
it, else a sheet of backs laid out like the faces (`UniqueBack`). The JSON is TTS's saved-object format:
`ObjectStates` holding `DeckCustom` (or `CardCustom`), `Custom_Tile` and `Custom_Board` objects whose
image URLs are file names relative to the JSON, to be replaced by the URLs the images are uploaded to.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Pillow loads only when a build makes Tabletop Simulator sheets (--images)
    from PIL import Image

MAX_COLS, MAX_ROWS = 10, 7  # the largest grid TTS cuts a sheet into
MIN_COLS = MIN_ROWS = 2  # TTS's deck dialog takes no fewer
MAX_SHEET_PX = 4096  # larger textures are downsized by TTS, and refused by some graphics cards
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # card faces on a full sheet: its last cell is the hidden card
POKER_WIDTH = 63.5  # mm: a card of this width is TTS's card at scale 1
TILE_TYPES = {"rect": 0, "square": 0, "hexagon": 1, "circle": 2}  # TTS's CustomTile.Type: box, hex, circle
ROW = 8  # objects laid out this many to a row on the table


@dataclass(frozen=True)
class Grid:
    """A sheet's cells: columns, rows and the pixels of one cell."""

    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def slots(self) -> int:
        return self.cols * self.rows

    @property
    def px(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]

    def origin(self, slot: int) -> tuple[int, int]:
        """Top left of a cell: TTS numbers cells left to right, then top to bottom."""
        return slot % self.cols * self.cell[0], slot // self.cols * self.cell[1]


def sheet_counts(faces: int) -> list[int]:
    """How many card faces each sheet of a deck holds: full sheets of PER_SHEET, then the rest."""
    return [min(PER_SHEET, faces - start) for start in range(0, faces, PER_SHEET)] or [0]


def grid_for(faces: int, card: tuple[int, int]) -> Grid:
    """The smallest grid for `faces` cards and the hidden one, its cells as large as MAX_SHEET_PX allows and
    never larger than the card's own pixels, in the card's proportions."""
    rows = max(MIN_ROWS, math.ceil((faces + 1) / MAX_COLS))
    cols = max(MIN_COLS, math.ceil((faces + 1) / rows))
    w, h = card
    cell_w = max(1, min(w, MAX_SHEET_PX // cols, math.floor(MAX_SHEET_PX // rows * w / h)))
    cell_h = max(1, min(MAX_SHEET_PX // rows, round(cell_w * h / w)))
    return Grid(cols, rows, (cell_w, cell_h))


def to_cell(image: Image.Image, grid: Grid) -> Image.Image:
    """A card image scaled to the grid's cell."""
    if image.size == grid.cell:
        return image
    from PIL import Image

    return image.convert("RGB").resize(grid.cell, Image.Resampling.LANCZOS)


def compose(images: list[Image.Image], grid: Grid, hidden: Image.Image | None) -> Image.Image:
    """A sheet: the images in the first cells, `hidden` in the last; empty cells white."""
    from PIL import Image

    sheet = Image.new("RGB", grid.px, (255, 255, 255))
    for slot, image in enumerate(images):
        sheet.paste(to_cell(image, grid), grid.origin(slot))
    if hidden is not None:
        sheet.paste(to_cell(hidden, grid), grid.origin(grid.slots - 1))
    return sheet


@dataclass(frozen=True)
class Card:
    """One card face of a deck and the number of cards printed with it."""

    nickname: str
    copies: int


@dataclass(frozen=True)
class SheetFiles:
    """One sheet of a deck as the JSON names it."""

    face_url: str
    back_url: str
    grid: Grid


def transform(x: float, z: float, scale: float = 1.0, face_down: bool = False, y: float = 1.0) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": round(y, 3), "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def deck_object(title: str, width_mm: float, cards: list[Card], sheets: list[SheetFiles], unique_back: bool,
                first_id: int) -> dict[str, Any]:
    """A DeckCustom of every card (copies included), face down; a single card is a CardCustom. Sheet k of the
    deck is CustomDeck `first_id + k`, and a card's CardID is that id x 100 + its cell."""
    scale = width_mm / POKER_WIDTH
    where = transform(0, 0, scale, face_down=True)
    entries = {str(first_id + k): {"FaceURL": s.face_url, "BackURL": s.back_url, "NumWidth": s.grid.cols,
                                   "NumHeight": s.grid.rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
               for k, s in enumerate(sheets)}
    contained, ids = [], []
    for n, card in enumerate(cards):
        deck_id = first_id + n // PER_SHEET
        card_id = deck_id * 100 + n % PER_SHEET
        for _ in range(card.copies):
            ids.append(card_id)
            contained.append({"Name": "Card", "Nickname": card.nickname, "CardID": card_id,
                              "CustomDeck": {str(deck_id): entries[str(deck_id)]}, "Transform": where})
    if len(contained) == 1:
        return {**contained[0], "Name": "CardCustom"}
    return {"Name": "DeckCustom", "Nickname": title, "Transform": where, "DeckIDs": ids, "CustomDeck": entries,
            "ContainedObjects": contained}


def tile_object(nickname: str, shape: str, width_mm: float, front_url: str, back_url: str | None) -> dict[str, Any]:
    """A Custom_Tile of a token (box, hex or circle); both faces when it has a back."""
    return {"Name": "Custom_Tile", "Nickname": nickname, "Transform": transform(0, 0, width_mm / POKER_WIDTH),
            "CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": back_url or front_url, "ImageScalar": 1.0,
                            "WidthScale": 0.0, "CustomTile": {"Type": TILE_TYPES.get(shape, 0), "Thickness": 0.2,
                                                              "Stackable": True, "Stretch": True}}}


def board_object(nickname: str, front_url: str) -> dict[str, Any]:
    return {"Name": "Custom_Board", "Nickname": nickname, "Transform": transform(0, 0),
            "CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}}


def placed(objects: list[tuple[dict[str, Any], int]]) -> list[dict[str, Any]]:
    """The objects laid out on the table in rows (copies of a tile stacked on one place), decks face down."""
    out = []
    for n, (obj, copies) in enumerate(objects):
        x, z = (n % ROW - (ROW - 1) / 2) * 4.0, 6.0 - n // ROW * 6.0
        for k in range(copies):
            where = {**obj["Transform"], "posX": x, "posZ": z, "posY": round(1.0 + 0.25 * k, 3)}
            out.append({**obj, "Transform": where})
    return out


def saved_object(name: str, objects: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    """TTS's saved-object file: the objects (each with its number of copies), laid out."""
    return {"SaveName": name, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": placed(objects), "TabStates": {}, "VersionNumber": ""}
