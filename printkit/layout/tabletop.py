"""A game's pieces on a Tabletop Simulator table, from the faces rasterised for the piece images:

    <game>/tts/<component>/[<lang>/]faces-<n>.png    a deck's card sheets (the hidden card in the last cell)
                                  back.png | backs-<n>.png   its shared back, or a sheet of backs
                                  <nnn>-<slug>-front.png     a token's or a board's faces, without bleed
    <game>/tts/<game>[.<lang>].json                  the saved object: every deck, tile and board

Images are named relative to the JSON, as TTS needs them once uploaded.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator, Union

from ..content import GameContent
from ..write import fit_within, png_bytes, trimmed, tts
from .export import ComponentFaces, ExportFile

if TYPE_CHECKING:  # Pillow loads only when a build makes images (--images)
    from PIL import Image

# an object of the table, or a deck still to be numbered: given its first CustomDeck id, the deck and the ids it took
Placed = Union[dict[str, Any], Callable[[int], tuple[dict[str, Any], int]]]


@dataclass
class Collected:
    """A component's faces as a virtual table shows them: without bleed, no larger than they will be used."""

    faces: ComponentFaces
    cells: dict[int, tuple[int, int]] = field(default_factory=dict)  # a card face's cell on its sheet
    grids: list[tts.Grid] = field(default_factory=list)
    images: dict[int, Image.Image] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.faces.tabletop != "cards":
            return
        first = self.faces.faces[self.faces.pieces[0].front].page.trim_px
        card = (first[2] - first[0], first[3] - first[1])
        grids = [tts.grid_for(n, card) for n in tts.sheet_counts(len(self.faces.pieces))]
        cell = min(g.cell for g in grids)  # every card of a deck at one size, whatever its sheet
        self.grids = [tts.Grid(g.cols, g.rows, cell) for g in grids]
        for n, piece in enumerate(self.faces.pieces):
            cell = self.grids[n // tts.PER_SHEET].cell
            for face in (piece.front, piece.back):
                if face is not None:
                    self.cells.setdefault(face, cell)

    def keep(self, n: int, image: Image.Image) -> None:
        from PIL import Image

        face = trimmed(image, self.faces.faces[n].page)
        cell = self.cells.get(n)
        self.images[n] = face.resize(cell, Image.Resampling.LANCZOS) if cell else fit_within(face, tts.MAX_SHEET_PX)


class Table:
    """The Tabletop Simulator files of one game: each component's images as they come, the JSON last."""

    def __init__(self, content: GameContent):
        self.content = content
        self.objects: list[tuple[str | None, Placed, int, int]] = []  # (language, object, copies, pieces)

    def collector(self, faces: ComponentFaces) -> Collected | None:
        return Collected(faces) if faces.tabletop and faces.pieces else None

    def add(self, got: Collected) -> Iterator[ExportFile]:
        if got.faces.tabletop == "cards":
            yield from self._deck(got)
        else:
            yield from self._pieces(got)

    def _where(self, faces: ComponentFaces) -> tuple[str, str]:
        """The component's folder under the output folder, and the same relative to the JSON."""
        url = faces.component + (f"/{faces.lang}" if faces.lang else "")
        return f"{self.content.id}/tts/{url}", url

    def _title(self, faces: ComponentFaces) -> str:
        comp = self.content.components[faces.component]
        return self.content.localised(faces.lang or self.content.game.content_lang, f"kit.components.{comp.stem}",
                                      comp.model.title)

    def _file(self, rel: str, image: Image.Image, kind: str, faces: ComponentFaces, items: int) -> ExportFile:
        return ExportFile(rel, png_bytes(image, None), kind, faces.component, faces.lang, items, image.size)

    def _deck(self, got: Collected) -> Iterator[ExportFile]:
        faces, images = got.faces, got.images
        pieces = faces.pieces
        folder, url = self._where(faces)
        backs = [p.back for p in pieces]
        shared = backs[0] if backs[0] is not None and all(b == backs[0] for b in backs) else None
        hidden = images.get(backs[0]) if backs[0] is not None else None  # a back: nothing given away
        if shared is not None:
            yield self._file(f"{folder}/back.png", images[shared], "tts-sheet", faces, sum(p.copies for p in pieces))
        sheets, start = [], 0
        for k, (grid, count) in enumerate(zip(got.grids, tts.sheet_counts(len(pieces))), 1):
            chunk = pieces[start:start + count]
            start += count
            copies = sum(p.copies for p in chunk)
            yield self._file(f"{folder}/faces-{k}.png", tts.compose([images[p.front] for p in chunk], grid, hidden),
                             "tts-sheet", faces, copies)
            back_url = f"{url}/back.png"
            if shared is None:
                from PIL import Image

                blank = Image.new("RGB", grid.cell, (255, 255, 255))
                sheet = tts.compose([images[p.back] if p.back is not None else blank for p in chunk], grid, hidden)
                yield self._file(f"{folder}/backs-{k}.png", sheet, "tts-sheet", faces, copies)
                back_url = f"{url}/backs-{k}.png"
            sheets.append(tts.SheetFiles(f"{url}/faces-{k}.png", back_url, grid))
        cards = [tts.Card(p.title, p.copies) for p in pieces]
        deck = partial(tts.deck_object, self._title(faces), pieces[0].size[0], cards, sheets, shared is None)
        self.objects.append((faces.lang, lambda first: (deck(first), len(sheets)), 1, sum(p.copies for p in pieces)))

    def _pieces(self, got: Collected) -> Iterator[ExportFile]:
        """Tokens as tiles, one per copy; a board as a board, or as a tile when it has a back."""
        faces = got.faces
        folder, url = self._where(faces)
        written: set[int] = set()
        for piece in faces.pieces:
            for face in (piece.front, piece.back):
                if face is not None and face not in written:
                    written.add(face)
                    yield self._file(f"{folder}/{faces.faces[face].name}", got.images[face], "tts-image", faces,
                                     faces.faces[face].copies)
            front = f"{url}/{faces.faces[piece.front].name}"
            back = f"{url}/{faces.faces[piece.back].name}" if piece.back is not None else None
            if faces.tabletop == "board" and back is None:
                obj = tts.board_object(piece.title, front)
            else:
                obj = tts.tile_object(piece.title, piece.shape, piece.size[0], front, back)
            self.objects.append((faces.lang, obj, piece.copies, piece.copies))

    def saved_objects(self, langs: list[str]) -> Iterator[ExportFile]:
        """One saved object per language when some pieces print per language (the others in each), else one."""
        if not self.objects:
            return
        gid = self.content.id
        localised = any(entry[0] for entry in self.objects)
        for lang in langs if localised else [None]:
            chosen, deck_id, pieces = [], 1, 0  # CustomDeck ids numbered within each file
            for at, obj, copies, count in self.objects:
                if at in (None, lang):
                    if callable(obj):
                        obj, used = obj(deck_id)
                        deck_id += used
                    chosen.append((obj, copies))
                    pieces += count
            name = self.content.title_in(lang or self.content.game.content_lang)
            body = json.dumps(tts.saved_object(name, chosen), indent=2, ensure_ascii=False) + "\n"
            rel = f"{gid}/tts/{gid}.{lang}.json" if lang else f"{gid}/tts/{gid}.json"
            yield ExportFile(rel, body.encode("utf-8"), "tts-json", "tabletop", lang, pieces)
