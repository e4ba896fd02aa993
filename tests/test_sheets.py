"""Sheet styles: list items hang evenly; no single line of a paragraph is left at the top of a column."""
from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from printkit.draw import text as T
from printkit.layout.flow import styles


def bullet_end(style, bullet: str) -> float:
    """Where ReportLab starts a list item's first line: after the bullet and a 0.6 em gap."""
    return style.bulletIndent + stringWidth(bullet, style.bulletFontName, style.bulletFontSize) + 0.6 * style.bulletFontSize


def test_first_lines_of_list_items_start_where_their_other_lines_do():
    T.register_fonts()
    st = styles("en")
    assert bullet_end(st["bullets"], "\u2022") <= st["bullets"].leftIndent
    assert all(bullet_end(st["numbered"], f"{n}.") <= st["numbered"].leftIndent for n in range(1, 10))


def test_a_paragraph_never_leaves_one_line_at_the_top_of_the_next_column():
    T.register_fonts()
    st = styles("en")
    para = Paragraph(" ".join(["word"] * 120), st["p"])
    _, h = para.wrap(200, 10_000)
    lines = round(h / st["p"].leading)
    parts = para.split(200, (lines - 0.5) * st["p"].leading)  # room for all lines but the last
    assert len(parts) == 2
    rest = parts[1]
    _, rest_h = rest.wrap(200, 10_000)
    assert round(rest_h / st["p"].leading) >= 2
