"""Every file of `printkit build all` opens cleanly in three independent PDF readers: MuPDF, poppler
and Ghostscript (the last two when installed; `.ci/run` installs them)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest


def files(out: Path) -> list[Path]:
    return [out / f["path"] for f in json.loads((out / "manifest.json").read_text())["files"]]


def test_mupdf_renders_every_file_without_a_warning(full_build):
    pymupdf.TOOLS.mupdf_display_warnings(False)
    warned = {}
    for path in files(full_build):
        pymupdf.TOOLS.reset_mupdf_warnings()
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_pixmap(dpi=8)
        said = pymupdf.TOOLS.mupdf_warnings().strip()
        if said:
            warned[str(path.relative_to(full_build))] = said.splitlines()[0]
    assert warned == {}


def complaints(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    said = (done.stdout + done.stderr).strip()
    return f"exit {done.returncode}: {said[:200]}" if done.returncode or said else ""


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_poppler_reads_every_file_without_a_complaint(full_build, tmp_path):
    said = {}
    for path in files(full_build):
        found = complaints(["pdftoppm", "-r", "4", "-gray", str(path), str(tmp_path / "p")])
        if found:
            said[path.name] = found
    assert said == {}


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript not installed")
def test_ghostscript_reads_every_file_without_a_complaint(full_build):
    said = {}
    for path in files(full_build):
        found = complaints(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", str(path)])
        if found:
            said[path.name] = found
    assert said == {}


BACKS = re.compile("\u00b7\\s+(back|verso|R\u00fcckseite)\\s+\u00b7")  # the footer of a page of backs


def test_only_files_with_backs_preset_the_print_dialog_to_duplex(full_build):
    from pypdf import PdfReader

    wrong = {}
    for path in files(full_build):
        with pymupdf.open(path) as doc:
            has_backs = any(BACKS.search(page.get_text()) for page in doc)
        prefs = PdfReader(str(path)).trailer["/Root"]["/ViewerPreferences"]
        duplex = prefs.get("/Duplex") == "/DuplexFlipLongEdge"
        if prefs["/PrintScaling"] != "/None" or duplex != has_backs:
            wrong[str(path.relative_to(full_build))] = (duplex, has_backs)
    assert wrong == {}
