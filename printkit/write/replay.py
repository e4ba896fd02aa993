"""Draw once: a face drawn for one file is replayed, not drawn again, in every other file of the build unit
(its part file, the gutterfold copy, the kits) and for every further copy of it.

A face's drawing is the PDF operators it appends to the page, and they belong to their document in three
ways: text is encoded for the document's font subsets (a text block keeps the calls that made it and is
written again for the target), transparency states are named per canvas (mapped to the target's own
names), and forms and images are the document's resources (a recording that uses forms replays only where
they are defined already; the first copy drawn in a document defines them). A recording that added any
other resource (a shading, a colour space, an annotation) is never replayed, and the face is drawn.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ..draw import Context, TextBlock, TextOps

_GSTATE = re.compile(r"/(gRLs\d+) gs")


@dataclass(frozen=True)
class GState:
    """A transparency state by what it sets (the canvas names it)."""

    setting: tuple[str, Any]


@dataclass
class Recording:
    """What drawing one face appended, and what the drawing reported."""

    code: list[str | TextBlock | GState]
    forms: list[str]
    problems: list = field(default_factory=list)
    shrunk: list = field(default_factory=list)
    coarse: list = field(default_factory=list)


@dataclass(frozen=True)
class Mark:
    """The canvas's state before a face is drawn: where its operators and resources start."""

    code: list
    start: int
    forms: int
    others: tuple[int, ...]


def _others(c: Canvas) -> tuple[int, ...]:
    return len(c._colorsUsed), len(c._shadingUsed), len(c._annotationrefs)  # noqa: SLF001


def mark(c: Canvas) -> Mark:
    return Mark(c._code, len(c._code), len(c._formsinuse), _others(c))  # noqa: SLF001


def record(c: Canvas, before: Mark, ctx: Context) -> Recording | None:
    """The face drawn since `before`, or None when it cannot be replayed into another document."""
    if c._code is not before.code or _others(c) != before.others:  # noqa: SLF001
        return None
    names = {name: setting for setting, name in c._extgstate._c.items()}  # noqa: SLF001
    code: list[str | TextBlock | GState] = []
    for op in before.code[before.start:]:
        found = _GSTATE.fullmatch(op) if op.endswith(" gs") else None
        if found:
            if found.group(1) not in names:
                return None
            code.append(GState(names[found.group(1)]))
        else:
            code.append(op)
    return Recording(code, list(c._formsinuse[before.forms:]), list(ctx.problems), list(ctx.shrunk),  # noqa: SLF001
                     list(ctx.coarse))


def replay(c: Canvas, recording: Recording, text: TextOps, ctx: Context) -> bool:
    """Append a recorded face to the page; False (nothing written) when a form it uses is not in this document."""
    doc = c._doc  # noqa: SLF001
    if not all(doc.hasForm(name) for name in recording.forms):
        return False
    out = c._code  # noqa: SLF001
    states = c._extgstate._c  # noqa: SLF001 - shared by every state of the canvas, as ReportLab's own set() uses it
    for op in recording.code:
        if type(op) is str:
            out.append(op)
        elif isinstance(op, TextBlock):
            for call in op.calls:
                text.show(*call)
            text.flush()
        else:
            if op.setting[0] in ("CA", "ca"):
                doc.ensureMinPdfVersion("transparency")  # as ReportLab's setFillAlpha and setStrokeAlpha do
            name = states.get(op.setting)
            if name is None:
                name = states[op.setting] = f"gRLs{len(states)}"
            out.append(f"/{name} gs")
    c._formsinuse.extend(recording.forms)  # noqa: SLF001
    ctx.problems += recording.problems
    ctx.shrunk += recording.shrunk
    ctx.coarse += recording.coarse
    return True
