"""Where in a template a problem lies.

Jinja compiles a template to Python and keeps, for each line of that code, the template line it came
from; a traceback through a template names the template's file and line. For a problem found in the
rendered output (SVG that does not parse, a value printkit cannot read), the template is rendered
again piece by piece, and the piece that wrote the offending place is traced to the template line
that yielded it (through includes too). Only failures take these paths: they cost nothing otherwise.
"""
from __future__ import annotations

import inspect
import re
import xml.parsers.expat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # Jinja is imported by the first render (engine.py), not with the package
    import jinja2

Where = tuple[str, int]  # a template file's absolute path, 1-based line


def frame_line(exc: BaseException, is_template: Callable[[str], bool]) -> Where | None:
    """The innermost template line a traceback passes through."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if is_template(filename):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def element_starts(svg: str) -> list[int]:
    """The offset in `svg` of each element's start tag, in document order (ElementTree's iter order)."""
    parser = xml.parsers.expat.ParserCreate()
    starts: list[tuple[int, int]] = []
    parser.StartElementHandler = lambda name, attrs: starts.append((parser.CurrentLineNumber,
                                                                    parser.CurrentColumnNumber))
    parser.Parse(svg, True)
    return [offset(svg, line, col) for line, col in starts]


def offset(text: str, line: int, col: int) -> int:
    """The character offset of expat's (1-based line, 0-based column in UTF-8 bytes)."""
    lines = text.split("\n")
    before = sum(len(s) + 1 for s in lines[:line - 1])
    row = lines[line - 1] if line - 1 < len(lines) else ""
    return before + len(row.encode("utf-8")[:col].decode("utf-8", "ignore"))


def output_origins(template: jinja2.Template, values: dict[str, Any],
                   offsets: list[int]) -> list[tuple[jinja2.Template, int, int]]:
    """For each offset of the output: the template (maybe an included one), its line that yielded the
    piece of output holding the offset, and how many line breaks that piece holds before the offset."""
    wanted = sorted(set(offsets))
    found: dict[int, tuple[jinja2.Template, int, int]] = {}
    gen = template.root_render_func(template.new_context(values))
    done = 0
    try:
        for chunk in gen:
            while wanted and wanted[0] < done + len(chunk):
                frame = _yielding_frame(gen)
                owner = frame.f_globals.get("__jinja_template__", template)
                found[wanted[0]] = (owner, owner.get_corresponding_lineno(frame.f_lineno),
                                    chunk[:wanted[0] - done].count("\n"))
                wanted.pop(0)
            if not wanted:
                break
            done += len(chunk)
    finally:
        gen.close()
    return [found.get(at, (template, 1, 0)) for at in offsets]


def _yielding_frame(gen: Any) -> Any:
    """The frame of the innermost template generator that produced the piece just yielded."""
    frame = gen.gi_frame
    while True:
        inner = gen.gi_yieldfrom or frame.f_locals.get("gen")  # `yield from` (blocks), or an include's loop
        if not inspect.isgenerator(inner) or inspect.getgeneratorstate(inner) != inspect.GEN_SUSPENDED:
            return frame
        gen, frame = inner, inner.gi_frame


def place(template: jinja2.Template, line: int, breaks: int, tag: str | None, attr: str | None,
          start_tag: str = "") -> tuple[str, int, int]:
    """The file, line and column of an element (its attribute when named) in the template source.

    The line the output piece started on, moved by the line breaks before the element, holds it when the
    piece is the template's own text; the element may also start a line or two below (after a block tag).
    An element a macro wrote is found by its fixed text (`start_tag` as rendered) in the template and
    the templates it imports."""
    lines = _source(template)
    filename = template.filename or ""
    if tag is None:
        return filename, line + breaks if 1 <= line + breaks <= len(lines) else line, 1
    for candidate in dict.fromkeys((line + breaks, line, line + 1, line + 2)):
        if 1 <= candidate <= len(lines) and _tag(tag).search(lines[candidate - 1]):
            return (filename, *_attribute(lines, candidate, tag, attr))
    found = _by_text(template, tag, start_tag)
    if found is not None:
        owner, at = found
        return (owner.filename or "", *_attribute(_source(owner), at, tag, attr))
    return filename, line, 1


def _by_text(template: jinja2.Template, tag: str, start_tag: str) -> tuple[jinja2.Template, int] | None:
    """The template line starting the element whose fixed text (outside {{ }}, {% %}) is in the rendered
    start tag, in order; the one with the most fixed text wins."""
    best: tuple[int, jinja2.Template, int] | None = None
    for owner in _with_imports(template):
        lines = _source(owner)
        for number, text in enumerate(lines, 1):
            head = _tag(tag).search(text)
            if not head:
                continue
            fixed = [f.strip() for f in _JINJA.split(_start_tag_source(lines, number, head.start())) if f.strip()]
            at = 0
            for f in fixed:
                at = start_tag.find(f, at)
                if at < 0:
                    break
                at += len(f)
            score = sum(len(f) for f in fixed)
            if at >= 0 and (best is None or score > best[0]):
                best = (score, owner, number)
    return (best[1], best[2]) if best else None


_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def _start_tag_source(lines: list[str], number: int, head: int) -> str:
    """An element's start tag in the template source, from `<tag` to its `>` (over up to 15 lines)."""
    text = lines[number - 1][head:]
    for more in lines[number:number + 15]:
        if ">" in _JINJA.sub("", text):
            break
        text += "\n" + more
    bare = _JINJA.sub(lambda m: "\0" * len(m.group()), text)  # where the tag ends, outside expressions
    end = bare.find(">")
    return text[:end + 1] if end >= 0 else text


def _with_imports(template: jinja2.Template) -> list[jinja2.Template]:
    """The template and every template it imports or includes, by name, once each."""
    import jinja2
    from jinja2 import meta

    env = template.environment
    seen: dict[str, jinja2.Template] = {}
    todo = [template]
    while todo:
        current = todo.pop()
        if current.name in seen:
            continue
        seen[current.name or ""] = current
        try:
            names = meta.find_referenced_templates(env.parse("\n".join(_source(current))))
            todo += [env.get_template(n) for n in names if n and n not in seen]
        except jinja2.TemplateError:
            continue
    return list(seen.values())


def _source(template: jinja2.Template) -> list[str]:
    try:
        return Path(template.filename or "").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _tag(tag: str) -> re.Pattern[str]:
    return re.compile(rf"<(?:\w+:)?{re.escape(tag)}(?![\w:-])")


def _attribute(lines: list[str], line: int, tag: str, attr: str | None) -> tuple[int, int]:
    """The attribute's line and column, looked for from the element's start tag to its end."""
    start = _tag(tag).search(lines[line - 1])
    head = start.start() if start else 0
    if attr is not None:
        name = re.compile(rf"(?<![\w:-]){re.escape(attr)}\s*=")
        for i in range(line - 1, min(len(lines), line + 15)):
            text = lines[i][head:] if i == line - 1 else lines[i]
            found = name.search(text)
            if found:
                return i + 1, found.start() + 1 + (head if i == line - 1 else 0)
            if ">" in re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", text):
                break  # the start tag ends here
    return line, head + 1
