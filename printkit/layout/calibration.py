"""The duplex calibration sheet: a cross on the back, read through the paper against scales on the front.

The front carries two scales through the sheet's centre, ticked every 0.5 mm and labelled in the values
to give `--duplex-offset` (so a reading is the correction itself); the back carries one cross at the
point that lies behind the front's centre. A back page is printed mirrored (flipped on the long edge),
so a back that lands r mm to the right, seen from the front, needs its content moved r mm right in its
own coordinates: the horizontal labels are the reading as seen; a back that lands r mm low needs it
moved r mm up: the vertical labels are the reading negated.
"""
from __future__ import annotations

from ..geometry import MARGIN, Paper
from ..write import Writer
from .flow import paragraph_lines
from .sheets import SheetLabels

SPAN = 5.0  # mm each side of the centre
CROSS = 14.0  # half the cross's arm length on the back, mm


def _ticks(centre: float, across: float, horizontal: bool) -> list[tuple[float, float, float, float]]:
    out = []
    steps = int(SPAN * 2)
    for i in range(-steps, steps + 1):
        at = centre + i * 0.5
        length = 4.0 if i % 2 == 0 else 2.0
        if horizontal:
            out.append((at, across - length, at, across))
        else:
            out.append((across - length, at, across, at))
    return out


def calibration_pages(w: Writer, paper: Paper, label: SheetLabels) -> int:
    """Two pages, front then back: print them as one duplex sheet."""
    cx, cy = paper.width / 2, paper.height / 2
    w.begin(paper)
    w.text(MARGIN + 5, MARGIN + 12, label.t("calibration_title"), 16, "bold", colour=(0.1, 0.1, 0.1))
    y = MARGIN + 22
    for line in paragraph_lines(label.t("calibration_front"), paper.width - 2 * MARGIN - 10, 9):
        w.text(MARGIN + 5, y, line, 9, colour=(0.1, 0.1, 0.1))
        y += 4.5
    # the horizontal scale runs just above the centre, the vertical one just left of it
    w.lines(_ticks(cx, cy - 6.0, True) + [(cx - SPAN, cy - 6.0, cx + SPAN, cy - 6.0)], width=0.15, colour=(0, 0, 0))
    w.lines(_ticks(cy, cx - 6.0, False) + [(cx - 6.0, cy - SPAN, cx - 6.0, cy + SPAN)], width=0.15, colour=(0, 0, 0))
    for i in range(-int(SPAN) + 1, int(SPAN), 2):  # every 2 mm: the labels of a 0.5 mm scale must not touch
        w.text(cx + i, cy - 11.0, f"{i:+d}" if i else "0", 6, anchor="middle", colour=(0, 0, 0))
        w.text(cx - 11.0, cy + i + 0.8, f"{-i:+d}" if i else "0", 6, anchor="end", colour=(0, 0, 0))
    w.text(cx, cy - 16.0, "DX (mm)", 7, "bold", anchor="middle", colour=(0, 0, 0))
    w.text(cx - 20.0, cy - 8.0, "DY (mm)", 7, "bold", anchor="end", colour=(0, 0, 0))
    w.lines([(cx - 1.0, cy, cx + 1.0, cy), (cx, cy - 1.0, cx, cy + 1.0)], width=0.1, colour=(0.5, 0.5, 0.5))
    w.furniture((MARGIN, paper.height - MARGIN - 7, paper.width - 2 * MARGIN, 7), label.footer(1, 1, "front"),
                label.t("ruler"))
    w.end()
    w.begin(paper, back=True)
    bx = paper.width - cx  # behind the front's centre once the sheet is turned over on its long edge
    w.lines([(bx - CROSS, cy, bx + CROSS, cy), (bx, cy - CROSS, bx, cy + CROSS)], width=0.35, colour=(0, 0, 0))
    w.text(bx, cy + CROSS + 8, label.t("calibration_back"), 8, anchor="middle", colour=(0.1, 0.1, 0.1))
    w.furniture((MARGIN, paper.height - MARGIN - 7, paper.width - 2 * MARGIN, 7), label.footer(1, 1, "back"),
                label.t("ruler"))
    w.end()
    return 2
