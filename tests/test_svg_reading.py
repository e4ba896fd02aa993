"""printkit reads the SVG a template writes, or refuses it: colours, opacities, path commands, transforms,
fill rules, <use>, clip paths, measured on the drawn pixels (PyMuPDF); elements of other namespaces are
ignored, anything else it cannot draw is a placed problem."""
from __future__ import annotations

import io
from pathlib import Path

import pymupdf
import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printkit.draw import Context, Renderer
from printkit.draw.svgpaint import INHERITED
from printkit.draw.templates import TemplateProblem, TemplateSet
from printkit.draw.templates.check import PRESENTATION

SIZE = 100  # mm, square page
DPI = 127  # 5 pixels per mm
WHITE = (255, 255, 255)


def render_page(svg: str, w: float, h: float) -> tuple[pymupdf.Page, list]:
    """An SVG drawn by printkit's renderer alone on a w x h mm page (mm, y down, as pieces are drawn), and the
    problems it found."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(w * mm, h * mm))
    canvas.transform(mm, 0, 0, -mm, 0, h * mm)
    ctx = Context("en", None)
    Renderer(canvas, lambda href: None).draw_svg(svg, ctx)
    canvas.showPage()
    canvas.save()
    return pymupdf.open(stream=out.getvalue(), filetype="pdf")[0], ctx.problems


def drawn(body: str) -> pymupdf.Pixmap:
    """An SVG (its inner elements, in mm on a 100 mm page) drawn by printkit's renderer, rasterised."""
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 {SIZE} {SIZE}">{body}</svg>'
    page, problems = render_page(svg, SIZE, SIZE)
    assert problems == []
    return page.get_pixmap(dpi=DPI)


def at(pix: pymupdf.Pixmap, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at (x, y) mm."""
    return pix.pixel(round(x * DPI / 25.4), round(y * DPI / 25.4))


def near(found: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 2 for a, b in zip(found, wanted))


# ------------------------------------------------------------ colours
@pytest.mark.parametrize(("fill", "rgb"), [
    ("blue", (0, 0, 255)), ("rgb(0,128,0)", (0, 128, 0)), ("rgb(100%, 50%, 0%)", (255, 128, 0)),
    ("#f00", (255, 0, 0)), ("#00ff00", (0, 255, 0)), ("#00ff0080", (127, 255, 127)), ("#0f08", (119, 255, 119)),
    ("lightgray", (211, 211, 211)), ("darkslateblue", (72, 61, 139)), ("none", WHITE),
])
def test_every_colour_form_prints_its_colour(fill, rgb):
    assert near(at(drawn(f'<rect x="10" y="10" width="80" height="80" fill="{fill}"/>'), 50, 50), rgb)


def test_current_colour_opacities_and_inheritance():
    pix = drawn('<g color="rgb(0,0,255)" fill="currentColor">'
                '<rect x="0" y="0" width="50" height="50"/>'
                '<rect x="50" y="0" width="50" height="50" fill-opacity="0.5"/>'
                '<rect x="0" y="50" width="50" height="50" opacity="0.5" fill="red"/>'
                '<rect x="50" y="50" width="50" height="50" style="fill: rgb(0, 128, 0); fill-opacity: 0.25"/></g>')
    assert near(at(pix, 25, 25), (0, 0, 255))
    assert near(at(pix, 75, 25), (127, 127, 255))
    assert near(at(pix, 25, 75), (255, 127, 127))
    assert near(at(pix, 75, 75), (191, 223, 191))


def test_stroke_colour_and_its_opacity():
    pix = drawn('<line x1="10" y1="50" x2="90" y2="50" stroke="#0000ff80" stroke-width="10"/>')
    assert near(at(pix, 50, 50), (127, 127, 255))


# ------------------------------------------------------------ paths
def test_smooth_quadratics_t_and_t_relative_are_drawn():
    """Q then T mirrors the control point: the second hump goes down as far as the first goes up."""
    for d in ("M 10 50 Q 30 10 50 50 T 90 50", "M 10 50 q 20 -40 40 0 t 40 0"):
        pix = drawn(f'<path d="{d}" fill="none" stroke="black" stroke-width="2"/>')
        assert at(pix, 30, 30) == (0, 0, 0)  # top of the first hump: 50 - 40 / 2
        assert at(pix, 70, 70) == (0, 0, 0)  # bottom of the mirrored one
        assert at(pix, 70, 50) == WHITE


def test_an_arc_with_a_zero_radius_is_a_line():
    pix = drawn('<path d="M 10 10 A 0 20 0 0 1 90 90" fill="none" stroke="black" stroke-width="2"/>')
    assert at(pix, 50, 50) == (0, 0, 0)


def test_arcs_and_cubics_and_implicit_repeats():
    pix = drawn('<path d="M 10 50 a 40 40 0 0 1 80 0 Z" fill="black"/>'  # a half disc above y = 50
                '<path d="M10 60 80 60 80 90 10 90z" fill="blue"/>')  # numbers after M are lines
    assert at(pix, 50, 20) == (0, 0, 0)
    assert at(pix, 12, 14) == WHITE
    assert near(at(pix, 45, 75), (0, 0, 255))


# ------------------------------------------------------------ transforms
def test_skew_x_and_skew_y():
    pix = drawn('<rect x="0" y="0" width="20" height="40" fill="black" transform="translate(10 10) skewX(45)"/>'
                '<rect x="0" y="0" width="20" height="20" fill="black" transform="translate(60 10) skewY(45)"/>')
    assert at(pix, 55, 45) == (0, 0, 0)  # 35 mm down, the rect is 35 mm further right: 45..65
    assert at(pix, 15, 45) == WHITE  # where it would be unskewed
    assert at(pix, 75, 40) == (0, 0, 0)  # 15 mm right, the rect is 15 mm lower: 25..45
    assert at(pix, 75, 15) == WHITE


def test_rotate_about_a_centre_and_a_matrix():
    pix = drawn('<rect x="40" y="10" width="20" height="10" fill="black" transform="rotate(90 50 50)"/>'
                '<rect x="0" y="0" width="10" height="10" fill="blue" transform="matrix(1 0 0 1 80 80)"/>')
    assert at(pix, 85, 50) == (0, 0, 0)  # the bar at the top, turned a quarter about the centre: at the right
    assert at(pix, 50, 15) == WHITE
    assert near(at(pix, 85, 85), (0, 0, 255))


# ------------------------------------------------------------ fill rules
SQUARES = "M 10 10 H 90 V 90 H 10 Z M 30 30 H 70 V 70 H 30 Z"  # the inner square wound the same way


def test_fill_rule_even_odd_leaves_the_hole_non_zero_fills_it():
    assert at(drawn(f'<path d="{SQUARES}" fill="black" fill-rule="evenodd"/>'), 50, 50) == WHITE
    assert at(drawn(f'<path d="{SQUARES}" fill="black" style="fill-rule: evenodd"/>'), 50, 50) == WHITE
    assert at(drawn(f'<g fill-rule="evenodd"><path d="{SQUARES}" fill="black"/></g>'), 50, 50) == WHITE
    assert at(drawn(f'<path d="{SQUARES}" fill="black"/>'), 50, 50) == (0, 0, 0)  # SVG's default: non-zero
    assert at(drawn(f'<path d="{SQUARES}" fill="black" fill-rule="nonzero"/>'), 20, 20) == (0, 0, 0)


def test_a_self_crossing_star_is_filled_by_its_rule():
    star = "50,5 79,95 2,40 98,40 21,95"
    assert at(drawn(f'<polygon points="{star}" fill="black"/>'), 50, 50) == (0, 0, 0)
    assert at(drawn(f'<polygon points="{star}" fill="black" fill-rule="evenodd"/>'), 50, 50) == WHITE


# ------------------------------------------------------------ use, defs, clip paths
def test_use_draws_a_defined_element_where_it_says():
    pix = drawn('<defs><rect id="box" width="20" height="20" fill="blue"/></defs>'
                '<use href="#box" x="10" y="10"/><use xlink:href="#box" x="60" y="60" transform="translate(10 0)"/>')
    assert at(pix, 5, 5) == WHITE  # nothing where the definition itself sits
    assert near(at(pix, 20, 20), (0, 0, 255))
    assert near(at(pix, 80, 70), (0, 0, 255))


def test_clip_path_keeps_what_is_inside_it():
    pix = drawn('<clipPath id="round"><circle cx="50" cy="50" r="30"/></clipPath>'
                '<rect x="0" y="0" width="100" height="100" fill="black" clip-path="url(#round)"/>')
    assert at(pix, 50, 50) == (0, 0, 0)
    assert at(pix, 10, 10) == WHITE
    assert at(pix, 50, 85) == WHITE


@pytest.mark.parametrize("overflow", ["", ' overflow="visible"', ' style="overflow:visible"'])
def test_a_nested_svg_is_clipped_to_its_viewport_unless_its_overflow_is_visible(overflow):
    """A standee's two faces, each painting its bleed past its edge: the lower one must not cover the upper."""
    face = '<rect x="-3" y="-3" width="46" height="46" fill="{}"/>'
    pix = drawn(f'<svg x="10" y="10" width="40" height="40" viewBox="0 0 40 40"{overflow}>{face.format("#00ff00")}</svg>'
                f'<svg x="10" y="50" width="40" height="40" viewBox="0 0 40 40"{overflow}>{face.format("#ff0000")}</svg>')
    assert at(pix, 30, 48.5) == ((255, 0, 0) if overflow else (0, 255, 0))  # 1.5 mm above the lower face's edge
    assert at(pix, 30, 30) == (0, 255, 0) and at(pix, 30, 70) == (255, 0, 0)
    assert at(pix, 8.5, 30) == ((0, 255, 0) if overflow else WHITE)


def test_display_none_is_not_drawn():
    pix = drawn('<rect width="100" height="100" fill="black" display="none"/>')
    assert at(pix, 50, 50) == WHITE


# ------------------------------------------------------------ what is ignored, what is refused
INKSCAPE = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
     xmlns:dc="http://purl.org/dc/elements/1.1/" viewBox="0 0 10 10" inkscape:version="1.3" sodipodi:docname="x.svg">
  <sodipodi:namedview id="view" inkscape:zoom="1"/>
  <metadata><rdf:RDF><dc:title>A card</dc:title></rdf:RDF></metadata>
  <title>A card</title>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer"><rect width="10" height="10" fill="#ff0000"/></g>
</svg>"""


def template_set(tmp_path: Path, text: str) -> TemplateSet:
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "t.svg.j2").write_text(text)
    return TemplateSet((folder,))


def test_every_property_the_renderer_inherits_is_checked():
    assert set(PRESENTATION) == set(INHERITED)


def test_other_namespaces_and_metadata_are_ignored(tmp_path):
    page, problems = render_page(template_set(tmp_path, INKSCAPE).render("t.svg.j2"), 10, 10)
    assert problems == []
    assert near(page.get_pixmap(dpi=72).pixel(14, 14), (255, 0, 0))


@pytest.mark.parametrize(("line", "expected"), [
    ('<pattern id="p"/>', "2:1: expected an SVG element printkit draws (a, circle, clipPath, defs, ellipse, g, "
                          "image, line, path, polygon, polyline, rect, svg, text, use), found <pattern>"),
    ('<rect width="1" height="1" fill="url(#p)"/>', "2:28: expected a colour (an SVG colour name, #rgb, #rrggbb, "
                                                    "#rrggbbaa, rgb(…), none or currentColor) in fill of <rect>, found 'url(#p)'"),
    ('<rect width="1" height="1" style="stroke-dashoffset: 2"/>', "2:28: expected one of (0, 0px, normal) in style "
                                                                  "stroke-dashoffset of <rect>, found '2'"),
    ('<rect width="1" height="1" style="stroke-dashboard: 2"/>', "2:28: expected a style property printkit draws on "
                                                                 "<rect>, found 'stroke-dashboard'"),
    ('<use href="#nowhere"/>', "2:6: expected '#id' of an element in this SVG, found '#nowhere'"),
    ('<rect width="1" height="1" clip-path="url(#nowhere)"/>', "2:28: expected the id of a <clipPath> in this SVG, "
                                                               "found 'url(#nowhere)'"),
    ('<text x="1" y="1" font-family="Comic Sans">Hi</text>', "2:19: expected a font family printkit has "
                                                             "(Barlow Condensed, Barlow) or one game.yaml's font_map maps in font-family of <text>, "
                                                             "found 'Comic Sans'"),
    ('<text x="1" y="1" fill="#00000080">Hi</text>', "2:19: expected an opaque text colour (text prints without "
                                                    "transparency) in fill of <text>, found '#00000080'"),
])
def test_what_printkit_cannot_draw_is_refused_at_its_place(tmp_path, line, expected):
    tpl = template_set(tmp_path, line.join(('<svg xmlns="http://www.w3.org/2000/svg">\n', "\n</svg>")))
    with pytest.raises(TemplateProblem) as info:
        tpl.render("t.svg.j2")
    assert [str(p) for p in info.value.problems] == [f"tpl/t.svg.j2:{expected}"]
