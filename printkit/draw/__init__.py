"""Stage 3, draw: pieces as vector drawings.

Owns the sandboxed Jinja templates (templates) and their compiled plans (compile), the expansion of
items into piece faces (pieces), SVG drawn onto a PDF canvas (svgdraw, svgvalues), text fitted in
boxes (svgtext), fonts and line breaking (text) and PDF text operators (pdftext). Imports `rules`,
`content`, `geometry` and `errors`.
"""
