"""The fingerprints to compare a build with: the last build's (kept in the output folder), or those of the
game as it was at a git revision (its content and templates read from git into a scratch folder)."""
from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ..content import Roots, load_game
from ..draw import TemplateProblem, use_game_fonts
from ..errors import ContentError, UsageError
from ..layout import Options
from .fingerprint import FACES_FILE, face_prints, read_faces


def faces_since(since: str, roots: Roots, game: str, out: Path, langs: list[str], opts: Options) -> dict[str, str]:
    """The fingerprints of `since`: "last" (the build in `out`) or a git revision of the game's repository."""
    if since == "last":
        kept = read_faces(out / game / FACES_FILE)
        if kept is None:
            raise UsageError(f"expected the fingerprints of an earlier build in {out / game / FACES_FILE} (build "
                             f"{game} once without --changed-since), found none")
        return kept
    return _at_revision(since, roots, game, langs, opts)


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"expected git to read an earlier version of the game, found {exc}") from None
    if done.returncode:
        raise UsageError(done.stderr.decode(errors="replace").strip().splitlines()[-1] if done.stderr else "git failed")
    return done.stdout


def _at_revision(rev: str, roots: Roots, game: str, langs: list[str], opts: Options) -> dict[str, str]:
    folder = roots.content / game
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], folder).decode().strip())
    except UsageError:
        raise UsageError(f"expected 'last' or a git revision, found {rev!r}, and {folder} is not in a git "
                         "repository") from None
    if not rev or rev.startswith("-"):
        raise UsageError(f"expected 'last' or a git revision of {top}, found {rev!r}")
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], top)
    except UsageError:
        raise UsageError(f"expected 'last' or a git revision of {top}, found {rev!r}") from None
    wanted = [p for p in (folder.resolve(), roots.templates.resolve()) if p.is_relative_to(top.resolve())]
    rels = [p.relative_to(top.resolve()).as_posix() for p in wanted]
    data = _git(["archive", "--format=tar", rev, "--", *rels], top)
    with tempfile.TemporaryDirectory(prefix="printkit-since-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        then = Roots(Path(tmp) / rels[0] if rels else folder,
                     Path(tmp) / rels[1] if len(rels) > 1 else roots.templates)
        then = Roots(then.content.parent, then.templates)
        try:
            content = load_game(then, game)
            use_game_fonts(content)
            prints = face_prints(content, langs, Options(opts.layout, opts.theme))
        except ContentError as exc:
            raise UsageError(f"expected the game as it was at {rev} to load, found {len(exc.problems)} problem(s): "
                             f"{exc.problems[0]}") from None
        except TemplateProblem as exc:
            raise UsageError(f"expected the game's templates as they were at {rev} to draw, found {exc}") from None
        return {k.key: v for k, v in prints.items()}
