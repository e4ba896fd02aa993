"""PDF text operators written directly: the hot path of drawing thousands of cards.

ReportLab's text object formats each setter call and maps every character to its font subset in
a Python loop. Here a piece's text becomes one BT … ET block; characters already placed in a
subset are mapped with str.translate, and only new characters go through ReportLab's own
TTFont.splitString, so subsetting, embedding and ToUnicode stay exactly ReportLab's.
"""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas


class _Encoder:
    """Maps text to (subset, bytes) runs for one TrueType font in one document."""

    def __init__(self, font, doc):
        self.font, self.doc = font, doc
        self.known: set[str] = set()
        self.table: dict[int, str] = {}
        self.names: dict[int, str] = {}
        self.seen = -1

    def _refresh(self) -> None:
        state = self.font.state.get(self.doc)
        if state is None or len(state.assignments) == self.seen:
            return
        self.seen = len(state.assignments)
        # only subset 0 goes through the fast path; the rare later subsets use ReportLab's loop
        self.table = {code: chr(n) for code, n in state.assignments.items() if n < 256}
        self.table[0xA0] = self.table.get(32, " ")  # ReportLab prints a no-break space as a space
        self.known = {chr(code) for code in self.table}

    def name(self, subset: int) -> str:
        """The subset's font name in the document (ReportLab looks the document up in a weak dictionary each time)."""
        found = self.names.get(subset)
        if found is None:
            found = self.names[subset] = self.font.getSubsetInternalName(subset, self.doc)
        return found

    def runs(self, text: str) -> list[tuple[int, bytes]]:
        if not self.known.issuperset(text):
            self._refresh()
            if not self.known.issuperset(text):
                runs = self.font.splitString(text, self.doc)
                self._refresh()
                return runs
        return [(0, text.translate(self.table).encode("latin-1"))]


class TextBlock(str):
    """A written text block that keeps the calls that made it: its bytes hold one document's subset codes and
    font names, so a face replayed into another document writes its text again from `calls`."""

    calls: list[tuple]


class TextOps:
    """Collects the text of one piece and writes it as a single text block."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.ops: list[str] = []
        self.calls: list[tuple] = []
        self._encoders: dict[str, _Encoder] = {}
        self._font: tuple[str, int, float] | None = None
        self._fill: tuple[float, float, float] | None = None

    def show(self, font_name: str, size: float, fill: tuple[float, float, float], x: float, y: float, text: str) -> None:
        """Text with its baseline start at (x, y) in the current y-down drawing units."""
        self.calls.append((font_name, size, fill, x, y, text))
        ops = self.ops
        if fill != self._fill:
            ops.append(f"{fp_str(*fill)} rg")
            self._fill = fill
        ops.append(f"1 0 0 -1 {fp_str(x, y)} Tm")
        encoder = self._encoders.get(font_name)
        if encoder is None:
            encoder = self._encoders[font_name] = _Encoder(pdfmetrics.getFont(font_name), self.canvas._doc)  # noqa: SLF001
        escape = self.canvas._escape  # noqa: SLF001
        for subset, data in encoder.runs(text):
            key = (font_name, subset, size)
            if key != self._font:
                ops.append(f"{encoder.name(subset)} {fp_str(size)} Tf")
                self._font = key
            ops.append(f"({escape(data)}) Tj")

    def flush(self) -> None:
        if self.ops:
            block = TextBlock("BT " + " ".join(self.ops) + " ET")
            block.calls = self.calls
            self.canvas._code.append(block)  # noqa: SLF001
            self.ops, self.calls = [], []
        # a new text block starts from an unknown text state
        self._font = None
        self._fill = None
