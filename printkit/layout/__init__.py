"""Stage 5, layout: pieces placed on sheets.

Owns imposition grids, gutterfold and tiling (impose), sheets of pieces with cut marks and duplex
backs (sheets), flowing text on sheets (flow), tiled boards and posters (boards), one component's
pages and the registry of component kinds (parts), the print guide (guide), and pieces as images (export:
every face alone with print-service bleed) and on a Tabletop Simulator table (tabletop). Imports every stage
below it; `build` and `cli` sit on top.
"""

# what the stages above use; everything else in this folder is private to it
from .calibration import calibration_pages
from .boards import fits_sheet, poster_paper
from .export import ExportFile, component_faces, game_exports, image_files, piece_name, piece_stems, runs, slug
from .flow import count_pages, flow_pages, preload
from .guide import Entry, Job, entry_kind, guide_flow
from .kit import Ganged, draw_kit_body, ganged_pages, gangs, job_sheets, plan_kit, with_blanks
from .parts import (
    Options, blank_page, draw_part, draw_poster, foldable, guide_catalogs, is_duplex, is_localised,
    items_of, paper_label, piece_size, piece_specs, planned_pages, template_problems, two_sided)
from .sheets import SheetLabels, Sink, draw_face
from .tabletop import Table

__all__ = [
    "calibration_pages", "component_faces", "Entry", "ExportFile", "image_files", "piece_stems", "Job", "Options", "SheetLabels", "Sink", "Table", "blank_page",
    "count_pages", "draw_face", "draw_kit_body", "draw_part", "draw_poster", "entry_kind", "fits_sheet", "flow_pages", "foldable",
    "game_exports", "Ganged", "ganged_pages", "gangs", "guide_catalogs", "job_sheets", "piece_name", "plan_kit",
    "slug", "with_blanks",
    "guide_flow", "is_duplex", "is_localised", "items_of", "paper_label", "piece_size",
    "piece_specs", "planned_pages", "poster_paper", "preload", "runs", "template_problems", "two_sided"]
