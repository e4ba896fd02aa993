"""Paper sizes and the margins every printed sheet keeps: below layout (which places pieces) and
write (which draws the furniture)."""
from __future__ import annotations

from dataclasses import dataclass

MARGIN = 5.0        # nothing is printed closer than this to the sheet edge
EDGE = 6.35         # a quarter inch: what many home printers cannot print; pieces and cut marks stay inside it
MAX_GUTTER = 4.0    # gutter between pieces; each piece bleeds into its half
MIN_GUTTER = 2.0    # every piece bleeds at least 1 mm on every side
MIN_MARK = 3.0      # cut marks shorter than this are hard to see (their drawn length)
MARK_GAP = 0.3      # between a piece's bleed and its cut mark
MAX_MARK = 6.0
BAND = 7.0          # depth of the furniture band (ruler, footer)
BAND_CLEAR = 1.5    # between pieces (with their bleed and marks) and the furniture band
FOLD_GAP = 3.0      # clear space each side of a gutterfold line


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    def landscape(self) -> "Paper":
        return Paper(self.name, self.height, self.width)


PAPERS = {"a4": Paper("a4", 210.0, 297.0), "letter": Paper("letter", 215.9, 279.4), "a2": Paper("a2", 420.0, 594.0),
          "a1": Paper("a1", 594.0, 841.0), "a0": Paper("a0", 841.0, 1189.0)}
