"""The first pages of every kit: what to print, at what scale, which duplex setting, how to assemble."""
from __future__ import annotations

from dataclasses import dataclass

from ..content import GameContent
from ..content import fill, typography
from ..geometry import Paper
from ..content import Deck, Sheet
from .parts import guide_catalogs, kind_of
from .flow import Flow, markup, spacer, styles, table


@dataclass(frozen=True)
class Job:
    """One print job of a kit: its key (card_duplex, card_single, paper), its pages and its sheets."""

    key: str
    pages: tuple[int, ...]
    sheets: int


@dataclass(frozen=True)
class Entry:
    """One component of a kit as the guide lists it."""

    title: str
    kind: str
    pages: int
    items: int
    size: str = ""
    first: int = 0  # first page of the part in the kit (1-based); 0 when unknown
    duplex: bool = False
    poster: str = ""  # paper of a board's one-page poster
    two_sided: bool = False  # pieces with a printed back, whatever the layout
    stem: str = ""  # the component's file stem
    page_list: tuple[int, ...] = ()  # its pages in the kit when it shares sheets with other parts

    @property
    def span(self) -> str:
        if self.page_list:
            return ranges(list(self.page_list))
        if not self.first:
            return str(self.pages)
        last = self.first + self.pages - 1
        return str(self.first) if last == self.first else f"{self.first}\u2013{last}"


def ranges(pages: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] → '1–3, 7, 9–10'."""
    out: list[str] = []
    for page in sorted(pages):
        if out and out[-1][1] == page - 1:
            out[-1] = (out[-1][0], page)
        else:
            out.append((page, page))  # type: ignore[arg-type]
    return ", ".join(str(a) if a == b else f"{a}\u2013{b}" for a, b in out)  # type: ignore[misc]


def guide_flow(content: GameContent, paper: Paper, lang: str, entries: list[Entry], layout: str,
               total_pages: int = 0, jobs: tuple[Job, ...] = (), saved: int = 0) -> Flow:
    cat = guide_catalogs()

    def t(key: str, **values: object) -> str:
        return typography(fill(cat.get(lang, "guide." + key), lang, values), lang)

    def make() -> list:
        from reportlab.platypus import Paragraph  # platypus only when the guide is poured (flow.py)

        st = styles(lang)
        paper_name = t(f"paper_{paper.name}")
        out = [Paragraph(markup(content.title_in(lang)), st["title"]),
               Paragraph(markup(t("subtitle", game=t("title"), paper=paper_name, lang_name=t("lang_name"))), st["h3"])]
        credits = content.localised(lang, "kit.credits", content.game.credits)
        if credits:
            out.append(Paragraph(markup(credits), st["p"]))
        needs = content.localised(lang, "kit.needs", "")
        out.append(Paragraph(markup(t("tools") + (" " + needs if needs else "")), st["p"]))
        if lang != content.game.content_lang and _untranslated_words(content):
            language = t(f"lang_{content.game.content_lang}")
            out.append(Paragraph(markup("**" + t("pieces_language", language=language) + "**"), st["p"]))
        out.append(Paragraph(markup(t("contents_h")), st["h2"]))
        rows = [[t("col_component"), t("col_pages"), t("col_pieces"), t("col_sides")]]
        for e in entries:
            sides = (t("sides_paper") if jobs and e.kind == "sheet" else t("sides_duplex") if e.duplex
                     else t("sides_gutterfold") if e.two_sided else t("sides_single"))
            rows.append([e.title, e.span, str(e.items) if e.items else "\u2014", sides])
        out.append(table(rows, [70, 18, 18, 70], lang))
        out.append(Paragraph(markup(t("print_h")), st["h2"]))
        duplex_pages = [e.first + i for e in entries if e.duplex and e.first for i in range(e.pages)]
        if jobs:
            out.append(Paragraph(markup("**" + t("print_jobs") + "**"), st["p"]))
            for job in jobs:
                if job.pages:
                    out.append(Paragraph(markup(t("job_line", job=f"**{t('job_' + job.key)}**", pages=ranges(list(job.pages)),
                                                  sheets=job.sheets)), st["bullets"], bulletText="\u2022"))
            total = sum(j.sheets for j in jobs)
            out.append(Paragraph(markup(t("sheets_saved", total=total, saved=saved) if saved else t("sheets_total", total=total)),
                                 st["p"]))
        elif total_pages and duplex_pages:
            single = [p for p in range(1, total_pages + 1) if p not in set(duplex_pages)]
            out.append(Paragraph(markup("**" + t("print_ranges", duplex=ranges(duplex_pages), single=ranges(single)) + "**"),
                                 st["p"]))
        elif total_pages:
            out.append(Paragraph(markup("**" + t("print_all_single") + "**"), st["p"]))
        for key in ("print_scale", "print_duplex", "print_noduplex", "print_stock"):
            out.append(Paragraph(markup(t(key)), st["bullets"], bulletText="\u2022"))
        if layout == "gutterfold":
            out.append(Paragraph(markup(t("gutterfold")), st["bullets"], bulletText="\u2022"))
        out.append(Paragraph(markup(t("cut_h")), st["h2"]))
        out.append(Paragraph(markup(t("cut_marks")), st["p"]))
        out.append(Paragraph(markup(t("assembly_h")), st["h2"]))
        for e in entries:
            values = dict(title=f"**{e.title}**", count=e.items, tiles=e.items, size=e.size,
                          poster=t(f"paper_{e.poster}") if e.poster else "")
            own = f"kit.assembly.{e.stem}"  # a game may say how one of its parts is assembled
            if e.stem and content.catalogs.has(own):
                text = typography(fill(content.catalogs.get(lang, own), lang, {**content.game.params, **values}), lang)
            else:
                text = t("kind." + e.kind, **values)
                if e.two_sided and e.kind.startswith("tokens"):
                    text += " " + t("two_sided_note")
            out.append(Paragraph(markup(text), st["bullets"], bulletText="\u2022"))
        if any(e.kind == "board-tiled" for e in entries):
            out.append(Paragraph(markup(t("tiles_h")), st["h2"]))
            out.append(Paragraph(markup(t("tiles_p")), st["p"]))
        out.append(spacer(2))
        return out

    return Flow(make, 1, (content.title_in(lang), t("title")))


def entry_kind(model: object, tiled: bool = False) -> str:
    """The guide's name for how a part is assembled (its key under guide.kind)."""
    return kind_of(model).guide_entry(model, tiled)


def _untranslated_words(content: GameContent) -> bool:
    """Whether some pieces carry words printed in the content's language in every kit (cards' titles and
    texts); numbers, symbols and pieces printed per language need no note."""
    return any(not c.model.per_language and (isinstance(c.model, Deck) or
                                          any(spec.type == "text" for spec in c.model.fields.values()))
               for c in content.components.values() if not isinstance(c.model, Sheet))
