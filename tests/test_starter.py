"""`printkit new`: a starter game, in an empty folder, that builds as it is with the shared kind templates."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pdfcheck import text

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_new_writes_a_game_that_builds_out_of_the_box(tmp_path):
    made = cli("new", "demo", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "printkit build demo --content content" in made.stderr
    built = cli("build", "demo", "--content", "content", "--paper", "a4", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    kit = text(tmp_path / "output" / "demo" / "a4" / "demo-kit.en.pdf")
    assert all(title in kit for title in ("Run", "Jump", "Trade", "Rest", "Wild"))
    assert "Mon nouveau jeu" in text(tmp_path / "output" / "demo" / "a4" / "demo-kit.fr.pdf")
    again = cli("new", "demo", cwd=tmp_path)
    assert again.returncode == 2 and "already there" in again.stderr
    other = cli("new", "other", "--dir", str(tmp_path / "elsewhere"), cwd=tmp_path)
    assert other.returncode == 0 and (tmp_path / "elsewhere" / "content" / "other" / "cards.csv").is_file()
