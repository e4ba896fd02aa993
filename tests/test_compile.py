"""Compiled card templates fill only what changes, and draw exactly what a full render draws."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

import pytest

from printkit.draw.compile import analyse, group_key, plan_for, substitute
from printkit.draw.templates import TemplateSet

FRONT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 90">
<rect width="60" height="10" fill="{{ data.colours[card.type] }}"/>
{% if card.cost is defined %}<text x="50" y="8">{{ card.cost }}</text>{% endif %}
<text x="2" y="8" data-w="40">{{ card.title }}</text>
<text x="2" y="20" data-w="56" data-h="40">{{ card.text }}</text>
<text x="2" y="80">{{ card.place | upper }}</text>
</svg>"""


@pytest.fixture()
def tpl(tmp_path):
    (tmp_path / "front.svg.j2").write_text(FRONT)
    (tmp_path / "loop.svg.j2").write_text('<svg>{% for k in card %}<text>{{ k }}</text>{% endfor %}</svg>')
    return TemplateSet((tmp_path,))


def test_fields_the_template_only_prints_are_told_from_those_it_tests(tpl):
    fields = analyse(tpl, "front.svg.j2", "card")
    assert fields.printed == {"title", "text"}
    assert fields.structural == {"type", "cost", "place"}
    assert analyse(tpl, "loop.svg.j2", "card") is None


def test_a_plan_filled_with_a_card_is_the_full_render(tpl):
    base = {"data": {"colours": {"a": "#ff0000", "b": "#0000ff"}}}
    cards = [{"type": "a", "title": "One & <Two>", "text": "Plain text.", "place": "x"},
             {"type": "a", "title": "Three", "text": "Other \"text\".", "place": "x"}]
    fields = analyse(tpl, "front.svg.j2", "card")
    assert group_key(cards[0], fields.structural) == group_key(cards[1], fields.structural)
    full = tpl.render("front.svg.j2", **base, card=cards[0])
    plan = plan_for(tpl, "front.svg.j2", base, "card", cards[0], fields.printed, full)
    assert plan is not None and plan.fields == {"title", "text"}
    texts = ["".join(e.itertext()) for e in plan.root.iter("{http://www.w3.org/2000/svg}text")]
    assert "\ue000title\ue001" in texts and "X" in texts
    # the plan filled with another card of its group draws exactly what a full render of that card draws
    filled = ET.fromstring(substitute(ET.tostring(plan.root, encoding="unicode"),
                                      {f: escape(str(cards[1][f])) for f in plan.fields}))
    rendered = ET.fromstring(tpl.render("front.svg.j2", **base, card=cards[1]))
    assert ET.tostring(filled, encoding="unicode") == ET.tostring(rendered, encoding="unicode")
    other = {**cards[1], "type": "b"}
    assert group_key(other, fields.structural) != group_key(cards[1], fields.structural)
