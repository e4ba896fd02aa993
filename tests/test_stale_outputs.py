"""A file a build no longer makes leaves the output folder, the manifest and the records (a player might
print it): a component localised or renamed, an old reprint, a pseudo-language kit. Only within the build's
selection (its games, papers, languages; images only with --images), never a user's own file, never on a
failing build, a dry run or a rebuild with nothing changed, and all or nothing like the rest of the commit."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, mini_roots
from outputcheck import killed_at, leftovers, manifest_mismatches, snapshot
from printkit import staging
from printkit.build import Settings, build
from printkit.cli import app
from printkit.errors import ContentError
from printkit.incremental import Selection

A4_EN = {"papers": ("a4",), "langs": ("en",)}


def mini(content: Path, out: Path, **kw) -> Settings:
    return Settings(roots=mini_roots(content), out=out, **{**A4_EN, **kw})


def run(content: Path, out: Path, **kw) -> list[str]:
    removed: list[str] = []
    build(mini(content, out, **kw), ["mini"], removed=removed)
    return removed


def listed(out: Path) -> set[str]:
    return {e["path"] for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


def recorded(out: Path) -> set[str]:
    return set(json.loads((out / ".printkit-cache.json").read_text(encoding="utf-8"))["files"])


def rename_hexes(content: Path) -> None:
    """The component `hexes` becomes `hexagons` (its file and its place in game.yaml)."""
    game = content / "mini" / "game.yaml"
    game.write_text(game.read_text().replace("hexes,", "hexagons,"))
    (content / "mini" / "hexes.yaml").rename(content / "mini" / "hexagons.yaml")


def assert_gone(out: Path, *rels: str) -> None:
    for rel in rels:
        assert not (out / rel).exists() and rel not in listed(out) and rel not in recorded(out), rel


def test_localising_a_component_removes_its_language_free_files(mini_copy, tmp_path):
    out = tmp_path / "out"
    assert run(mini_copy, out) == []
    deck = mini_copy / "mini" / "deck.yaml"
    deck.write_text(deck.read_text().replace("title: Mini deck\n", "title: Mini deck\nlocalised: true\n"))
    assert run(mini_copy, out) == ["mini/a4/deck-gutterfold.pdf", "mini/a4/deck.pdf"]
    assert_gone(out, "mini/a4/deck.pdf", "mini/a4/deck-gutterfold.pdf")
    assert (out / "mini/a4/deck.en.pdf").is_file() and "mini/a4/deck.en.pdf" in listed(out)
    assert manifest_mismatches(out) == [] and leftovers(out) == []


def test_renaming_a_component_removes_its_old_file_and_the_cli_says_so(mini_copy, tmp_path):
    out = tmp_path / "out"
    args = ["build", "mini", "--paper", "a4", "--lang", "en", "--out", str(out), "--content", str(mini_copy),
            "--templates", str(FIXTURES / "templates"), "-j", "1"]
    assert CliRunner().invoke(app, args).exit_code == 0
    rename_hexes(mini_copy)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "removed 1 file(s) a build no longer makes: mini/a4/hexes.pdf\n" in result.output
    assert_gone(out, "mini/a4/hexes.pdf")
    assert (out / "mini/a4/hexagons.pdf").is_file()


def test_a_build_of_one_paper_or_language_keeps_the_others_files(mini_copy, tmp_path):
    out = tmp_path / "out"
    run(mini_copy, out, papers=("a4", "letter"), langs=None)
    rename_hexes(mini_copy)
    sheet = mini_copy / "mini" / "game.yaml"  # a localised component renamed too: sheet.<lang>.pdf
    sheet.write_text(sheet.read_text().replace("sheet]", "rules]"))
    (mini_copy / "mini" / "sheet.yaml").rename(mini_copy / "mini" / "rules.yaml")
    assert run(mini_copy, out, papers=("a4",), langs=("fr",)) == ["mini/a4/hexes.pdf", "mini/a4/sheet.fr.pdf"]
    kept = ["mini/letter/hexes.pdf", "mini/letter/sheet.fr.pdf", "mini/a4/sheet.en.pdf", "mini/a4/sheet.de.pdf",
            "mini/poster/board-poster.pdf"]
    assert all((out / rel).is_file() and rel in listed(out) for rel in kept)
    assert run(mini_copy, out, papers=("a4", "letter"), langs=None) == [
        "mini/a4/sheet.de.pdf", "mini/a4/sheet.en.pdf", "mini/letter/hexes.pdf", "mini/letter/sheet.de.pdf",
        "mini/letter/sheet.en.pdf", "mini/letter/sheet.fr.pdf"]
    assert manifest_mismatches(out) == []


def test_a_users_own_files_stay(mini_copy, tmp_path):
    out = tmp_path / "out"
    run(mini_copy, out)
    mine = ["notes.txt", "mini/a4/hexes-annotated.pdf", "mini/a4/mine/plan.pdf", "mini/my-notes.md"]
    for rel in mine:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text("mine")
    rename_hexes(mini_copy)
    assert run(mini_copy, out) == ["mini/a4/hexes.pdf"]
    assert all((out / rel).read_text() == "mine" for rel in mine)


def test_a_manifest_entry_outside_its_games_folder_is_never_removed(tmp_path):
    every = Selection(frozenset({"mini"}), frozenset({"a4"}), None, images=True, posters=True)
    for path in ("../mini/a4/x.pdf", "/etc/mini/a4/x.pdf", "mini/../a4/x.pdf", "other/a4/x.pdf", "mini/x.pdf"):
        assert not every.covers({"path": path, "game": "mini", "kind": "deck", "paper": "a4", "lang": None}), path
    assert every.covers({"path": "mini/a4/x.pdf", "game": "mini", "kind": "deck", "paper": "a4", "lang": None})


def test_a_build_answers_only_for_the_kinds_of_file_it_makes():
    def entry(path: str, kind: str = "deck", paper: str | None = "a4", lang: str | None = None,
              component: str = "deck") -> dict:
        return {"path": path, "game": "mini", "kind": kind, "paper": paper, "lang": lang, "component": component}

    a4 = Selection(frozenset({"mini"}), frozenset({"a4"}), frozenset({"fr"}))
    bare = Selection(frozenset({"mini"}), frozenset({"a4"}), None, parts=False, gutterfold=False, kits=False)
    kit, fold = entry("mini/a4/mini-kit.fr.pdf", "kit", lang="fr", component="kit"), entry("mini/a4/deck-gutterfold.pdf")
    reprint = entry("mini/a4/mini-changed.pdf", "reprint", component="changed")
    image, poster = entry("mini/images/deck/001-ada-front.png", "image", None), entry("mini/poster/b-poster.pdf", paper="a2")
    assert [a4.covers(e) for e in (kit, fold, reprint, image, poster)] == [True, True, True, False, False]
    assert [bare.covers(e) for e in (kit, fold, reprint, image, poster)] == [False, False, True, False, False]
    assert not a4.covers(entry("mini/a4/sheet.en.pdf", lang="en")) and a4.covers(entry("mini/a4/sheet.fr.pdf", lang="fr"))
    assert not a4.covers(entry("mini/letter/deck.pdf", paper="letter"))
    assert Selection(frozenset({"mini"}), frozenset({"a4"}), None, images=True, posters=True).covers(image)


def test_a_failing_build_a_dry_run_and_a_rebuild_with_nothing_changed_remove_nothing(mini_copy, tmp_path):
    out = tmp_path / "out"
    run(mini_copy, out)
    before = snapshot(out)
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert run(mini_copy, out) == [] and run(mini_copy, out, jobs=2) == []
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == mtimes  # nothing written either
    rename_hexes(mini_copy)
    removed: list[str] = []
    assert build(mini(mini_copy, out), ["mini"], dry_run=True, removed=removed) == [] and removed == []
    deck = mini_copy / "mini" / "deck.yaml"
    deck.write_text(deck.read_text() + "  - {title: [broken\n")
    with pytest.raises(ContentError):
        build(mini(mini_copy, out), ["mini"], removed=removed)
    assert removed == [] and snapshot(out) == before


def test_a_build_without_images_keeps_the_earlier_images(mini_copy, tmp_path):
    out = tmp_path / "out"
    run(mini_copy, out, images=True)
    images = sorted(str(p.relative_to(out)) for p in out.glob("mini/*/hexes/*.png"))
    assert images
    rename_hexes(mini_copy)
    assert run(mini_copy, out) == ["mini/a4/hexes.pdf"]
    assert all((out / rel).is_file() and rel in listed(out) for rel in images)
    assert run(mini_copy, out, images=True) == images
    assert not list(out.glob("mini/*/hexes")) and (out / "mini/images").is_dir()  # emptied folders go too
    assert manifest_mismatches(out) == []


def test_an_old_reprint_and_a_pseudo_kit_go_with_the_next_build(mini_copy, tmp_path):
    out = tmp_path / "out"
    run(mini_copy, out)
    run(mini_copy, out, pseudo=True)
    discs = mini_copy / "mini" / "discs.yaml"
    discs.write_text(discs.read_text().replace("{n: 2, qty: 5}", "{n: 3, qty: 5}"))
    run(mini_copy, out, changed_since="last")  # language-free: an en build keeps the qps kit
    assert (out / "mini/a4/mini-changed.pdf").is_file() and (out / "mini/a4/mini-kit.qps.pdf").is_file()
    removed = run(mini_copy, out, langs=None)
    assert "mini/a4/mini-changed.pdf" in removed and "mini/a4/mini-kit.qps.pdf" in removed
    assert_gone(out, "mini/a4/mini-changed.pdf", "mini/a4/mini-kit.qps.pdf")


def test_a_build_killed_while_removing_leaves_the_whole_old_or_the_whole_new_output(mini_copy, tmp_path):
    settings = {"kits": False, "gutterfold": False, "poster": False}
    old = tmp_path / "old"
    run(mini_copy, old, **settings)
    rename_hexes(mini_copy)
    new = tmp_path / "new"
    shutil.copytree(old, new)
    assert run(mini_copy, new, **settings) == ["mini/a4/hexes.pdf"]
    old_files, new_files = snapshot(old), snapshot(new)
    outcomes, step = [], 1
    while True:
        out = tmp_path / f"out{step}"
        shutil.copytree(old, out)
        died = killed_at(step, out, lambda: run(mini_copy, out, **settings))
        staging.recover(out)
        assert snapshot(out) in (old_files, new_files) and leftovers(out) == [], step
        outcomes.append("new" if snapshot(out) == new_files else "old")
        if not died:
            break
        step += 1
    assert outcomes[0] == "old" and outcomes[-1] == "new" and step > 10, step
    assert outcomes == sorted(outcomes, key=lambda o: o == "new")
