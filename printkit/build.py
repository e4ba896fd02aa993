"""The build, top-down: load → validate → plan → draw (on every core) → write, then the manifest.

Every file is written in a stage folder; only when every file of the build is drawn without a
problem are they all moved into place, under a journal (staging.py). Bad input never overwrites
good output, and a build killed half-way leaves the previous output whole.

A build draws only what changed: every output file has a key, the hash of what it depends on
(incremental.keys); a file whose key is that of the last build and that is still on the disk as written
is kept, untouched, and a game none of whose inputs changed is not even loaded. The files left to draw
are drawn in units (a game's files in one language, the first with the language-free ones) on up to
`jobs` processes, each file with a sink of its own, and gathered in the order of the plan: the output is
byte-identical to a serial build. A file drawn again with the same bytes is not moved in either: nothing changed, nothing written.

A file an earlier build made that this one answers for (its games, papers, languages…: `_selection`) but no
longer makes is removed in the same commit, and leaves the manifest and the records.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
import tempfile
from typing import TYPE_CHECKING, Callable

from .content import PSEUDO, GameContent, Roots, cache_dir, load_game, with_guide, with_pseudo
from .errors import ContentError, Problem, UsageError
from .geometry import PAPERS
from .staging import BACKUP_PREFIX, JOURNAL, STAGE_PREFIX, OutputFile, Stage, os_problem
from .incremental import (FACES_FILE, Drawn, Records, Selection, batch_collection, context, game_keys, keep_unit_times,
                          left_behind, manifest_entries, run_units, tell, unit_times)

if TYPE_CHECKING:  # the engine (drawing, layout) is imported where it draws: a build that keeps every file never does
    from .changes import PieceKey
    from .layout import Sink
    from .outputs import Planned

__all__ = ["OutputFile", "Settings", "build", "build_calibration", "check_build", "stale_files", "validate"]


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
    jobs: int = 1  # processes drawing at once; 0: one per core (the CLI's default)
    force: bool = False  # draw every file, even those whose inputs did not change

    def drawing_key(self) -> str:
        """The settings that change how a file draws (its place and name say the rest)."""
        return repr((self.layout, self.theme, self.duplex_offset, self.pseudo))

    def selection_key(self) -> str:
        """The settings that choose which files a game makes."""
        return repr((self.drawing_key(), self.papers, self.langs, self.parts, self.kits, self.gutterfold, self.poster))


def validate(roots: Roots, games: list[str]) -> list[GameContent]:
    """Load and check every game; one ContentError with every problem of every game."""
    from .draw import check_catalog_glyphs, use_game_fonts
    from .rules import check_game

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


def build(settings: Settings, games: list[str], progress: Callable[[str], None] = lambda _: None,
          dry_run: bool = False, planned: Callable[[int | None], None] = lambda _: None,
          changed: dict[str, list[PieceKey]] | None = None, removed: list[str] | None = None) -> list[OutputFile]:
    """Build the games into settings.out; raises ContentError (writing nothing) on any problem.
    dry_run: draw every file in a stage folder of settings.out and discard them (the verdict of a build).
    `planned` hears how many files the build makes before the first (None when piece images make it open);
    `changed`, with settings.changed_since, gets each game's pieces changed since then; `removed` the files
    an earlier build made that this one no longer makes (removed with its commit). Returns every file
    of the build, those kept as they were (`kept`) included."""
    records = Records(settings.out) if dry_run else Records.load(settings.out)
    unchanged = {g: rels for g in games if (rels := _unchanged_game(settings, g, records)) is not None}
    if not dry_run and len(unchanged) == len(games) and _as_left(settings, games, unchanged, records):
        kept = [OutputFile(**records.entry(rel), kept=True) for rels in unchanged.values() for rel in rels]
        planned(len(kept))
        for f in kept:
            progress(f.path)
        return kept  # nothing changed: the commit would write nothing, so the engine is not even imported
    with batch_collection() as loaded:
        contents = validate(settings.roots, [g for g in games if g not in unchanged])
        loaded()  # the games live as long as the build
        # each game's own spelling; a language it lacks is an error
        if settings.langs is not None and not settings.pseudo:
            langs = (lang for c in contents for lang in c.languages(settings.langs))
            settings = replace(settings, langs=tuple(dict.fromkeys(langs)))
        plans = [_plan(c, settings) for c in contents]
        planned(None if settings.images else sum(len(p) for p in plans) + sum(len(r) for r in unchanged.values()))
        return _draw(settings, contents, progress, dry_run, changed, records, plans, unchanged, removed)


def _as_left(settings: Settings, games: list[str], unchanged: dict[str, list[str]], records: Records) -> bool:
    """The output folder as the last build of these games left it: its manifest and fit report those it wrote
    (a build of other games reports other texts), no build's stage, backup or journal in it (a build that stages
    recovers a killed one's commit), and no earlier file this build would remove (an old reprint)."""
    prefixes = (JOURNAL, STAGE_PREFIX, BACKUP_PREFIX)
    if records.built != sorted(games) or not records.texts_as_written():
        return False
    if any(p.name.startswith(prefixes) for p in settings.out.iterdir()):
        return False
    return not _left_behind(settings, set(games), records, {rel for rels in unchanged.values() for rel in rels})


def _unchanged_game(settings: Settings, game: str, records: Records) -> list[str] | None:
    """The files of a game none of whose inputs changed since the last build with the same selection, when every
    one is on the disk as written: the game is not even loaded. None: the game is built (files may still be kept)."""
    if settings.force or settings.images or settings.changed_since or game not in settings.roots.games():
        return None
    if not (settings.out / game / FACES_FILE).is_file():
        return None
    keys = game_keys(settings.roots, game, None, settings.drawing_key())
    return records.game_fresh(game, keys.whole + settings.selection_key())


def _plan(content: GameContent, settings: Settings) -> list[Planned]:
    from .outputs import plan_game

    return plan_game(content, settings, game_keys(settings.roots, content.id, list(content.components),
                                                  settings.drawing_key()))


def stale_files(settings: Settings, games: list[str]) -> list[str]:
    """The files a build of the games would draw again (their inputs changed, or the file on the disk is not the
    one written): for watch mode and the like. Loads and validates the games whose inputs changed."""
    records = Records.load(settings.out)
    unchanged = {g for g in games if _unchanged_game(settings, g, records) is not None}
    return [f.rel for c in validate(settings.roots, [g for g in games if g not in unchanged])
            for f in _plan(c, settings) if settings.force or not records.fresh(f.rel, f.key)]


def check_build(roots: Roots, games: list[str], jobs: int = 0) -> list[GameContent]:
    """`validate`'s verdict, the same as a build's: every file of every paper and language drawn in a
    throwaway folder (templates rendered, texts fitted) on `jobs` processes (0: every core), nothing written
    to the output folder."""
    with batch_collection() as loaded:
        contents = validate(roots, games)
        loaded()
        try:
            scratch = tempfile.TemporaryDirectory(prefix="printkit-validate-")
        except OSError as exc:
            raise ContentError([os_problem(tempfile.gettempdir(), exc, "a folder we can write for drawing")]) from None
        with scratch as tmp:
            settings = Settings(roots=roots, out=Path(tmp), jobs=jobs)
            plans = [_plan(c, settings) for c in contents]
            _draw(settings, contents, lambda _: None, True, None, Records(Path(tmp)), plans)
    return contents


@dataclass(frozen=True)
class _Unit:
    """Files of one game drawn together (one language; the first also the language-free ones), or its
    fingerprints (`changes`)."""

    game: int
    name: str  # the same unit in the next build has the same name: its time then tells which to start first
    files: tuple[Planned, ...] = ()
    changes: bool = False
    before: dict[str, str] | None = None
    spare: int = 0  # cores free beside it: a big part draws some of its faces ahead on them (write/ahead)

    def guess(self) -> float:
        """Seconds it may take when no earlier build took it on this machine."""
        return 0.3 if self.changes else sum(0.4 if f.what == "kit" else 0.1 for f in self.files)


@dataclass(frozen=True)
class _Shared:
    contents: list[GameContent]
    settings: Settings
    folder: Path


def _prepare(content: GameContent, settings: Settings) -> None:
    """What drawing a game needs in this process: its fonts and the guide texts of its languages."""
    from .draw import use_game_fonts
    from .layout import guide_catalogs

    use_game_fonts(content)  # the families its templates may name (checked by validate)
    # a language printkit has no guide for prints the game's own (checked by validate)
    with_guide(guide_catalogs(), content.catalogs, content.game.languages)
    if settings.pseudo:
        with_pseudo(content.catalogs, content.game.content_lang)
        with_pseudo(guide_catalogs(), "en")


def _run_unit(unit: _Unit) -> tuple[Stage, list[Problem], float]:
    """Draw one unit into the build's stage folder (in a worker process, or in the build's own)."""
    from .draw import TemplateProblem
    from .layout import Options, Sink
    from .outputs import build_changes, build_game
    from .write import spare_cores

    start = time.perf_counter()
    shared: _Shared = context()
    content, settings = shared.contents[unit.game], shared.settings
    _prepare(content, settings)
    stage = Stage(settings.out, settings.duplex_offset, shared.folder)
    problems: list[Problem] = []

    def done(f: Planned, sink: Sink, notes: list[Problem]) -> None:
        stage.files[-1].key, stage.files[-1].drawn = f.key, Drawn.of(sink.shrunk, sink.notes | set(notes))
        problems.extend(sink.problems)
        tell(stage.files[-1].meta["path"])  # the progress bar moves with each file, not only at the unit's end

    if unit.changes:
        sink = Sink({c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()})
        try:
            # pieces of their own: drawing marks a compiled plan's elements, which its fingerprint would see
            build_changes(content, settings, stage, sink, Options(settings.layout, settings.theme), unit.before,
                          lambda _: None)
        except TemplateProblem as exc:  # the drawing units report the template's problems at their place
            sink.problems += exc.at(content.raw.pos)
        problems += sink.problems
    else:  # a ContentError (the disk failing) stops the build: raised, in a worker too
        with spare_cores(unit.spare):
            build_game(content, settings, stage, unit.files, done)
    return stage, problems, time.perf_counter() - start


def _units(game: int, content: GameContent, files: list[Planned], whole: bool) -> list[_Unit]:
    """A game's files as units: one per language, or the whole game in one (`whole`: its languages' kits then
    share the language-free pieces, and the sheets' figures, in one process)."""
    if whole:
        return [_Unit(game, f"{content.id}:*:{len(files)}", tuple(files))] if files else []
    by_lang: dict[str | None, list[Planned]] = {}
    first = next((f.lang for f in files if f.lang), None)
    for f in files:  # language-free files with the first language's: its kits draw the same pieces (one cache)
        by_lang.setdefault(f.lang or first, []).append(f)
    return [_Unit(game, f"{content.id}:{lang or '-'}:{len(fs)}", tuple(fs)) for lang, fs in by_lang.items()]


def _draw(settings: Settings, contents: list[GameContent], progress: Callable[[str], None], dry_run: bool,
          changed: dict[str, list[PieceKey]] | None, records: Records, plans: list[list[Planned]],
          unchanged: dict[str, list[str]] | None = None, removed: list[str] | None = None) -> list[OutputFile]:
    from .changes import faces_since
    from .draw import take_notes
    from .layout import Options, Sink, preload
    from .outputs import _langs, build_images, forget_games, game_options

    take_notes()  # the image notes of this build's templates only
    forget_games()
    stage = Stage(settings.out, settings.duplex_offset)
    sink, kept, problems = Sink({}), [], []

    def keep(rel: str) -> None:
        kept.append(records.entry(rel))
        _add_drawn(sink, records.drawn(rel))
        progress(rel)

    earlier_images = {c.id: records.games.get(c.id, {}).get("images") for c in contents}
    try:
        for rel in (r for rels in (unchanged or {}).values() for r in rels):
            keep(rel)
        units, jobs = [], settings.jobs or os.cpu_count() or 1
        # twice as many games as cores keep every core busy one game each: a game's languages then share its
        # language-free pieces (build all on 2 cores: 7 % less CPU and time, the same bytes)
        whole = len(contents) >= 2 * jobs
        for i, (content, plan) in enumerate(zip(contents, plans)):
            before = None
            if settings.changed_since:
                before = faces_since(settings.changed_since, settings.roots, content.id, settings.out,
                                     _langs(content, settings), Options(settings.layout, settings.theme))
            stale = [f for f in plan if settings.force or not records.fresh(f.rel, f.key)]
            for f in plan:
                if f not in stale:
                    keep(f.rel)
            units += _units(i, content, stale, whole) + [_Unit(i, f"{content.id}:changes", changes=True, before=before)]
            keys = game_keys(settings.roots, content.id, None, settings.drawing_key())
            records.games[content.id] = {"key": keys.whole + settings.selection_key(), "files": [f.rel for f in plan]}

        told: set[str] = set()

        def heard(rel: str) -> None:
            told.add(rel)
            progress(rel)

        def unit_done(_: int, result: tuple[Stage, list[Problem], float]) -> None:
            for f in result[0].files:
                if f.meta["path"] not in told:  # a fingerprint, or a word the full pipe dropped
                    progress(f.meta["path"])

        history = cache_dir() and cache_dir() / "unit-times.json"
        # fewer drawing units than cores (one big game): each has its share of the spare ones to draw faces ahead
        # on (the fingerprints are light)
        drawing_units = sum(1 for u in units if not u.changes)
        spare = (jobs - drawing_units) // drawing_units if jobs > drawing_units > 0 else 0
        units = [replace(u, spare=spare) if spare and not u.changes else u for u in units]
        if jobs > 1 and len(units) > 1:  # the pool forks: what drawing imports is imported once here, not in every worker
            preload()
        times = unit_times(history)
        results = run_units(units, _run_unit, jobs, _Shared(contents, settings, stage.folder), unit_done,
                            lambda u: times.get(f"{settings.selection_key()}:{u.name}", u.guess()), heard)
        keep_unit_times(history, {f"{settings.selection_key()}:{u.name}": r[2] for u, r in zip(units, results)})
        drawing = [p for unit, (_, found, _) in zip(units, results) if not unit.changes for p in found]
        for unit, (unit_stage, found, _) in zip(units, results):
            stage.merge(unit_stage)
            problems += found if not (unit.changes and drawing) else []  # a failing build keeps no fingerprints
            for f in unit_stage.files:
                _add_drawn(sink, f.drawn)
        for content in contents if settings.images else []:
            key = records.games[content.id]["key"]
            images = None if settings.force else records.fresh_images(earlier_images[content.id], key)
            if images is None:  # drawn again when anything the game's files depend on changed
                _prepare(content, settings)
                sink.shared_pos = {c.stem: c.raw.value_pos.get("back", c.raw.pos) for c in content.components.values()}
                start = len(stage.files)
                build_images(content, settings, stage, sink, game_options(content, settings), progress)
                images = [f.meta["path"] for f in stage.files[start:]]
            else:
                for rel in images:
                    keep(rel)
            records.games[content.id]["images"] = {"key": key, "files": images}
        if problems or sink.problems:
            raise ContentError(problems + sink.problems)
        if changed is not None:
            changed.update(stage.changed)
        if dry_run:  # validate: every file drawn, none moved in
            stage.discard()
            return []
        notes = sorted(set(take_notes()) | sink.notes)
        games = {c.id for c in contents} | set(unchanged or {})
        gone = _left_behind(settings, games, records, {f.meta["path"] for f in stage.files} | {e["path"] for e in kept})
        records.built = sorted(games)
        fit_report = sink.fit_report(notes)
    except BaseException:  # nothing staged is left behind, and the output folder is free for the next build
        stage.discard()
        raise
    done = stage.commit(fit_report, kept, records, gone)
    if removed is not None:
        removed.extend(gone)
    return done


def _selection(settings: Settings, games: set[str]) -> Selection:
    """The earlier files a build answers for: those of its games, papers and languages (language-free files
    belong to every language), of the kinds it makes (images only with --images)."""
    langs = (PSEUDO,) if settings.pseudo else settings.langs
    return Selection(frozenset(games), frozenset(settings.papers), None if langs is None else frozenset(langs),
                     images=settings.images, parts=settings.parts, kits=settings.kits,
                     gutterfold=settings.gutterfold or settings.layout == "gutterfold",
                     posters=settings.poster and {"a4", "letter"} <= set(settings.papers))  # --paper all


def _left_behind(settings: Settings, games: set[str], records: Records, made: set[str]) -> list[str]:
    """The files on the disk an earlier build made (the manifest's or the records') that this build answers for
    and did not make or keep; the records of such files already gone are dropped."""
    earlier = [*manifest_entries(settings.out), *(r["entry"] for r in records.files.values())]
    gone = []
    for rel in left_behind(earlier, _selection(settings, games), made):
        if (settings.out / rel).is_file():
            gone.append(rel)
        else:
            records.files.pop(rel, None)
    return gone


def _add_drawn(sink: Sink, drawn: Drawn) -> None:
    """A file's shrunk texts and image notes into the build's fit report (the smallest size of a text wins)."""
    for lang, where, label, fld, nominal, used in drawn.shrunk:
        key = (lang, where, label, fld)
        first, smallest = sink.shrunk.get(key, (nominal, used))
        sink.shrunk[key] = (first, min(smallest, used))
    sink.notes |= set(drawn.problems())


def build_calibration(out: Path, paper: str, lang: str, duplex_offset: tuple[float, float] = (0.0, 0.0)) -> OutputFile:
    """output/calibration.<paper>.<lang>.pdf: the duplex calibration sheet (front and back)."""
    from .layout import SheetLabels, calibration_pages, guide_catalogs

    stage = Stage(out, duplex_offset)
    rel = f"calibration.{paper}.{lang}.pdf"
    catalogs = guide_catalogs()
    label = SheetLabels("printkit", catalogs.get(lang, "guide.calibration_title"), catalogs.get(lang, f"guide.paper_{paper}"),
                        lang, catalogs)
    try:
        w = stage.writer(rel, catalogs.get(lang, "guide.calibration_title"), "calibration", duplex=True)
        calibration_pages(w, PAPERS[paper], label)
        stage.add(w, rel, {"game": None, "component": "calibration", "kind": "calibration", "paper": paper,
                           "lang": lang, "items": 0})
    except BaseException:
        stage.discard()
        raise
    return stage.commit()[0]
