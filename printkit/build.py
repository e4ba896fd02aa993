"""The build, top-down: load → validate → expand → draw → impose → write, then the manifest.

Every file is written in a stage folder; only when every file of the build is drawn without a
problem are they all moved into place, under a journal (staging.py). Bad input never overwrites
good output, and a build killed half-way leaves the previous output whole.
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from contextlib import contextmanager
from typing import Callable, Iterator

from .layout import fits_sheet, poster_paper
from .content import Board, GameContent, PSEUDO, Roots, load_game, with_guide, with_pseudo
from .errors import ContentError, Problem, UsageError
from .geometry import PAPERS, Paper
from .layout import SheetLabels, Sink, calibration_pages
from .layout import (Options, blank_page, two_sided, entry_kind, draw_part, draw_poster, guide_catalogs, foldable, is_duplex, is_localised, items_of,
                    paper_label, piece_size, planned_pages)
from .write import Writer, write_zip
from .rules import check_game
from .draw import check_catalog_glyphs, take_notes, use_game_fonts
from .staging import Staging, manifest_text, os_problem
from .changes import (FACES_FILE, PieceKey, changed_keys, draw_reprint, face_prints, faces_json, faces_since,
                      read_faces, reprint_files)


@dataclass(frozen=True)
class Settings:
    """Everything a build needs to know; travels as one frozen value."""

    roots: Roots
    out: Path
    papers: tuple[str, ...] = ("a4", "letter")
    langs: tuple[str, ...] | None = None  # None: every language a game has
    layout: str = "duplex"
    theme: str = "standard"  # "ink-saver": templates use light fills
    parts: bool = True  # one file per component besides the kit
    kits: bool = True  # the combined print-and-play file per language
    gutterfold: bool = True  # with parts: a gutterfold copy of every double-sided part
    poster: bool = True
    pseudo: bool = False  # localised components in the pseudo language only (i18n.PSEUDO): to find texts that overflow
    duplex_offset: tuple[float, float] = (0.0, 0.0)  # mm right and down: every back page shifted by it
    images: bool = False  # also every face as a 300 dpi PNG with bleed, their zip, and Tabletop Simulator files
    changed_since: str | None = None  # "last" or a git revision: the pieces changed since then
    reprint: bool = True  # with changed_since: also a sheet of those pieces (watch mode only names them)


@dataclass(frozen=True)
class OutputFile:
    path: str
    game: str
    component: str
    kind: str
    paper: str | None  # None for images: they are paper-free
    lang: str | None
    pages: int
    items: int
    sha256: str
    px: tuple[int, int] | None = None  # an image's width and height (left out of the manifest for PDFs)
    dpi: int | None = None  # a piece image's resolution, lowered for a very large board


def validate(roots: Roots, games: list[str]) -> list[GameContent]:
    """Load and check every game; one ContentError with every problem of every game."""
    problems: list[Problem] = []
    contents = []
    known = roots.games()
    for game in games:
        if game not in known:
            raise UsageError(roots.unknown_game(game))
        try:
            content = load_game(roots, game)
        except ContentError as exc:
            problems += exc.problems
            continue
        problems += check_game(content) + use_game_fonts(content) + check_catalog_glyphs(content)
        contents.append(content)
    if problems:
        raise ContentError(problems)
    return contents


@dataclass
class _Staged:
    tmp: Path
    meta: dict


class _Stage:
    """A build's files, written in a stage folder of the output folder and committed together
    (staging.Staging: a journal makes the commit all-or-nothing even when the build is killed)."""

    def __init__(self, out: Path, back_offset: tuple[float, float] = (0.0, 0.0)):
        self.out = out
        self.back_offset = back_offset
        self.files: list[_Staged] = []
        self.changed: dict[str, list[PieceKey]] = {}  # per game: the pieces changed since --changed-since
        self.staging = Staging(out)
        self.staging.open()

    def tmp(self, rel: str) -> Path:
        with self.writing(rel):
            return self.staging.path(rel)

    @contextmanager
    def writing(self, rel: str) -> Iterator[None]:
        """A failure of the disk while a file is staged is a problem at the file's place in the output."""
        try:
            yield
        except OSError as exc:
            raise ContentError([os_problem(self.out / rel, exc)]) from None

    def writer(self, rel: str, title: str, subject: str, duplex: bool) -> Writer:
        return Writer(self.tmp(rel), title, subject, duplex, self.back_offset)

    def add_bytes(self, rel: str, data: bytes, meta: dict) -> None:
        tmp = self.tmp(rel)
        with self.writing(rel):
            tmp.write_bytes(data)
        self.files.append(_Staged(tmp, {"path": rel, "pages": 0, **meta}))

    def add_zip(self, rel: str, members: list[str], meta: dict) -> None:
        """A zip of files staged in this build, named in it relative to the zip's folder."""
        staged = {f.meta["path"]: f.tmp for f in self.files}
        folder = rel.rsplit("/", 1)[0] + "/"
        tmp = self.tmp(rel)
        with self.writing(rel):
            write_zip(tmp, [(m.removeprefix(folder), staged[m]) for m in members])
        self.files.append(_Staged(tmp, {"path": rel, "pages": 0, **meta}))

    def add(self, w: Writer, rel: str, meta: dict) -> None:
        with self.writing(rel):
            self.files.append(_Staged(w.finish(), {"path": rel, **meta, "pages": w.pages}))

    def discard(self) -> None:
        self.staging.discard()

    def commit(self, fit_report: str | None = None) -> list[OutputFile]:
        """The manifest (and fit report) staged with the files, then all of them moved in at once."""
        done = [OutputFile(sha256=hashlib.sha256(f.tmp.read_bytes()).hexdigest(), **f.meta) for f in self.files]
        with self.writing("manifest.json"):
            self.tmp("manifest.json").write_text(manifest_text(self.out, [asdict(f) for f in done]), encoding="utf-8")
            if fit_report is not None:
                self.tmp("fit-report.md").write_text(fit_report, encoding="utf-8")
        try:
            self.staging.commit()
        except BaseException:
            self.discard()
            raise
        return done


def _langs(content: GameContent, settings: Settings) -> list[str]:
    if settings.pseudo:
        return [PSEUDO]
    return [lang for lang in content.game.languages if settings.langs is None or lang in settings.langs]


def output_path(game: str, folder: str, name: str, lang: str | None) -> str:
    """Where a file goes inside the output folder: <game>/<paper or poster>/<name>[.<lang>].pdf."""
    return f"{game}/{folder}/{name}.{lang}.pdf" if lang else f"{game}/{folder}/{name}.pdf"


def build_game(content: GameContent, settings: Settings, stage: _Stage, sink: Sink,
               progress: Callable[[str], None], before: dict[str, str] | None = None) -> None:
    opts = Options(settings.layout, settings.theme)  # one per game: its piece cache lives as long as the game's build
    gid = content.id
    suffix = "-gutterfold" if settings.layout == "gutterfold" else ""
    for paper_name in settings.papers:
        paper = PAPERS[paper_name]
        if settings.parts:
            for comp in content.components.values():
                for lang in (_langs(content, settings) if is_localised(comp) else [None]):
                    rel = output_path(gid, paper_name, comp.stem + suffix, lang)
                    progress(rel)
                    w = stage.writer(rel, f"{content.game.title}: {comp.model.title}", comp.model.title,
                                     duplex=is_duplex(comp, opts, paper))
                    draw_part(w, content, comp, paper, lang or content.game.content_lang, opts, sink)
                    stage.add(w, rel, {"game": gid, "component": comp.stem, "kind": comp.kind, "paper": paper_name,
                                       "lang": lang, "items": 0 if comp.kind == "sheet" else items_of(comp, paper)})
                    if settings.gutterfold and is_duplex(comp, opts, paper) and foldable(comp, paper):
                        # for printers without duplex: the same pieces, fronts and backs side by side to fold
                        fold = Options("gutterfold", opts.theme, opts.cache)
                        rel = output_path(gid, paper_name, f"{comp.stem}-gutterfold", lang)
                        progress(rel)
                        w = stage.writer(rel, f"{content.game.title}: {comp.model.title}", comp.model.title,
                                         duplex=False)
                        draw_part(w, content, comp, paper, lang or content.game.content_lang, fold, sink)
                        stage.add(w, rel, {"game": gid, "component": comp.stem, "kind": comp.kind,
                                           "paper": paper_name, "lang": lang, "items": items_of(comp, paper)})
        for lang in _langs(content, settings) if settings.kits else []:
            rel = output_path(gid, paper_name, f"{gid}-kit{suffix}", lang)
            progress(rel)
            build_kit(content, paper, lang, opts, settings.layout, stage, sink, rel)
    if settings.poster:
        for comp in content.components.values():
            if not needs_poster(comp.model, settings.papers):
                continue
            for lang in (_langs(content, settings) if is_localised(comp) else [None]):
                rel = output_path(gid, "poster", f"{comp.stem}-poster", lang)
                progress(rel)
                w = stage.writer(rel, f"{content.game.title}: {comp.model.title} (poster)", "poster", duplex=False)
                draw_poster(w, content, comp, sink, settings.theme, lang)
                stage.add(w, rel, {"game": gid, "component": comp.stem, "kind": comp.kind,
                                   "paper": poster_paper(*comp.model.size).name,
                                   "lang": lang, "items": 1})
    if settings.images:
        build_images(content, settings, stage, sink, opts, progress)
    build_changes(content, settings, stage, sink, opts, before, progress)


def build_changes(content: GameContent, settings: Settings, stage: _Stage, sink: Sink, opts: Options,
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


def build_images(content: GameContent, settings: Settings, stage: _Stage, sink: Sink, opts: Options,
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


def build_kit(content: GameContent, paper: Paper, lang: str, opts: Options, layout: str, stage: _Stage,
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


def planned_files(content: GameContent, settings: Settings) -> int:
    """How many PDF files build_game writes for a game (its images aside), for the progress count."""
    opts, total = Options(settings.layout, settings.theme), 0
    for paper_name in settings.papers:
        paper = PAPERS[paper_name]
        for comp in content.components.values() if settings.parts else []:
            copies = len(_langs(content, settings)) if is_localised(comp) else 1
            fold = settings.gutterfold and is_duplex(comp, opts, paper) and foldable(comp, paper)
            total += copies * (2 if fold else 1)
        total += len(_langs(content, settings)) if settings.kits else 0
    for comp in content.components.values() if settings.poster else []:
        if needs_poster(comp.model, settings.papers):
            total += len(_langs(content, settings)) if is_localised(comp) else 1
    return total


def build(settings: Settings, games: list[str], progress: Callable[[str], None] = lambda _: None,
          dry_run: bool = False, planned: Callable[[int | None], None] = lambda _: None,
          changed: dict[str, list[PieceKey]] | None = None) -> list[OutputFile]:
    """Build the games into settings.out; raises ContentError (writing nothing) on any problem.
    dry_run: draw every file in a stage folder of settings.out and discard them (the verdict of a build).
    `planned` hears how many files the build writes before the first (None when piece images make it open);
    `changed`, with settings.changed_since, gets each game's pieces changed since then."""
    contents = validate(settings.roots, games)
    if settings.langs is not None and not settings.pseudo:  # each game's own spelling; a language it lacks is an error
        settings = replace(settings, langs=tuple(lang for c in contents for lang in c.languages(settings.langs)))
    planned(None if settings.images else sum(planned_files(c, settings) for c in contents))
    return _draw(settings, contents, progress, dry_run, changed)


def check_build(roots: Roots, games: list[str]) -> list[GameContent]:
    """`validate`'s verdict, the same as a build's: every file of every paper and language drawn in a
    throwaway folder (templates rendered, texts fitted), nothing written to the output folder."""
    contents = validate(roots, games)
    try:
        scratch = tempfile.TemporaryDirectory(prefix="printkit-validate-")
    except OSError as exc:
        raise ContentError([os_problem(tempfile.gettempdir(), exc, "a folder we can write for drawing")]) from None
    with scratch as tmp:
        _draw(Settings(roots=roots, out=Path(tmp)), contents, lambda _: None, dry_run=True)
    return contents


def _draw(settings: Settings, contents: list[GameContent], progress: Callable[[str], None],
          dry_run: bool, changed: dict[str, list[PieceKey]] | None = None) -> list[OutputFile]:
    take_notes()  # the image notes of this build's templates only
    stage = _Stage(settings.out, settings.duplex_offset)
    sink = Sink({})
    try:
        for content in contents:
            use_game_fonts(content)  # the families its templates may name (checked by validate)
            # a language printkit has no guide for prints the game's own (checked by validate)
            with_guide(guide_catalogs(), content.catalogs, content.game.languages)
            if settings.pseudo:
                with_pseudo(content.catalogs, content.game.content_lang)
                with_pseudo(guide_catalogs(), "en")
            # per game: two games may both have a component called "board"
            sink.shared_pos = {c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()}
            before = None
            if settings.changed_since:
                before = faces_since(settings.changed_since, settings.roots, content.id, settings.out,
                                     _langs(content, settings), Options(settings.layout, settings.theme))
                use_game_fonts(content)  # an earlier version's fonts were registered to read its pieces
            build_game(content, settings, stage, sink, progress, before)
        if sink.problems:
            raise ContentError(sink.problems)
    except BaseException:
        stage.discard()
        raise
    if changed is not None:
        changed.update(stage.changed)
    if dry_run:  # validate: every file drawn, none moved in
        stage.discard()
        return []
    return stage.commit(sink.fit_report() + image_report(sorted(set(take_notes()) | sink.notes)))


def image_report(notes: list[Problem]) -> str:
    """The fit report's section on images printed under 300 dpi: where each is drawn, its file and dpi
    (nothing when every image prints at 300 dpi or more, so reports of builds without images stay as they were)."""
    if not notes:
        return ""
    return "\n".join(["", "# Images printed under 300 dpi", "", *(str(n) for n in notes)]) + "\n"


def build_calibration(out: Path, paper: str, lang: str, duplex_offset: tuple[float, float] = (0.0, 0.0)) -> OutputFile:
    """output/calibration.<paper>.<lang>.pdf: the duplex calibration sheet (front and back)."""
    stage = _Stage(out, duplex_offset)
    rel = f"calibration.{paper}.{lang}.pdf"
    catalogs = guide_catalogs()
    label = SheetLabels("printkit", catalogs.get(lang, "guide.calibration_title"), catalogs.get(lang, f"guide.paper_{paper}"),
                        lang, catalogs)
    try:
        w = stage.writer(rel, catalogs.get(lang, "guide.calibration_title"), "calibration", duplex=True)
        calibration_pages(w, PAPERS[paper], label)
    except BaseException:
        stage.discard()
        raise
    stage.add(w, rel, {"game": None, "component": "calibration", "kind": "calibration", "paper": paper, "lang": lang,
                       "items": 0})
    return stage.commit()[0]
