"""The reprint sheet: only the pieces that changed, every copy of each, ganged on as few sheets as the
kit's ganging makes, fronts and mirrored backs for long-edge duplex like the kit's card sheets."""
from __future__ import annotations

from typing import Iterator

from ..content import GameContent
from ..geometry import PAPERS, Paper
from ..layout import (Ganged, Options, SheetLabels, Sink, ganged_pages, gangs, guide_catalogs, paper_label,
                      piece_specs, runs)
from ..write import Writer
from .fingerprint import PieceKey, _key


def reprint_pieces(content: GameContent, changed: list[PieceKey], paper: Paper, lang: str,
                   opts: Options) -> list[Ganged]:
    """Every copy of each changed piece that prints in `lang` (language-free ones in every language), the
    largest pieces first as the kit gangs them."""
    wanted = {k for k in changed if k.lang in (None, lang)}
    found: list[Ganged] = []
    duplex = Options("duplex", opts.theme, opts.cache)
    for comp in content.components.values():
        if not wanted or not gangs(comp, duplex, paper):
            continue
        specs, text_lang, assets = piece_specs(content, comp, lang, opts)
        for n, (spec, copies) in enumerate(runs(specs), 1):
            if _key(content, comp.stem, spec, n, lang if comp.model.per_language else None) in wanted:
                found += [Ganged(spec, text_lang, assets)] * copies
    return sorted(found, key=lambda g: (-g.spec.size[0] * g.spec.size[1], -g.spec.size[1]))


def reprint_files(content: GameContent, changed: list[PieceKey], papers: tuple[str, ...], langs: list[str],
                  opts: Options) -> Iterator[tuple[str, str | None, list[Ganged]]]:
    """(paper, language, pieces) of each reprint sheet to write: one per paper, and per language when a piece
    that prints in one language changed (language None: only pieces that print the same in every language)."""
    per_language = any(k.lang for k in changed)
    for paper in papers:
        for lang in (langs if per_language else [None]):
            pieces = reprint_pieces(content, changed, PAPERS[paper], lang or content.game.content_lang, opts)
            if pieces:
                yield paper, lang, pieces


def draw_reprint(w: Writer, content: GameContent, pieces: list[Ganged], paper: Paper, lang: str, sink: Sink) -> int:
    """The changed pieces' sheets, fronts then mirrored backs; returns the pages drawn."""
    catalogs = guide_catalogs()
    label = SheetLabels(content.title_in(lang), catalogs.get(lang, "guide.reprint_title"),
                        paper_label(content, paper, lang), lang, catalogs)
    return ganged_pages(w, pieces, paper, True, label, sink)
