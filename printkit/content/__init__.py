"""Stage 1, content: a game folder read into checked, typed values.

Owns YAML loading with positions (load), the parsed-file cache (cache), content and template roots
(paths), the declarations of every file (model) and their error phrasing (validation), items checked
against their fields (items), a game's components and catalogs (game), catalogs and typography
(i18n), per-item translations (translations) and selectors (select). Imports only `errors` and
`geometry`.
"""
