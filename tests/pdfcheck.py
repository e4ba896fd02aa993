"""Measurements taken from written PDFs with independent readers, never from printkit's own numbers."""
from __future__ import annotations

from pathlib import Path

import pymupdf as fitz
import pdfplumber
from pypdf import PdfReader

PT = 25.4 / 72  # mm per point
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a2": (420.0, 594.0), "a1": (594.0, 841.0),
             "a0": (841.0, 1189.0)}


def page_sizes_mm(path: Path) -> list[tuple[float, float]]:
    reader = PdfReader(str(path))
    return [(float(p.mediabox.width) * PT, float(p.mediabox.height) * PT) for p in reader.pages]


def is_paper(size: tuple[float, float], paper: str, tol: float = 0.05) -> bool:
    w, h = PAPERS_MM[paper]
    return any(abs(size[0] - a) < tol and abs(size[1] - b) < tol for a, b in ((w, h), (h, w)))


def blank_border_mm(path: Path, dpi: int = 100) -> list[float]:
    """Per page: how close (mm) any non-white pixel comes to the sheet edge, rendered by PyMuPDF."""
    import numpy as np

    out = []
    with fitz.open(str(path)) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=fitz.csGRAY)
            img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)
            ink = np.argwhere(img < 250)
            if len(ink) == 0:
                out.append(float("inf"))
                continue
            px = 25.4 / dpi
            ys, xs = ink[:, 0], ink[:, 1]
            nearest = min(xs.min(), ys.min(), pix.width - 1 - xs.max(), pix.height - 1 - ys.max())
            out.append(float(nearest) * px)
    return out


def fonts(path: Path) -> list[tuple[str, bool]]:
    """(base font name, embedded?) for every font used, pages and form XObjects alike."""
    reader = PdfReader(str(path))
    found: dict[str, bool] = {}

    def walk(resources, seen):
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            name = str(font.get("/BaseFont"))
            descriptors = []
            if "/FontDescriptor" in font:
                descriptors.append(font["/FontDescriptor"].get_object())
            for desc in font.get("/DescendantFonts") or []:
                desc = desc.get_object()
                if "/FontDescriptor" in desc:
                    descriptors.append(desc["/FontDescriptor"].get_object())
            embedded = any(k in d for d in descriptors for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[name] = found.get(name, True) and embedded
        for xobj in (resources.get("/XObject") or {}).values():
            ref = xobj.indirect_reference if hasattr(xobj, "indirect_reference") else None
            xobj = xobj.get_object()
            key = (ref.idnum if ref else id(xobj))
            if key in seen or xobj.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            walk(xobj.get("/Resources"), seen)

    for page in reader.pages:
        walk(page.get("/Resources"), set())
    return sorted(found.items())


def boxes(path: Path) -> list[dict[str, tuple[float, ...] | None]]:
    reader = PdfReader(str(path))
    out = []
    for p in reader.pages:
        entry = {}
        for name in ("/MediaBox", "/TrimBox", "/BleedBox"):
            box = p.get(name)
            entry[name] = tuple(float(v) * PT for v in box) if box is not None else None
        out.append(entry)
    return out


def mark_positions(page: pdfplumber.page.Page, paper_w: float, paper_h: float) -> tuple[list[float], list[float]]:
    """x of the vertical cuts and y of the horizontal ones (mm, top-left origin): cut marks above and left of
    the pieces, or, on an axis with no room for marks, grey cut lines across them."""
    xs, ys = set(), set()
    for line in page.lines:
        x0, x1 = line["x0"] * PT, line["x1"] * PT
        top, bottom = line["top"] * PT, line["bottom"] * PT
        cut_line = tuple(round(c, 2) for c in line.get("stroking_color") or ()) == (0.45, 0.45, 0.45)
        if abs(x0 - x1) < 0.01 and ((bottom < 20 and 0.2 < bottom - top < 8) or (cut_line and bottom - top > 40)):
            xs.add(round(x0, 3))
        if abs(top - bottom) < 0.01 and ((x1 < 25 and 0.2 < x1 - x0 < 8) or (cut_line and x1 - x0 > 40)):
            ys.add(round(top, 3))
    return sorted(xs), sorted(ys)


def piece_rects(page: pdfplumber.page.Page, w: float, h: float, tol: float = 0.05) -> list[tuple[float, float]]:
    """Centres (mm) of rectangles of exactly w x h mm on the page, forms included."""
    centres = []
    for r in page.rects:
        rw, rh = r["width"] * PT, r["height"] * PT
        if abs(rw - w) < tol and abs(rh - h) < tol:
            centres.append(((r["x0"] + r["x1"]) / 2 * PT, (r["top"] + r["bottom"]) / 2 * PT))
    return centres


def registered_pieces(path: Path, w: float, h: float, paper: str, tol: float = 0.2) -> int:
    """Pieces of w x h mm on the front pages of a duplex file, after asserting that each page's backs are
    the mirror image of its fronts (within tol mm)."""
    seen = 0
    with pdfplumber.open(str(path)) as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            fronts, backs = piece_rects(front, w, h), piece_rects(back, w, h)
            assert len(fronts) == len(backs) > 0, (path.name, len(fronts), len(backs))
            page_w, page_h = front.width * PT, front.height * PT
            # a portrait sheet turns over left to right, a landscape one top to bottom (its long edge)
            mirror = (lambda x, y: (page_w - x, y)) if page_w < page_h else (lambda x, y: (x, page_h - y))
            for bx, by in backs:
                gap = min(((bx - mirror(fx, fy)[0]) ** 2 + (by - mirror(fx, fy)[1]) ** 2) ** 0.5 for fx, fy in fronts)
                assert gap <= tol, (path.name, paper, bx, by, gap)
            seen += len(fronts)
    return seen


def piece_texts(page: pdfplumber.page.Page, w: float, h: float, inset: float = 0.0) -> list[str]:
    """The text inside each w x h mm piece rectangle (a face as drawn, trim plus bleed) of a page, less
    `inset` mm on every side (the drawn bleed, so the sheet's ruler below a piece is not read with it)."""
    out = []
    for cx, cy in piece_rects(page, w, h):
        box = ((cx - w / 2 + inset) / PT, (cy - h / 2 + inset) / PT, (cx + w / 2 - inset) / PT, (cy + h / 2 - inset) / PT)
        out.append((page.crop(box).extract_text() or "").strip())
    return out


def text(path: Path) -> str:
    with fitz.open(str(path)) as doc:
        return "\n".join(page.get_text() for page in doc).replace("\u2019", "'").replace("\u00a0", " ")


def spans(positions: list[float], size: float) -> list[float]:
    """Piece sizes read off sorted cut-mark positions, whether neighbours share a cut or have a gutter."""
    measured, i = [], 0
    while i < len(positions) - 1:
        start, end = positions[i], positions[i + 1]
        measured.append(end - start)
        nxt = positions[i + 2] if i + 2 < len(positions) else None
        # a shared cut: the end of this piece is the start of the next one
        i = i + 1 if nxt is not None and nxt - end > size / 2 else i + 2
    return measured
