"""Templates are sandboxed, and every way a template can fail is one problem line at the template's own
path and line, exit 2, no traceback: errors while rendering, broken syntax, a file that is not UTF-8,
SVG that does not parse, and SVG printkit cannot draw."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from conftest import FIXTURES
from printkit.build import Settings, build
from printkit.content.paths import Roots
from printkit.draw.templates import TemplateProblem, TemplateSet, environment
from printkit.errors import ContentError

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">\n'
FRONT = "templates/mini/front.svg.j2"


def mini_with(tmp_path: Path, front: str | bytes, others: dict[str, str] | None = None) -> None:
    """The mini game in tmp_path, its deck's front template replaced (and other template files added)."""
    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    shutil.copytree(FIXTURES / "templates", tmp_path / "templates")
    folder = tmp_path / "templates" / "mini"
    (folder / "front.svg.j2").write_bytes(front if isinstance(front, bytes) else front.encode())
    for name, text in (others or {}).items():
        (folder / name).write_text(text)


def build_with(tmp_path: Path, front: str | bytes, others: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`printkit build mini` with the deck's front template replaced (and other template files added)."""
    mini_with(tmp_path, front, others)
    return subprocess.run([sys.executable, "-m", "printkit", "build", "mini", "--paper", "a4", "--lang", "en",
                           "--no-kit", "--no-poster", "--no-gutterfold", "--content", str(tmp_path / "content"),
                           "--templates", str(tmp_path / "templates"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=tmp_path)


def problems(result: subprocess.CompletedProcess) -> list[str]:
    """The problem lines of a failed build (exit 2, no traceback, nothing written)."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1].endswith("problem(s); nothing was written.")
    return lines[:-1]


def front(*body: str) -> str:
    """A front template: its line 1 opens the SVG, line 2 draws a rect, line 3 on is `body`."""
    return HEAD + '  <rect width="{{ w }}" height="{{ h }}" fill="#ffffff"/>\n' + "\n".join(body) + "\n</svg>\n"


# ------------------------------------------------------------ the sandbox
TEXT_OPEN = "  <text x='5' y='10'>"  # what comes before a payload on line 3


def placed(payload: str, expected: str) -> str:
    """`expected` at the column of the name its message quotes, when line 3 holds that name once (else 1)."""
    named = re.search(r"found '(\w+)' is undefined|attribute '(\w+)'", expected)
    name = next((g for g in named.groups() if g), "") if named else ""
    hits = [i for i in range(len(payload)) if name and payload.startswith(name, i)
            and (i == 0 or payload[i - 1] not in "'\"_" and not payload[i - 1].isalnum())]
    return expected.replace("3:1:", f"3:{len(TEXT_OPEN) + hits[0] + 1}:" if len(hits) == 1 else "3:1:", 1)


PAYLOADS = {
    # run a command, read a file: the classic template injections, none of which gets through
    "{{ cycler.__init__.__globals__.os.system('touch pwned') }}":
        "3:1: expected every value the template uses, found 'cycler' is undefined",
    "{{ lipsum.__globals__['os'].system('touch pwned') }}":
        "3:1: expected every value the template uses, found 'lipsum' is undefined",
    "{{ __builtins__.open('/etc/hostname').read() }}":
        "3:1: expected every value the template uses, found '__builtins__' is undefined",
    "{{ self.__init__.__globals__.__builtins__.open('/etc/hostname').read() }}":
        "3:1: expected only what the template sandbox allows, found access to attribute '__init__' of "
        "'TemplateReference' object is unsafe.",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}":
        "3:1: expected only what the template sandbox allows, found access to attribute '__class__' of 'str' object "
        "is unsafe.",
    "{{ namespace.__init__.__globals__.os.system('touch pwned') }}":
        "3:1: expected only what the template sandbox allows, found access to attribute '__init__' of 'type' object "
        "is unsafe.",
    "{{ t.__globals__ }}":
        "3:1: expected only what the template sandbox allows, found access to attribute '__globals__' of 'function' "
        "object is unsafe.",
    "{{ '{0.__class__}'.format(card) }}":
        "3:1: expected only what the template sandbox allows, found access to attribute '__class__' of 'dict' object "
        "is unsafe.",
    # change what printkit passes (shared by every piece): values are read-only
    "{% set _ = params.update({'hand_limit': 9}) %}":
        "3:1: expected only what the template sandbox allows, found access to attribute 'update' of 'dict' object "
        "is unsafe.",
    # exhaust the machine: bounded
    "{{ range(10**9) | length }}":
        "3:1: expected the template to render, found OverflowError: Range too big. The sandbox blocks ranges larger "
        "than MAX_RANGE (100000).",
    "{{ 'x' * 10**9 }}":
        "3:1: expected only what the template sandbox allows, found the sandbox makes at most 1,000,000 items by "
        "repetition",
    "{{ 10 ** 1000000 }}":
        "3:1: expected only what the template sandbox allows, found the sandbox makes numbers of at most 100,000 bits",
}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_template_cannot_leave_its_sandbox(tmp_path, payload, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where `touch pwned` would leave its file
    mini_with(tmp_path, front("  <text x='5' y='10'>" + payload + "</text>"))
    settings = Settings(roots=Roots.default(tmp_path / "content", tmp_path / "templates"), out=tmp_path / "out",
                        papers=("a4",), langs=("en",), kits=False, gutterfold=False, poster=False)
    with pytest.raises(ContentError) as info:
        build(settings, ["mini"])
    assert [str(p) for p in info.value.problems] == [f"{FRONT}:{placed(payload, PAYLOADS[payload])}"]
    assert not (tmp_path / "pwned").exists()
    assert not any((tmp_path / "out").rglob("*.pdf"))


def test_a_sandbox_escape_through_the_cli_is_exit_2(tmp_path):
    payload = "{{ cycler.__init__.__globals__.os.system('touch pwned') }}"
    result = build_with(tmp_path, front("  <text x='5' y='10'>" + payload + "</text>"))
    assert problems(result) == [f"{FRONT}:{placed(payload, PAYLOADS[payload])}"]
    assert not (tmp_path / "pwned").exists()


def test_the_payloads_are_real_outside_the_sandbox(tmp_path):
    """The same injection, in plain Jinja, runs its command and reads the file: the sandbox is what stops it."""
    marker = tmp_path / "pwned"
    jinja2.Environment().from_string("{{ cycler.__init__.__globals__.os.system('touch " + str(marker) + "') }}").render()
    assert marker.exists()
    read = jinja2.Environment().from_string("{{ self.__init__.__globals__.__builtins__.open(path).read() }}")
    assert read.render(path=__file__).startswith('"""Templates are sandboxed')


def test_templates_see_only_printkits_helpers():
    names = set(environment((FIXTURES / "templates" / "mini",)).globals)
    assert names == {"range", "dict", "namespace", "hex_points", "hex_centre", "hex_rotate", "hex_disc",
                     "hex_distance", "hex_directions"}


# ------------------------------------------------------------ every failure is a placed problem
FAILURES = {
    "zero division": (front("  <text x='5' y='10'>{{ card.power / 0 }}</text>"),
                      "3:1: expected the template to render, found ZeroDivisionError: division by zero"),
    "recursion": (front("{% macro down(n) %}", "{{ down(n + 1) }}", "{% endmacro %}", "{{ down(0) }}"),
                  "4:1: expected a template that ends, found endless recursion"),
    "undefined attribute": (front("  <text x='5' y='10'>{{ card.nope }}</text>"),
                            "3:30: expected a value it is given (power, text, title, type), found 'nope'"),
    "syntax": (front("  {% if card.power > %}", "  {% endif %}"),
               "3:1: expected valid template syntax, found unexpected 'end of statement block'"),
    "missing include": (front("  {% include 'nowhere.svg.j2' %}"),
                        "3:1: expected template 'nowhere.svg.j2' in the template folders, found none"),
    "broken XML": (front('  <rect width="3">', '  <circle r="2"/>'),
                   "5:1: expected well-formed SVG, found mismatched tag at '</svg>'"),
    "width abc": (front('  <rect x="1"', '        width="abc" height="4"/>'),
                  "4:9: expected a length (a number, or with mm, cm, in, pt or px) in width of <rect>, found 'abc'"),
    "matrix(1,2)": (front('  <g transform="matrix(1,2)"><rect width="1" height="1"/></g>'),
                    "3:6: expected matrix() with 6 numbers in transform of <g>, found 'matrix(1,2)'"),
    "not a colour": (front('  <rect width="1" height="1" fill="notacolour"/>'),
                     "3:30: expected a colour (an SVG colour name, #rgb, #rrggbb, #rrggbbaa, rgb(…), none or "
                     "currentColor) in fill of <rect>, found 'notacolour'"),
    "malformed path": (front('  <path d="M 1 1 L 2 Z"/>'),
                       "3:9: expected path data with 2 numbers after L in d of <path>, found 'M 1 1 L 2 Z'"),
    "unknown element": (front('  <blink>now</blink>'),
                        "3:3: expected an SVG element printkit draws (a, circle, clipPath, defs, ellipse, g, image, "
                        "line, path, polygon, polyline, rect, svg, text, use), found <blink>"),
    "unknown attribute": (front('  <rect width="1" height="1" filter="url(#blur)"/>'),
                          "3:30: expected an attribute printkit draws on <rect>, found 'filter'"),
    "missing image": (front('  <image href="photo.png" x="0" y="0" width="10" height="10"/>'),
                      "3:10: expected an image file (SVG, PNG, JPEG or WebP) in the template folders, found 'photo.png'"),
    "GIF image": (front('  <image href="photo.gif" x="0" y="0" width="10" height="10"/>'),
                  "3:10: expected an SVG, PNG, JPEG or WebP file, found 'photo.gif'"),
    "text with a tspan": (front("  <text x='5' y='10'>A <tspan font-weight='bold'>B</tspan></text>"),
                          "3:3: expected one font-weight in a text (bold and italic words in flowed text only), "
                          "found \"'B' in bold\""),
}


@pytest.mark.parametrize("case", FAILURES)
def test_every_template_failure_is_one_placed_problem(tmp_path, case):
    template, expected = FAILURES[case]
    result = build_with(tmp_path, template)
    assert problems(result) == [f"{FRONT}:{expected}"]


def test_a_broken_raster_file_in_the_template_folder_is_refused_not_crashed_on(tmp_path):
    """The file is there but holds no picture: it is refused for what it is."""
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "f.svg.j2").write_text('<svg xmlns="http://www.w3.org/2000/svg">\n<image href="photo.png" width="5" height="5"/>\n</svg>')
    with pytest.raises(TemplateProblem) as info:
        TemplateSet((folder,)).render("f.svg.j2")
    assert [str(p) for p in info.value.problems] == [
        "tpl/f.svg.j2:2:8: expected a PNG, JPEG or WebP image that can be read, found 'photo.png'"]


def test_a_template_file_that_is_not_utf8_names_the_byte(tmp_path):
    text = front("  <text x='5' y='10'>Caf\u00e9</text>").encode("latin-1")
    assert problems(build_with(tmp_path, text)) == [f"{FRONT}:3:25: expected UTF-8 text, found the byte 0xe9"]


def test_problems_in_an_included_template_name_that_file(tmp_path):
    part = '<g>\n  <circle cx="1" cy="1"\n          r="{{ size }}"/>\n</g>\n'
    result = build_with(tmp_path, front("  {% set size = 'big' %}", "  {% include 'part.svg.j2' %}"),
                        {"part.svg.j2": part})
    assert problems(result) == ["templates/mini/part.svg.j2:3:11: expected a length (a number, or with mm, cm, in, "
                                "pt or px) in r of <circle>, found 'big'"]


def test_an_element_a_macro_writes_is_placed_in_the_macro(tmp_path):
    template = front("{% macro badge(r) %}", '  <circle cx="5" cy="5" r="{{ r }}" fill="{{ r }}"/>', "{% endmacro %}",
                     "  {{ badge(3) }}")
    assert problems(build_with(tmp_path, template)) == [
        f"{FRONT}:4:37: expected a colour (an SVG colour name, #rgb, #rrggbb, #rrggbbaa, rgb(…), none or "
        "currentColor) in fill of <circle>, found '3'"]


def test_a_failure_in_an_included_template_names_that_file(tmp_path):
    part = "<g>\n  <text x='1' y='5'>{{ card.power // 0 }}</text>\n</g>\n"
    result = build_with(tmp_path, front("  {% include 'part.svg.j2' %}"), {"part.svg.j2": part})
    assert problems(result) == ["templates/mini/part.svg.j2:2:1: expected the template to render, found "
                                "ZeroDivisionError: integer division or modulo by zero"]


def test_a_failure_on_one_card_is_placed_at_its_line(tmp_path):
    """Only Cy has power 1: the template fails for it alone, and the problem still names the template line."""
    result = build_with(tmp_path, front("  {% for i in range(3) %}",
                                        '  <rect width="{{ 6 // (card.power - 1) }}" height="1"/>', "  {% endfor %}"))
    assert problems(result) == [f"{FRONT}:4:1: expected the template to render, found ZeroDivisionError: "
                                "integer division or modulo by zero"]


def test_a_template_linked_out_of_its_folder_is_refused_at_its_path(tmp_path):
    import shutil
    import subprocess
    import sys

    from conftest import FIXTURES

    shutil.copytree(FIXTURES / "content", tmp_path / "content")
    shutil.copytree(FIXTURES / "templates", tmp_path / "templates")
    secret = tmp_path / "secret.svg.j2"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    back = tmp_path / "templates" / "mini" / "back.svg.j2"
    back.unlink()
    back.symlink_to(secret)
    run = subprocess.run([sys.executable, "-m", "printkit", "build", "mini", "--content", "content", "--templates",
                          "templates", "--out", "out"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.startswith("templates/")]
    assert lines == [f"templates/mini/back.svg.j2:1:1: expected a template inside its template folder, found a link "
                     f"to {secret.resolve()}"]
    assert not list((tmp_path / "out").rglob("*.pdf"))
