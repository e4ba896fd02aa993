"""A game's pieces as image files: every face of every piece drawn alone on a page with 1/8 in of bleed,
by the same code as the sheets, rasterised for print services; and their Tabletop Simulator files.

    <game>/images/<component>/[<lang>/]<nnn>-<slug>-front.png   (-back.png; back.png when all share it)
    <game>/tts/...                                               (tabletop.py, when asked)
"""
from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator

from ..content import GameContent, LoadedComponent, translated
from ..draw import Face, PieceSpec, templates_for
from ..geometry import Paper
from ..write import BLEED, FacePage, Writer, face_page, image_dpi, png_bytes, rasterise
from .parts import Options, cached_pieces, is_localised, kind_of
from .sheets import Sink, draw_face

if TYPE_CHECKING:  # the table is made by the build, which knows whether it is asked for
    from .tabletop import Table


@dataclass(frozen=True)
class ExportFile:
    """One file of the images or the Tabletop Simulator export, with what the manifest says of it."""

    rel: str  # under the output folder
    data: bytes
    kind: str  # "image", "tts-sheet", "tts-image" or "tts-json"
    component: str
    lang: str | None
    items: int  # pieces printed from it (an image), or on it (a sheet, a table)
    px: tuple[int, int] | None = None
    dpi: int | None = None


@dataclass(frozen=True)
class FaceImage:
    """One face to rasterise: its file name, the pieces printed with it, and its page."""

    name: str  # "001-ada-front.png", or "back.png" for a back every piece shares
    copies: int  # pieces printed with this face
    page: FacePage


@dataclass(frozen=True)
class PieceImages:
    """A distinct piece (its copies are identical): its name and the indexes of its faces."""

    title: str  # in the language it prints in: a virtual table's nickname
    copies: int
    front: int
    back: int | None
    shape: str  # rect, square, circle, hexagon, or "cluster" for a hex board's piece
    size: tuple[float, float]


@dataclass
class ComponentFaces:
    """A component's faces in one language, drawn: one page per face of `pdf`, in the order of `faces`."""

    component: str
    lang: str | None
    tabletop: str  # parts.Kind.tabletop: "cards", "tiles", "board" or ""
    pdf: bytes = b""
    faces: list[FaceImage] = field(default_factory=list)
    pieces: list[PieceImages] = field(default_factory=list)


def slug(text: str) -> str:
    """A file-name part: ASCII, lower case, words joined by hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "piece"


def runs(specs: list[PieceSpec]) -> list[tuple[PieceSpec, int]]:
    """The distinct pieces with their copies: an item's `qty` copies are one PieceSpec, repeated."""
    out: list[tuple[PieceSpec, int]] = []
    for spec in specs:
        if out and out[-1][0] is spec:
            out[-1] = (spec, out[-1][1] + 1)
        else:
            out.append((spec, 1))
    return out


def piece_name(spec: PieceSpec, values: dict | None, fallback: str) -> str:
    if values is not None:
        found = next((values[k] for k in ("title", "name", "id", "label") if values.get(k) not in (None, "")), None)
        if found is not None:
            return str(found)
    return spec.name or fallback


def component_faces(content: GameContent, comp: LoadedComponent, lang: str | None, opts: Options,
                    sink: Sink, only: Callable[[str], bool] = lambda stem: True) -> ComponentFaces:
    """Every distinct face of a component's pieces on a page of its own, trim plus BLEED each side; `only` picks
    pieces by their file stem (`002-bob`: a preview draws one)."""
    kind = kind_of(comp.model)
    out = ComponentFaces(comp.stem, lang, kind.tabletop)
    specs = cached_pieces(content, comp, opts, lang if comp.model.per_language else None)
    if not specs:
        return out
    text_lang = lang or content.game.content_lang  # as the part: language-free pieces print in the content's
    buffer = io.BytesIO()
    w = Writer(buffer, comp.model.title, "piece images", duplex=False)
    draw = _FaceDrawer(w, text_lang, sink, templates_for(content, comp).asset)
    shared: dict[str, int] = {}  # a back every piece shares: drawn once
    for n, (spec, copies) in enumerate(runs(specs)):
        item = spec.front.item
        shown = piece_name(spec, translated(content, item, item.values, text_lang) if item else None, comp.model.title)
        stem = _stem(spec, n, comp.model.title)
        if not only(stem):
            continue
        page = face_page(spec.size, image_dpi(spec.size))
        front = draw(out, spec, spec.front, FaceImage(f"{stem}-front.png", copies, page))
        back = None
        if spec.back is not None and spec.back.shared:
            back = shared.get(spec.back.svg)
            if back is None:
                back = shared[spec.back.svg] = draw(out, spec, spec.back, FaceImage("back.png", 0, page))
            out.faces[back] = FaceImage("back.png", out.faces[back].copies + copies, page)
        elif spec.back is not None:
            back = draw(out, spec, spec.back, FaceImage(f"{stem}-back.png", copies, page))
        shape = spec.shape if isinstance(spec.shape, str) else "cluster"
        out.pieces.append(PieceImages(shown, copies, front, back, shape, spec.size))
    w.finish()
    out.pdf = buffer.getvalue()
    return out


@dataclass
class _FaceDrawer:
    """Draws faces onto pages of one writer, each page the face's FacePage."""

    w: Writer
    lang: str
    sink: Sink
    assets: Callable
    forms: dict[str, str] = field(default_factory=dict)

    def __call__(self, out: ComponentFaces, spec: PieceSpec, face: Face, image: FaceImage) -> int:
        page = image.page
        self.w.begin(Paper("piece-image", *page.size))
        draw_face(self.w, spec, face, *page.at, (BLEED, BLEED), self.lang, self.sink, self.assets, self.forms,
                  outline=False)
        self.w.end()
        out.faces.append(image)
        return len(out.faces) - 1


def piece_stems(content: GameContent, comp: LoadedComponent, opts: Options, lang: str | None) -> list[str]:
    """The file stems of a component's distinct pieces (`001-ada`), as their images are named."""
    specs = cached_pieces(content, comp, opts, lang if comp.model.per_language else None)
    return [_stem(spec, n, comp.model.title) for n, (spec, _) in enumerate(runs(specs))]


def _stem(spec: PieceSpec, n: int, title: str) -> str:
    """`<nnn>-<name>`: the item's number in its component (else the piece's), and its name as a file name."""
    item = spec.front.item
    number = item.index + 1 if item is not None else n + 1
    return f"{number:03d}-{slug(piece_name(spec, item.values if item else None, title))}"


def image_files(content: GameContent, faces: ComponentFaces,
                keep: Callable[[int, object], None] = lambda n, image: None) -> Iterator[ExportFile]:
    """The PNG of every face; `keep(index, image)` sees each rasterised image (for the Tabletop Simulator files)."""
    folder = f"{content.id}/images/{faces.component}" + (f"/{faces.lang}" if faces.lang else "")
    for n, (face, image) in enumerate(zip(faces.faces, rasterise(faces.pdf, [f.page for f in faces.faces]))):
        yield ExportFile(f"{folder}/{face.name}", png_bytes(image, face.page.dpi), "image", faces.component,
                         faces.lang, face.copies, image.size, face.page.dpi)
        keep(n, image)


def game_exports(content: GameContent, langs: list[str], opts: Options, sink: Sink, table: "Table | None",
                 progress: Callable[[str], None]) -> Iterator[ExportFile]:
    """Every piece image of a game (localised components once per language, the others once), then, given a
    tabletop.Table, its Tabletop Simulator sheets, images and saved objects."""
    for comp in content.components.values():
        if kind_of(comp.model).text_sheet:
            continue
        for lang in langs if is_localised(comp) else [None]:
            progress(f"{content.id}/images/{comp.stem}" + (f"/{lang}" if lang else ""))
            faces = component_faces(content, comp, lang, opts, sink)
            kept = table.collector(faces) if table else None
            yield from image_files(content, faces, kept.keep if kept else lambda n, image: None)
            if table and kept:
                yield from table.add(kept)
    if table:
        yield from table.saved_objects(langs)
