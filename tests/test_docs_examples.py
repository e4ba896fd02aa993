"""Every example in the docs is built: docs and code cannot drift apart.

Each fenced block of docs/*.md says what it is in an HTML comment on the line before it (invisible
when the page is shown):

- `<!-- file: content/GAME/PATH -->` or `<!-- file: templates/GAME/PATH -->`: a whole file of the
  example game GAME. Every example game is built with `printkit build`, and must build cleanly.
- `<!-- errors-when: GAME | FILE | OLD | NEW -->`: the block is exactly the problems `printkit validate`
  and `printkit build` print for GAME once OLD is replaced by NEW in FILE (under the game's folder).
- `<!-- yaml: MODEL -->`: an excerpt (its `…` stand for what is left out): valid YAML whose keys are all
  known to the model's JSON Schema (`printkit schema`), so a renamed key fails here.
- `<!-- shown -->`: a block that is not an example (a command line, a file layout, an output listing).

A block without a comment fails the test, so a new example cannot slip in unbuilt.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
DOCS = sorted((REPO / "docs").glob("*.md")) + [REPO / "README.md"]
MARKER = re.compile(r"^<!--\s*(file|errors-when|yaml|shown)\s*:?\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```")
PROBLEM = re.compile(r"^[^\s:]+:\d+:\d+: ")  # a problem line; the count after them is not one


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # of the opening fence, 1-based
    marker: str | None
    arg: str
    text: str


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with the marker comment on the line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        indent = len(fence.group(1))
        end = next(j for j in range(i + 1, len(lines)) if FENCE.match(lines[j]))
        body = "\n".join(line[indent:] for line in lines[i + 1:end]) + "\n"
        before = MARKER.match(lines[i - 1].strip()) if i else None
        found.append(Block(path.name, i + 1, before.group(1) if before else None, before.group(2) if before else "", body))
        i = end + 1
    return found


ALL = [b for doc in DOCS for b in blocks(doc)]


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def example_games(root: Path) -> dict[str, Path]:
    """Write every `file:` block under root/content and root/templates; the games they make."""
    games: dict[str, Path] = {}
    seen: dict[str, Block] = {}
    for b in ALL:
        if b.marker != "file":
            continue
        assert b.arg not in seen, f"{b.doc}:{b.line}: {b.arg} is also given at {seen[b.arg].doc}:{seen[b.arg].line}"
        seen[b.arg] = b
        top, game, *rest = b.arg.split("/")
        assert top in ("content", "templates") and rest, f"{b.doc}:{b.line}: expected content/GAME/… or templates/GAME/…"
        target = root / b.arg
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(b.text, encoding="utf-8")
        (root / "templates" / game).mkdir(parents=True, exist_ok=True)
        games[game] = root
    return games


def test_every_block_of_the_docs_says_what_it_is():
    unmarked = [f"{b.doc}:{b.line}" for b in ALL if b.marker is None]
    assert unmarked == []
    assert sum(b.marker == "file" for b in ALL) >= 10  # the docs' examples are files of example games


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, subprocess.CompletedProcess]]:
    root = tmp_path_factory.mktemp("docs")
    games = example_games(root)
    results = {}
    for game in sorted(games):
        results[game] = run_cli("build", game, "--content", "content", "--templates", "templates", "--out", f"out-{game}",
                                "--paper", "a4", "--no-gutterfold", cwd=root)
    return root, results


def test_every_example_game_of_the_docs_builds(built):
    root, results = built
    assert results, "no example game in the docs"
    failed = {game: r.stderr for game, r in results.items() if r.returncode != 0}
    assert failed == {}
    for game in results:
        files = json.loads((root / f"out-{game}" / "manifest.json").read_text(encoding="utf-8"))["files"]
        kits = [f for f in files if f["game"] == game and f["component"] == "kit"]
        assert kits and all(f["pages"] > 1 and (root / f"out-{game}" / f["path"]).is_file() for f in kits), game


def cases(b: Block) -> tuple[str, list[tuple[str, str, str]]]:
    """The game of an `errors-when` block, and its cases: (file, old, new), each run on its own."""
    game, _, rest = b.arg.partition("|")
    found = []
    for case in rest.split(";;"):
        file, old, new = (part.strip() for part in case.split("|"))
        found.append((file, old, new.replace("\\n", "\n")))
    return game.strip(), found


def matches(printed: list[str], shown: list[str]) -> bool:
    """The lines printed are the lines shown; a shown line ending in `…` stands for every line it begins."""
    if len(printed) != len(shown):
        return False
    rest = sorted(printed)
    for line in sorted(shown, key=lambda s: (not s.endswith("…"), s), reverse=True):
        prefix = line[:-1] if line.endswith("…") else None
        hit = next((p for p in rest if (p.startswith(prefix) if prefix is not None else p == line)), None)
        if hit is None:
            return False
        rest.remove(hit)
    return True


def test_every_error_shown_in_the_docs_is_what_printkit_prints(built, tmp_path):
    root, _ = built
    shown = [b for b in ALL if b.marker == "errors-when"]
    assert shown
    for b in shown:
        game, changes = cases(b)
        # validate draws the whole build in a throwaway folder: its verdict is build's (test_hardened_content)
        printed: dict[str, list[str]] = {"validate": []}
        for n, (file, old, new) in enumerate(changes):
            case = tmp_path / f"{b.doc}-{b.line}-{n}"
            for top in ("content", "templates"):
                shutil.copytree(root / top / game, case / top / game)
            target = case / file
            source = target.read_text(encoding="utf-8")
            assert source.count(old) == 1, f"{b.doc}:{b.line}: {old!r} is not once in {file}"
            target.write_text(source.replace(old, new), encoding="utf-8")
            for command in printed:
                result = run_cli(command, game, "--content", "content", "--templates", "templates", cwd=case)
                assert result.returncode == 2, f"{b.doc}:{b.line}: {command} {result.stderr}"
                printed[command] += [line for line in result.stderr.splitlines() if PROBLEM.match(line)]
        for command, lines in printed.items():
            assert matches(lines, b.text.splitlines()), f"{b.doc}:{b.line}: {command} printed {lines}"


def _schema_keys(schema: dict, defs: dict) -> set[str]:
    """Every property name a JSON Schema knows, anywhere in it."""
    keys: set[str] = set()
    stack: list = [schema, *defs.values()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys |= set(node.get("properties", {}))
            stack += list(node.values())
        elif isinstance(node, list):
            stack += node
    return keys


def test_every_excerpt_in_the_docs_is_yaml_with_known_keys(tmp_path):
    made = run_cli("schema", "--out", str(tmp_path), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    excerpts = [b for b in ALL if b.marker == "yaml"]
    assert excerpts
    for b in excerpts:
        schema = json.loads((tmp_path / f"{b.arg}.schema.json").read_text(encoding="utf-8"))
        known = _schema_keys(schema, schema.get("$defs", {}))
        data = yaml.safe_load(b.text)
        mappings = data if isinstance(data, list) else [data]  # a list: entries of a list the schema knows
        assert mappings and all(isinstance(m, dict) for m in mappings), f"{b.doc}:{b.line}"
        unknown = sorted({k for m in mappings for k in m if k not in known})
        assert unknown == [], f"{b.doc}:{b.line}"
