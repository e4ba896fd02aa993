"""What a build draws: the files of each game (parts, their gutterfold copies, kits, posters) planned with
the keys of their inputs, and drawn file by file; the pieces' fingerprints and reprint sheet; piece images.

build.py decides which planned files are stale and runs them on every core; this module draws them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .changes import FACES_FILE, changed_keys, draw_reprint, face_prints, faces_json, read_faces, reprint_files
from .content import PSEUDO, Board, GameContent
from .draw import take_notes
from .errors import Problem
from .geometry import PAPERS, Paper
from .incremental import GameKeys
from .layout import (Options, SheetLabels, Sink, blank_page, draw_part, draw_poster, entry_kind, fits_sheet, foldable,
                     guide_catalogs, is_duplex, is_localised, items_of, paper_label, piece_size, poster_paper, two_sided)

if TYPE_CHECKING:
    from .build import Settings
    from .staging import Stage


def _langs(content: GameContent, settings: Settings) -> list[str]:
    if settings.pseudo:
        return [PSEUDO]
    return [lang for lang in content.game.languages if settings.langs is None or lang in settings.langs]


def output_path(game: str, folder: str, name: str, lang: str | None) -> str:
    """Where a file goes inside the output folder: <game>/<paper or poster>/<name>[.<lang>].pdf."""
    return f"{game}/{folder}/{name}.{lang}.pdf" if lang else f"{game}/{folder}/{name}.pdf"


@dataclass(frozen=True)
class Planned:
    """One output file a build makes: where, what draws it, and the key of its inputs."""

    rel: str
    what: str  # "part", "fold" (a part's gutterfold copy), "kit" or "poster"
    paper: str | None
    comp: str | None
    lang: str | None
    key: str


def plan_game(content: GameContent, settings: Settings, keys: GameKeys | None = None) -> list[Planned]:
    """Every PDF file a build makes of a game, in the order it makes them, each with its key (keys.py):
    a part, its gutterfold copy and its poster depend on their own component's file, a kit on all of them."""
    opts, gid, langs = Options(settings.layout, settings.theme), content.id, _langs(content, settings)
    suffix = "-gutterfold" if settings.layout == "gutterfold" else ""
    part = keys.part if keys else (lambda _: "")
    whole = keys.whole if keys else ""
    out = []
    for paper_name in settings.papers:
        paper = PAPERS[paper_name]
        for comp in content.components.values() if settings.parts else []:
            for lang in (langs if is_localised(comp) else [None]):
                out.append(Planned(output_path(gid, paper_name, comp.stem + suffix, lang), "part", paper_name,
                                   comp.stem, lang, part(comp.stem)))
                if settings.gutterfold and is_duplex(comp, opts, paper) and foldable(comp, paper):
                    out.append(Planned(output_path(gid, paper_name, f"{comp.stem}-gutterfold", lang), "fold",
                                       paper_name, comp.stem, lang, part(comp.stem)))
        for lang in langs if settings.kits else []:
            out.append(Planned(output_path(gid, paper_name, f"{gid}-kit{suffix}", lang), "kit", paper_name, None,
                               lang, whole))
    for comp in content.components.values() if settings.poster else []:
        if needs_poster(comp.model, settings.papers):
            for lang in (langs if is_localised(comp) else [None]):
                out.append(Planned(output_path(gid, "poster", f"{comp.stem}-poster", lang), "poster", None,
                                   comp.stem, lang, part(comp.stem)))
    return out


def build_game(content: GameContent, settings: Settings, stage: "Stage", files: tuple[Planned, ...],
               done: Callable[[Planned, Sink, list[Problem]], None]) -> None:
    """Draw the planned files of a game, each with a sink of its own; `done` hears each one drawn with its sink
    and the image notes of its templates. One Options for them all: its piece cache serves every file."""
    opts = game_options(content, settings)
    shared_pos = {c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()}
    for f in files:
        sink = Sink(shared_pos)
        take_notes()
        comp = content.components[f.comp] if f.comp else None
        lang = f.lang or content.game.content_lang
        meta = {"game": content.id, "component": f.comp or "kit", "kind": comp.kind if comp else "kit",
                "paper": f.paper, "lang": f.lang}
        if f.what == "kit":
            build_kit(content, PAPERS[f.paper], f.lang, opts, settings.layout, stage, sink, f.rel)
        elif f.what == "poster":
            assert comp is not None
            w = stage.writer(f.rel, f"{content.game.title}: {comp.model.title} (poster)", "poster", duplex=False)
            draw_poster(w, content, comp, sink, settings.theme, lang)
            stage.add(w, f.rel, {**meta, "paper": poster_paper(*comp.model.size).name, "items": 1})
        else:
            assert comp is not None
            paper = PAPERS[f.paper]
            fold = f.what == "fold"
            part_opts = Options("gutterfold", opts.theme, opts.cache) if fold else opts
            w = stage.writer(f.rel, f"{content.game.title}: {comp.model.title}", comp.model.title,
                             duplex=False if fold else is_duplex(comp, opts, paper))
            draw_part(w, content, comp, paper, lang, part_opts, sink)
            stage.add(w, f.rel, {**meta, "items": 0 if comp.kind == "sheet" and not fold else items_of(comp, paper)})
        done(f, sink, take_notes())


_CACHES: dict[int, tuple[GameContent, dict]] = {}


def forget_games() -> None:
    """A new build's games are new objects: the last build's caches go (a watch builds again and again)."""
    _CACHES.clear()


def game_options(content: GameContent, settings: Settings) -> Options:
    """Options whose piece cache is the game's in this process: every unit of the game that runs here (a kit in
    each language, the fingerprints) shares its language-free pieces, sheet flows and drawn faces."""
    held = _CACHES.get(id(content))
    if held is None or held[0] is not content:  # the id of a game gone since: a new game
        held = _CACHES[id(content)] = (content, {})
    return Options(settings.layout, settings.theme, held[1])


def build_changes(content: GameContent, settings: Settings, stage: "Stage", sink: Sink, opts: Options,
                  before: dict[str, str] | None, progress: Callable[[str], None]) -> None:
    """Keep every piece's fingerprint for the next build (only when they changed: an unchanged build writes
    nothing) and, when asked, a sheet of the pieces changed since `before` per paper and language."""
    gid, langs = content.id, _langs(content, settings)
    if sink.problems:  # the build fails: its pieces' problems are listed, no fingerprint is kept
        return
    prints = face_prints(content, langs, opts)
    kept_file = settings.out / gid / FACES_FILE
    merged = faces_json(prints, read_faces(kept_file), langs)
    if not kept_file.is_file() or kept_file.read_bytes() != merged:
        with stage.writing(f"{gid}/{FACES_FILE}"):
            stage.tmp(f"{gid}/{FACES_FILE}").write_bytes(merged)
    if before is None:
        return
    stage.changed[gid] = changed = changed_keys(prints, before)
    for paper_name, lang, pieces in reprint_files(content, changed, settings.papers if settings.reprint else (),
                                                  langs, opts):
        rel = output_path(gid, paper_name, f"{gid}-changed", lang)
        progress(rel)
        w = stage.writer(rel, f"{content.game.title}: changed pieces", "changed pieces", duplex=True)
        draw_reprint(w, content, pieces, PAPERS[paper_name], lang or content.game.content_lang, sink)
        stage.add(w, rel, {"game": gid, "component": "changed", "kind": "reprint", "paper": paper_name,
                           "lang": lang, "items": len(pieces)})


def build_images(content: GameContent, settings: Settings, stage: "Stage", sink: Sink, opts: Options,
                 progress: Callable[[str], None]) -> None:
    """<game>/images/: every face of every piece as a PNG for print services, and the game's zip of them;
    <game>/tts/: the pieces for Tabletop Simulator. The pieces are those the PDFs drew (opts' cache)."""
    from .layout import Table, game_exports

    pngs = []
    for f in game_exports(content, _langs(content, settings), opts, sink, Table(content), progress):
        stage.add_bytes(f.rel, f.data, {"game": content.id, "component": f.component, "kind": f.kind, "paper": None,
                                        "lang": f.lang, "items": f.items, "px": f.px, "dpi": f.dpi})
        pngs += [f.rel] if f.kind == "image" else []
    if pngs:
        rel = f"{content.id}/images/{content.id}-images.zip"
        progress(rel)
        stage.add_zip(rel, pngs, {"game": content.id, "component": "images", "kind": "images-zip", "paper": None,
                                  "lang": None, "items": len(pngs)})


def needs_poster(model: object, papers: tuple[str, ...]) -> bool:
    """A board too large for some paper of the build gets a one-page poster for a print shop."""
    return isinstance(model, Board) and any(not fits_sheet(PAPERS[p], model) for p in papers)


def build_kit(content: GameContent, paper: Paper, lang: str, opts: Options, layout: str, stage: "Stage",
              sink: Sink, rel: str) -> None:
    """The print guide, then the print jobs by stock: card stock double-sided, card stock one-sided, paper."""
    from .layout import Entry, Job, count_pages, draw_kit_body, flow_pages, guide_flow, job_sheets, plan_kit, with_blanks

    plan = plan_kit(content, paper, lang, opts, sink)

    def entries(start: int) -> tuple[list[Entry], tuple[Job, ...]]:
        out, page, jobs = [], start, {}
        for section in plan.sections:
            jobs.setdefault(section.job, []).extend(range(page, page + section.pages))
            for c in section.comps:
                listed = tuple(page + i for i in section.comp_pages.get(c.stem, []))
                poster = needs_poster(c.model, (paper.name,))
                out.append(Entry(content.localised(lang, f"kit.components.{c.stem}", c.model.title),
                                 entry_kind(c.model, poster), len(listed),
                                 0 if c.kind == "sheet" else items_of(c, paper), piece_size(c, lang), listed[0] if listed else 0,
                                 section.job == "card_duplex", poster_paper(*c.model.size).name if poster else "",
                                 two_sided(c.model), c.stem, listed if section.ganged else ()))
            page += section.pages
        return out, tuple(Job(k, tuple(v), plan.sheets(k)) for k, v in jobs.items())

    listed, jobs = entries(2)
    guide_pages = count_pages(paper, guide_flow(content, paper, lang, listed, layout, jobs=jobs, saved=plan.saved))
    # the guide prints on plain paper with the rules, double-sided: rules of whole sheets start on a sheet of their own
    first_paper = next((s for s in plan.sections if s.job == "paper"), None)
    blank = int(guide_pages % 2 == 1 and first_paper is not None and first_paper.pages % 2 == 0)
    plan = with_blanks(plan, guide_pages + blank)
    listed, jobs = entries(guide_pages + blank + 1)
    guide = tuple(range(1, guide_pages + blank + 1))
    if not any(j.key == "paper" for j in jobs):
        jobs += (Job("paper", (), 0),)
    jobs = tuple(Job(j.key, guide + j.pages, job_sheets(j.key, len(guide + j.pages))) if j.key == "paper" else j
                 for j in jobs)
    total = guide_pages + blank + plan.pages
    flow = guide_flow(content, paper, lang, listed, layout, total, jobs=jobs, saved=plan.saved)
    w = stage.writer(rel, f"{content.game.title}: print-and-play kit", "kit",
                     duplex=any(s.job == "card_duplex" for s in plan.sections))
    label = SheetLabels(content.title_in(lang), guide_catalogs().get(lang, "guide.title"),
                        paper_label(content, paper, lang), lang, guide_catalogs())
    flow_pages(w, paper, flow, label)
    if blank:
        blank_page(w, paper, label)
    for comp, planned, drawn in draw_kit_body(w, content, plan, paper, lang, opts, sink):
        if drawn and drawn != planned:  # the guide's page ranges came from the plan: they would be wrong
            sink.problems.append(Problem(comp.raw.pos, f"expected {comp.stem} to take the {planned} pages the guide "
                                                       f"lists ({paper.name}, {lang}), found {drawn}"))
    stage.add(w, rel, {"game": content.id, "component": "kit", "kind": "kit", "paper": paper.name, "lang": lang,
                       "items": sum(e.items for e in listed if e.kind != "board-tiled")})




def preview_images(content: GameContent, piece: str, lang: str | None, theme: str = "standard") -> list:
    """One piece's faces as the PNGs `--images` draws (300 dpi, 1/8 in of bleed): `piece` is `<component>/<n>`,
    its number, name or both (`deck/2`, `deck/bob`, `deck/002-bob`). Raises UsageError naming what there is."""
    from .errors import UsageError
    from .content import Sheet
    from .layout import component_faces, image_files, is_localised, piece_stems

    stem, _, wanted = piece.partition("/")
    named = [c.stem for c in content.components.values() if not isinstance(c.model, Sheet)]
    if stem not in named:
        raise UsageError(f"expected <component>/<piece>, a component of {content.id} with pieces "
                         f"({', '.join(named)}), found {piece!r}")
    comp = content.components[stem]
    piece_lang = (lang or content.game.content_lang) if is_localised(comp) else None
    opts = Options(theme=theme)
    stems = piece_stems(content, comp, opts, piece_lang)
    found = [s for s in stems if wanted in (s, s.partition("-")[2])
             or (wanted.isdigit() and int(s.partition("-")[0]) == int(wanted))]
    if len(found) != 1:
        shown = ", ".join(stems[:8]) + (", …" if len(stems) > 8 else "")
        raise UsageError(f"expected a piece of {stem} ({shown}), found {wanted!r}"
                         + (f" ({len(found)} pieces have that name)" if found else ""))
    sink = Sink({c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()})
    faces = component_faces(content, comp, piece_lang, opts, sink, only=lambda s: s == found[0])
    if sink.problems:
        from .errors import ContentError

        raise ContentError(sink.problems)
    return list(image_files(content, faces))
