"""All-or-nothing output: a build's files are staged, then moved into the output folder under a journal.

Every new file is first written in `<out>/.printkit-stage-<pid>/` (the same filesystem, so moving it in
is a rename). The commit then:

1. writes the journal `<out>/.printkit-journal.json` (atomically: a temporary file renamed) with the
   state "committing", the stage and backup folders, the files to move in and the folders to create;
2. for each file: moves the file it replaces (if any) to `<out>/.printkit-backup-<pid>/`, then the new
   file from the stage into place (the manifest is one of these files, so it always matches them); each
   file the build no longer makes (`removes`) goes to the backup folder too;
3. rewrites the journal with the state "committed", removes the backup and stage folders, the folders the
   removed files leave empty below `<out>/<game>/`, then the journal.

A build killed at any moment leaves a journal; the next build first recovers from it (`recover`):
"committing" is rolled back (each new file goes back to the stage, each backup back into place: every
step a rename, so a recovery killed in turn is simply run again), "committed" is rolled forward (only the
clean-up is left). Stage folders of processes that are gone are removed. The output folder therefore
holds either the whole previous build or the whole new one, and no temporary file.

`Stage` is a build's side of it: the files drawn into the stage folder (by the build's process or its
workers), and the commit that leaves alone every file whose bytes are already on the disk.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .errors import ContentError, Pos, Problem, os_problem
from .incremental import CACHE_FILE, Drawn, Records, file_sha, hold, manifest_text
if TYPE_CHECKING:  # drawing loads ReportLab: a build that keeps every file never does
    from .write import Writer

JOURNAL, STAGE_PREFIX, BACKUP_PREFIX = ".printkit-journal.json", ".printkit-stage-", ".printkit-backup-"


def _write_json_atomically(path: Path, body: dict) -> None:
    """A file that is either its old content or its new one, even across a power cut."""
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(body, fh, indent=1)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's live process
    return True


@dataclass
class Staging:
    """One build's stage folder inside the output folder, and the commit that moves it into place."""

    out: Path
    # paths relative to out, in the order they were staged (a dict: a build may stage thousands of images)
    staged: dict[str, None] = field(default_factory=dict)
    removes: list[str] = field(default_factory=list)  # earlier files the build no longer makes
    lock: int | None = None  # the output folder, held open and locked while the build stages and commits

    @property
    def moves(self) -> list[str]:
        return list(self.staged)

    @property
    def stage(self) -> Path:
        return self.out / f"{STAGE_PREFIX}{os.getpid()}"

    @property
    def backup(self) -> Path:
        return self.out / f"{BACKUP_PREFIX}{os.getpid()}"

    def open(self) -> None:
        """Check the output folder, hold it (one build at a time), finish any killed build's commit, and make an
        empty stage."""
        check_out(self.out)
        self.lock = hold(self.out)
        try:
            recover(self.out)
            shutil.rmtree(self.stage, ignore_errors=True)
            self.stage.mkdir()
        except OSError as exc:
            self.release()
            raise ContentError([os_problem(self.out, exc, "a folder we can write for the output")]) from None
        except BaseException:
            self.release()
            raise

    def path(self, rel: str) -> Path:
        """Where a file of the build is written before the commit; staged files are listed once each."""
        staged = self.stage / rel
        staged.parent.mkdir(parents=True, exist_ok=True)
        self.staged.setdefault(rel, None)
        return staged

    def discard(self) -> None:
        shutil.rmtree(self.stage, ignore_errors=True)
        self.release()

    def release(self) -> None:
        if self.lock is not None:
            os.close(self.lock)  # closing the folder lets the next build in
            self.lock = None

    def preflight(self) -> None:
        """Every path in the way of a new file, all at once, before anything is moved."""
        problems = []
        for rel in self.moves:
            final = self.out / rel
            if final.is_dir() and not final.is_symlink():
                problems.append(Problem(Pos(str(final)), "expected a file we can write, found a folder"))
            for parent in list(final.parents)[: len(Path(rel).parts) - 1]:
                if parent.exists() and not parent.is_dir():
                    problems.append(Problem(Pos(str(parent)), "expected a folder, found a file"))
        if problems:
            raise ContentError(problems)

    def commit(self) -> None:
        """Move every staged file into place under the journal; on a failure, put everything back."""
        self.preflight()
        moves = self.moves
        new_dirs = sorted({str(p.relative_to(self.out)) for rel in moves for p in (self.out / rel).parents
                           if p != self.out and self.out in p.parents and not p.exists()}, key=len)
        journal = {"state": "committing", "stage": self.stage.name, "backup": self.backup.name,
                   "moves": moves, "dirs": new_dirs, "removes": self.removes}
        try:
            _write_json_atomically(self.out / JOURNAL, journal)
            for rel in new_dirs:
                (self.out / rel).mkdir(exist_ok=True)
            for rel in moves:
                _move_in(self.out, self.stage, self.backup, rel)
            for rel in self.removes:
                _set_aside(self.out, self.backup, rel)
            _write_json_atomically(self.out / JOURNAL, {**journal, "state": "committed"})
        except OSError as exc:
            failed = Path(exc.filename) if exc.filename else self.out
            try:
                recover(self.out)
            finally:
                self.discard()
            raise ContentError([os_problem(_shown(self.out, self.stage, failed), exc)]) from None
        _clean_up(self.out, journal)
        self.release()


def _shown(out: Path, stage: Path, path: Path) -> Path:
    """The path a user knows: a staged file is shown where it was going."""
    try:
        return out / path.relative_to(stage)
    except ValueError:
        return path


def _move_in(out: Path, stage: Path, backup: Path, rel: str) -> None:
    _set_aside(out, backup, rel)
    os.replace(stage / rel, out / rel)


def _set_aside(out: Path, backup: Path, rel: str) -> None:
    """The file at rel (if any) into the backup folder: a roll-back puts it back, the clean-up drops it."""
    final = out / rel
    if final.exists() or final.is_symlink():
        (backup / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(final, backup / rel)


def _roll_back(out: Path, journal: dict) -> None:
    """Undo a commit in reverse; each step is a rename back, so running it twice does no harm."""
    stage, backup = out / journal["stage"], out / journal["backup"]
    for rel in reversed(journal.get("removes", [])):
        if (backup / rel).exists() or (backup / rel).is_symlink():
            os.replace(backup / rel, out / rel)  # its folder is still there: folders go only in the clean-up
    for rel in reversed(journal["moves"]):
        final, staged, saved = out / rel, stage / rel, backup / rel
        if not staged.exists() and (final.exists() or final.is_symlink()):  # the new file was moved in
            staged.parent.mkdir(parents=True, exist_ok=True)
            os.replace(final, staged)  # the new file goes back where it came from
        if saved.exists() or saved.is_symlink():
            os.replace(saved, final)
    for rel in sorted(journal.get("dirs", []), key=len, reverse=True):
        try:
            (out / rel).rmdir()  # only folders the commit made, and only when empty again
        except OSError:
            pass


def _clean_up(out: Path, journal: dict) -> None:
    shutil.rmtree(out / journal["backup"], ignore_errors=True)
    shutil.rmtree(out / journal["stage"], ignore_errors=True)
    for rel in journal.get("removes", []):
        _prune(out, rel)
    (out / JOURNAL).unlink(missing_ok=True)


def _prune(out: Path, rel: str) -> None:
    """The folders a removed file leaves empty, up to (not including) its game's folder; a folder that
    still holds anything (a user's file) stays, and so do its parents."""
    for folder in list(Path(rel).parents)[:-2]:
        try:
            (out / folder).rmdir()
        except OSError:
            return


def recover(out: Path) -> None:
    """Finish what a killed build left: roll its commit back or forward, and remove its temporary files."""
    path = out / JOURNAL
    if path.is_file():
        try:
            journal = json.loads(path.read_text(encoding="utf-8"))
            state = journal["state"]
        except (ValueError, KeyError, TypeError):
            raise ContentError([Problem(Pos(str(path)), "expected a journal of an interrupted build, found "
                                                        "something else (remove it by hand)")]) from None
        try:
            if state == "committing":
                _roll_back(out, journal)
            _clean_up(out, journal)
        except OSError as exc:
            raise ContentError([os_problem(exc.filename or out, exc)]) from None
    for leftover in out.glob(".printkit-*"):
        pid = leftover.name.rsplit("-", 1)[-1]
        stale = leftover.name.startswith((STAGE_PREFIX, BACKUP_PREFIX)) and (
            not pid.isdigit() or int(pid) == os.getpid() or not _alive(int(pid)))
        if stale:
            shutil.rmtree(leftover, ignore_errors=True)
    for tmp in out.glob(f"{JOURNAL}.tmp*"):
        tmp.unlink(missing_ok=True)


def check_out(out: Path) -> None:
    """The output folder exists (made when missing) and is a folder."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ContentError([Problem(Pos(str(out)), "expected a folder for the output, found a file")]) from None
    except OSError as exc:
        raise ContentError([os_problem(out, exc, "a folder we can write for the output")]) from None
    if not out.is_dir():
        raise ContentError([Problem(Pos(str(out)), "expected a folder for the output, found a file")])


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
    kept: bool = False  # the file on the disk was already this one: not written (not in the manifest)

    def entry(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "kept"}


@dataclass
class Staged:
    tmp: Path
    meta: dict
    key: str = ""  # the key of its inputs (none for piece images)
    drawn: Drawn = field(default_factory=Drawn)  # what it added to the fit report


class Stage:
    """A build's files, written in a stage folder of the output folder and committed together
    (staging.Staging: a journal makes the commit all-or-nothing even when the build is killed).
    A worker of the build draws into the same folder through a stage of its own (`worker`)."""

    def __init__(self, out: Path, back_offset: tuple[float, float] = (0.0, 0.0), folder: Path | None = None):
        self.out = out
        self.back_offset = back_offset
        self.files: list[Staged] = []
        self.staged: dict[str, None] = {}  # every file to move in, in order: the files and the fingerprints
        self.changed: dict[str, list[PieceKey]] = {}  # per game: the pieces changed since --changed-since
        self.staging = None if folder else Staging(out)
        if self.staging:
            self.staging.open()
        self.folder = folder or self.staging.stage

    def tmp(self, rel: str) -> Path:
        with self.writing(rel):
            path = self.folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            self.staged.setdefault(rel, None)
            return path

    @contextmanager
    def writing(self, rel: str) -> Iterator[None]:
        """A failure of the disk while a file is staged is a problem at the file's place in the output."""
        try:
            yield
        except OSError as exc:
            raise ContentError([os_problem(self.out / rel, exc)]) from None

    def writer(self, rel: str, title: str, subject: str, duplex: bool) -> Writer:
        from .write import Writer
        return Writer(self.tmp(rel), title, subject, duplex, self.back_offset)

    def add_bytes(self, rel: str, data: bytes, meta: dict) -> None:
        tmp = self.tmp(rel)
        with self.writing(rel):
            tmp.write_bytes(data)
        self.files.append(Staged(tmp, {"path": rel, "pages": 0, **meta}))

    def add_zip(self, rel: str, members: list[str], meta: dict) -> None:
        """A zip of files staged in this build, named in it relative to the zip's folder."""
        staged = {f.meta["path"]: f.tmp for f in self.files}
        folder = rel.rsplit("/", 1)[0] + "/"
        tmp = self.tmp(rel)
        with self.writing(rel):
            from .write import write_zip
            write_zip(tmp, [(m.removeprefix(folder), staged[m]) for m in members])
        self.files.append(Staged(tmp, {"path": rel, "pages": 0, **meta}))

    def add(self, w: Writer, rel: str, meta: dict) -> None:
        with self.writing(rel):
            self.files.append(Staged(w.finish(), {"path": rel, **meta, "pages": w.pages}))

    def merge(self, other: "Stage") -> None:
        """What a unit drew, in the order it drew it."""
        self.files += other.files
        self.staged.update(other.staged)
        self.changed.update(other.changed)

    def discard(self) -> None:
        if self.staging:
            self.staging.discard()

    def _unchanged(self, f: Staged, sha: str, records: Records) -> bool:
        """The file on the disk already has these bytes: the staged copy is dropped and the file left alone."""
        final = self.out / f.meta["path"]
        return final.is_file() and file_sha(final) == sha

    def _stage_text(self, rel: str, text: str) -> None:
        """A file of the build's own (manifest, fit report, records), staged only when its text changes."""
        final = self.out / rel
        try:
            if final.is_file() and final.read_text(encoding="utf-8") == text:
                return
        except (OSError, UnicodeDecodeError):
            pass
        with self.writing(rel):
            self.tmp(rel).write_text(text, encoding="utf-8")

    def commit(self, fit_report: str | None = None, kept: list[dict] = (), records: Records | None = None,
               removes: list[str] = ()) -> list[OutputFile]:
        """The manifest (and fit report, and the records of what was drawn) staged with the files, then all of
        them moved in at once, and the earlier files the build no longer makes (`removes`) taken out with
        them; files whose bytes are already on the disk are left as they are."""
        try:
            return self._commit(fit_report, kept, records or Records(self.out), removes)
        except BaseException:  # whatever fails leaves no stage behind and lets the next build in
            self.discard()
            raise

    def _commit(self, fit_report: str | None, kept: list[dict], records: Records, removes: list[str]) -> list[OutputFile]:
        for rel in removes:
            records.files.pop(rel, None)
        done = []
        for f in self.files:
            rel = f.meta["path"]
            with self.writing(rel):
                sha = file_sha(f.tmp) or ""
                same = self._unchanged(f, sha, records)
                out_file = OutputFile(sha256=sha, **f.meta, kept=same)
                records.keep(rel, f.key, out_file.entry(), f.drawn)
                if same:
                    f.tmp.unlink()
                    del self.staged[rel]
            done.append(out_file)
        done += [OutputFile(**e, kept=True) for e in kept]
        manifest = manifest_text(self.out, [f.entry() for f in done], removes)
        self._stage_text("manifest.json", manifest)
        if fit_report is not None:
            self._stage_text("fit-report.md", fit_report)
            records.texts = {rel: hashlib.sha256(text.encode()).hexdigest()
                             for rel, text in (("manifest.json", manifest), ("fit-report.md", fit_report))}
            self._stage_text(CACHE_FILE, records.text())
        if not self.staged and not removes:  # nothing changed: nothing written
            self.discard()
            return done
        self.staging.staged, self.staging.removes = dict(self.staged), list(removes)
        self.staging.commit()
        return done
