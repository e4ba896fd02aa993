"""Shared fixtures: small games made for the tests, and builds shared across test modules."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from printkit.build import Settings, build
from printkit.content.paths import Roots

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The parsed-content cache in a folder of this test run, never the user's own (builds run by
    subprocess inherit it too)."""
    folder = tmp_path_factory.mktemp("printkit-cache")
    previous = os.environ.get("PRINTKIT_CACHE")
    os.environ["PRINTKIT_CACHE"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("PRINTKIT_CACHE", None)
    else:
        os.environ["PRINTKIT_CACHE"] = previous


def mini_roots(content: Path | None = None) -> Roots:
    return Roots.default(content or FIXTURES / "content", FIXTURES / "templates")


def game_copy(tmp_path: Path, game: str) -> Path:
    """A writable copy of a shipped game's content, for tests that break it on purpose."""
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[1] / "content" / game, content / game)
    return content


@pytest.fixture()
def mini_copy(tmp_path: Path) -> Path:
    """A writable copy of the fixture content, for tests that break it on purpose."""
    target = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", target)
    return target


@pytest.fixture(scope="session")
def mini_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mini-out")
    build(Settings(roots=mini_roots(), out=out), ["mini"])
    return out


@pytest.fixture(scope="session")
def repdetect_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rep-detect-out")
    build(Settings(roots=Roots.default(), out=out), ["rep-detect"])
    return out


@pytest.fixture(scope="session")
def run_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run-out")
    build(Settings(roots=Roots.default(), out=out), ["run"])
    return out


@pytest.fixture(scope="session")
def full_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`printkit build all`: every shipped game, both papers, every language, parts, kits and posters."""
    out = tmp_path_factory.mktemp("full-out")
    roots = Roots.default()
    build(Settings(roots=roots, out=out), roots.ready_games())
    return out
