"""End-to-end builds of the fixture game: determinism, the manifest contract, the CLI's other commands."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import FIXTURES, mini_roots
from pdfcheck import text
from printkit.build import Settings, build
from printkit.content.model import KINDS, Game
from printkit.errors import ContentError

MANIFEST_KEYS = {"path", "game", "component", "kind", "paper", "lang", "pages", "items", "sha256"}


def digests(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*")) if p.is_file()}


def test_two_builds_are_byte_identical(tmp_path, mini_build):
    again = tmp_path / "again"
    build(Settings(roots=mini_roots(), out=again), ["mini"])
    assert digests(again) == digests(mini_build)


def test_manifest_lists_every_file_with_the_contract_fields(mini_build):
    manifest = json.loads((mini_build / "manifest.json").read_text())
    files = manifest["files"]
    on_disk = {str(p.relative_to(mini_build)) for p in mini_build.rglob("*.pdf")}
    assert {f["path"] for f in files} == on_disk
    for f in files:
        assert set(f) == MANIFEST_KEYS
        pdf = mini_build / f["path"]
        assert hashlib.sha256(pdf.read_bytes()).hexdigest() == f["sha256"]
        assert len(PdfReader(str(pdf)).pages) == f["pages"]
        assert f["game"] == "mini"
    by_name = {f["path"]: f for f in files}
    deck = by_name["mini/a4/deck.pdf"]
    assert (deck["component"], deck["kind"], deck["paper"], deck["lang"], deck["items"]) == ("deck", "deck", "a4", None, 5)
    assert by_name["mini/letter/tokens.pdf"]["items"] == 3
    kits = [f for f in files if f["component"] == "kit"]
    assert sorted((k["paper"], k["lang"]) for k in kits) == [(p, l) for p in ("a4", "letter") for l in ("de", "en", "fr")]
    assert all(k["kind"] == "kit" for k in kits)
    assert by_name["mini/a4/sheet.fr.pdf"]["lang"] == "fr"
    assert by_name["mini/poster/board-poster.pdf"]["paper"] == "a2"


def test_numbers_and_quotes_follow_each_language(mini_build):
    assert "0.5 point" in text(mini_build / "mini" / "a4" / "sheet.en.pdf")
    fr = text(mini_build / "mini" / "a4" / "sheet.fr.pdf")
    de = text(mini_build / "mini" / "a4" / "sheet.de.pdf")
    assert "0,5 point" in fr and "Limite de main : 5" in fr and "égalité !" in fr
    assert "0,5 Punkte" in de and "\u201eUnentschieden\u201c" in de


def test_gutterfold_layout_is_available(tmp_path):
    out = tmp_path / "fold"
    build(Settings(roots=mini_roots(), out=out, papers=("a4",), langs=("en",), layout="gutterfold", poster=False), ["mini"])
    deck = out / "mini" / "a4" / "deck-gutterfold.pdf"
    reader = PdfReader(str(deck))
    assert len(reader.pages) == 2  # 5 cards, 4 fronts (with their backs) per sheet
    box = reader.pages[0].mediabox
    assert abs(float(box.width) * 25.4 / 72 - 297) < 0.05  # landscape A4


def test_paper_and_language_narrow_the_build(tmp_path):
    out = tmp_path / "narrow"
    written = build(Settings(roots=mini_roots(), out=out, papers=("letter",), langs=("de",), poster=False), ["mini"])
    assert {f.paper for f in written} == {"letter"}
    assert {f.lang for f in written} == {None, "de"}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, capture_output=True, text=True)


def test_shipped_games_validate_from_any_folder(tmp_path):
    result = cli("validate", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "rep-detect: valid" in result.stdout


def test_list_shows_games_components_and_piece_counts(tmp_path):
    result = cli("list", "--content", str(FIXTURES / "content"), "--templates", str(FIXTURES / "templates"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if "mini" in line]
    assert any("deck" in r and " 5 " in r for r in rows)
    assert any("tokens" in r and "standee" in r and " 3 " in r for r in rows)


def test_schema_is_json_schema_with_every_field_documented(tmp_path):
    result = cli("schema", cwd=tmp_path)
    assert result.returncode == 0
    body = json.loads(result.stdout)
    assert set(body["components"]) == set(KINDS)

    def undocumented(schema: dict, where: str) -> list[str]:
        missing = []
        defs = schema.get("$defs", {})
        for name, node in [(where, schema), *defs.items()]:
            for field, spec in node.get("properties", {}).items():
                if not spec.get("description"):
                    missing.append(f"{name}.{field}")
        return missing

    assert undocumented(body["game.yaml"], "game") == []
    for kind, schema in body["components"].items():
        assert undocumented(schema, kind) == []
    assert Game.model_json_schema()["properties"]["rules"]["description"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_assembly_text_in_every_language(kind):
    from printkit.layout.guide import entry_kind
    from printkit.content.i18n import LANGS, engine_catalogs

    catalogs = engine_catalogs()
    model = KINDS[kind].model_construct(kind=kind)
    for tiled in (False, True):
        for lang in LANGS:
            assert catalogs.get(lang, f"guide.kind.{entry_kind(model, tiled)}").strip(), (kind, lang)


def test_the_same_game_from_another_folder_gives_identical_files(tmp_path, repdetect_build):
    import shutil

    from printkit.content.paths import Roots

    repo = Path(__file__).resolve().parents[1]
    shutil.copytree(repo / "content" / "rep-detect", tmp_path / "content" / "rep-detect")
    for name in ("rep-detect", "board-graph"):
        shutil.copytree(repo / "templates" / name, tmp_path / "templates" / name)
    out = tmp_path / "out"
    build(Settings(roots=Roots.default(tmp_path / "content", tmp_path / "templates"), out=out, papers=("a4",),
                   langs=("en",), kits=False, poster=False, gutterfold=False), ["rep-detect"])
    for name in ("draw-deck.en.pdf", "reference-cards.en.pdf", "board.en.pdf", "rules-summary.en.pdf"):
        mine = (out / "rep-detect" / "a4" / name).read_bytes()
        assert mine == (repdetect_build / "rep-detect" / "a4" / name).read_bytes(), name


def test_build_all_leaves_out_draft_games_that_validate_still_checks(mini_copy, tmp_path):
    import shutil

    from printkit.content.paths import Roots

    shutil.rmtree(mini_copy / "hexmini")  # another fixture game; this test is about mini and its draft copy
    shutil.copytree(mini_copy / "mini", mini_copy / "wip")
    game = mini_copy / "wip" / "game.yaml"
    game.write_text(game.read_text().replace("id: mini", "id: wip") + "status: draft\n")
    roots = Roots.default(mini_copy, FIXTURES / "templates")
    assert roots.games() == ["mini", "wip"]
    assert roots.ready_games() == ["mini"]
    result = cli("build", "--content", str(mini_copy), "--templates", str(FIXTURES / "templates"), "--paper", "a4",
                 "--lang", "en", "--no-kit", "--no-poster", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert {p.name for p in (tmp_path / "out").iterdir() if p.is_dir()} == {"mini"}


def test_a_game_title_given_per_language_heads_that_languages_pages(mini_copy, tmp_path):
    titles = {"en": "Mini: a test game", "fr": "Mini : un jeu d'essai", "de": "Mini: ein Testspiel"}
    for lang, title in titles.items():
        catalog = mini_copy / "mini" / "i18n" / f"{lang}.yaml"
        catalog.write_text(catalog.read_text() + f'kit:\n  title: "{title}"\n')
    out = tmp_path / "out"
    build(Settings(roots=mini_roots(mini_copy), out=out, papers=("a4",)), ["mini"])
    fr_kit, de_sheet = text(out / "mini" / "a4" / "mini-kit.fr.pdf"), text(out / "mini" / "a4" / "sheet.de.pdf")
    fr_kit = fr_kit.replace("\u00a0", " ")
    assert fr_kit.count("Mini : un jeu d'essai") >= 3 and "a test game" not in fr_kit  # title, heading, running head
    assert "Mini: ein Testspiel" in de_sheet and "a test game" not in de_sheet
    assert "Mini: a test game" in text(out / "mini" / "a4" / "mini-kit.en.pdf")


def test_a_kit_whose_drawing_disagrees_with_its_plan_is_an_error_not_a_wrong_guide(tmp_path, monkeypatch):
    import printkit.layout.kit as kit_module

    real = kit_module.planned_pages  # the text sheet prints on pages of its own (not ganged)
    monkeypatch.setattr(kit_module, "planned_pages",
                        lambda content, comp, *args: real(content, comp, *args) + (comp.stem == "sheet"))
    with pytest.raises(ContentError) as info:
        build(Settings(roots=mini_roots(), out=tmp_path / "out", papers=("a4",), langs=("en",), parts=False,
                       poster=False), ["mini"])
    found = [str(p) for p in info.value.problems]
    assert len(found) == 1 and "expected sheet to take the" in found[0] and "(a4, en), found" in found[0]
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))
