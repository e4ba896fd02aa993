"""Stage 5, layout: pieces placed on sheets.

Owns imposition grids, gutterfold and tiling (impose), sheets of pieces with cut marks and duplex
backs (sheets), flowing text on sheets (flow), tiled boards and posters (boards), one component's
pages and the registry of component kinds (parts) and the print guide (guide). Imports every stage below it; `build` and `cli` sit on
top.
"""
