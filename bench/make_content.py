"""Write the reference workload (deck60 / deck6000) as a printkit game.

    python bench/make_content.py OUT_DIR [--n 60|6000]

writes OUT_DIR/content/deck<n>/{game,deck}.yaml and OUT_DIR/templates/deck<n>/{front,back}.svg.j2.
The card data comes from the shared `workload.make_cards(n)`; the templates reproduce the
workload's card layout (its numbers, in mm, with font sizes in pt) in printkit's SVG conventions.
The shared folder is `<repo>/../shared/bench`, or $PRINTKIT_SHARED_BENCH when set.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import yaml

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """The folder holding workload.py, deck_bare_rl.py and deck_protograf.py."""
    env = os.environ.get("PRINTKIT_SHARED_BENCH")
    return Path(env).resolve() if env else (REPO.parent / "shared" / "bench").resolve()


def load_workload() -> ModuleType:
    folder = shared_dir()
    if not (folder / "workload.py").is_file():
        sys.exit(f"expected workload.py in {folder} (set PRINTKIT_SHARED_BENCH), found none")
    sys.path.insert(0, str(folder))
    import workload  # noqa: PLC0415 - located at run time

    return workload


def front_svg(W: ModuleType) -> str:
    """The workload's front: outline, coloured title bar, title, type line, body box, value."""
    bx, by, bw, bh = W.BAR
    x, y, w, h = W.BODY_BOX
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{{{{ w }}}}mm" height="{{{{ h }}}}mm" viewBox="0 0 {{{{ w }}}} {{{{ h }}}}">
  <rect x="0" y="0" width="{{{{ w }}}}" height="{{{{ h }}}}" rx="{W.CORNER_R}" fill="none" stroke="#000000" stroke-width="0.5pt"/>
  <rect x="{bx}" y="{by}" width="{bw}" height="{bh}" fill="{{{{ card.bar }}}}" stroke="#000000" stroke-width="0.5pt"/>
  <text x="{W.TITLE_XY[0]}" y="{W.TITLE_XY[1]}" font-size="{W.TITLE_SIZE}pt" font-weight="bold" fill="{{{{ card.title_colour }}}}" data-w="{bx + bw - W.TITLE_XY[0] - 1}" data-field="title">{{{{ card.title }}}}</text>
  <text x="{W.TYPE_XY[0]}" y="{W.TYPE_XY[1]}" font-size="{W.TYPE_SIZE}pt" font-style="italic" fill="#000000" data-field="typeline">{{{{ card.typeline }}}}</text>
  <text x="{x}" y="{y}" data-w="{w}" data-h="{h}" font-size="{W.BODY_SIZE}pt" fill="#000000" data-field="body">{{{{ card.body }}}}</text>
  <text x="{W.NUM_XY[0]}" y="{W.NUM_XY[1]}" text-anchor="end" font-size="{W.NUM_SIZE}pt" font-weight="bold" fill="#000000" data-field="value">{{{{ card.value }}}}</text>
</svg>
"""


def back_svg(W: ModuleType) -> str:
    """The workload's one shared back: dark card, accent frame, circle, rhombus, label."""
    cx, cy = W.CARD_W / 2, W.CARD_H / 2
    rhombus = f"{cx:g},{cy - 12:g} {cx + 9:g},{cy:g} {cx:g},{cy + 12:g} {cx - 9:g},{cy:g}"
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{{{{ w }}}}mm" height="{{{{ h }}}}mm" viewBox="0 0 {{{{ w }}}} {{{{ h }}}}">
  <rect x="0" y="0" width="{{{{ w }}}}" height="{{{{ h }}}}" rx="{W.CORNER_R}" fill="{W.BACK_FILL}" stroke="#000000" stroke-width="0.5pt"/>
  <rect x="4" y="4" width="{{{{ w - 8 }}}}" height="{{{{ h - 8 }}}}" rx="2" fill="none" stroke="{W.BACK_ACCENT}" stroke-width="1.5pt"/>
  <circle cx="{cx:g}" cy="{cy:g}" r="18" fill="none" stroke="{W.BACK_ACCENT}" stroke-width="1.5pt"/>
  <polygon points="{rhombus}" fill="{W.BACK_ACCENT}"/>
  <text x="{cx:g}" y="80" text-anchor="middle" font-size="16pt" font-weight="bold" fill="#ffffff">{W.BACK_TEXT}</text>
</svg>
"""


def deck_yaml(W: ModuleType, n: int) -> dict:
    cards = [{**card, "qty": 1} for card in W.make_cards(n)]
    return {
        "kind": "deck",
        "title": f"Deck of {n}",
        "size": "poker",
        "front": "front.svg.j2",
        "back": "back.svg.j2",
        "fields": {
            "type": {"type": "enum", "values": [t[0] for t in W.TYPES], "doc": "card type"},
            "typeline": {"type": "str", "doc": "type line under the title"},
            "body": {"type": "text", "doc": "wrapped body text"},
            "value": {"type": "str", "doc": "corner value (0-12, as text, as the workload has it)"},
            "bar": {"type": "colour", "doc": "title bar fill"},
            "title_colour": {"type": "colour", "doc": "title text colour"},
            "num": {"type": "int", "min": 1, "doc": "card number in the workload"},
        },
        "cards": cards,
    }


def game_yaml(game_id: str, n: int) -> dict:
    return {
        "id": game_id,
        "title": f"Benchmark {game_id}",
        "credits": "Reference workload of printkit's benchmark.",
        "languages": ["en"],
        "components": ["deck"],
        "rules": [{"id": "cards", "source": "designed: bench workload", "count": {"component": "deck"}, "expect": n}],
    }


def write_yaml(path: Path, data: dict) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8")


def make_game(out: Path, n: int) -> str:
    """Write the game deck<n> under out/content and out/templates; returns its id."""
    W = load_workload()
    game_id = f"deck{n}"
    content, templates = out / "content" / game_id, out / "templates" / game_id
    content.mkdir(parents=True, exist_ok=True)
    templates.mkdir(parents=True, exist_ok=True)
    write_yaml(content / "game.yaml", game_yaml(game_id, n))
    write_yaml(content / "deck.yaml", deck_yaml(W, n))
    (templates / "front.svg.j2").write_text(front_svg(W), encoding="utf-8")
    (templates / "back.svg.j2").write_text(back_svg(W), encoding="utf-8")
    return game_id


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder to write content/ and templates/ into")
    ap.add_argument("--n", type=int, default=60, help="number of cards (60 or 6000)")
    args = ap.parse_args()
    game_id = make_game(args.out, args.n)
    print(f"wrote {game_id} under {args.out}")


if __name__ == "__main__":
    main()


def compile_bytecode(package: Path) -> None:
    """Byte-compile a package's modules, as `pip install` does for an installed one: an editable checkout on a
    machine with PYTHONDONTWRITEBYTECODE set would compile ~80 modules again in every process (~0.2 s), which
    no installed tool (ReportLab, protograf) pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
