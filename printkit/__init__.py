"""printkit: print-and-play kits from YAML."""

__version__ = "0.1.0"


def _import_reportlab() -> None:
    """ReportLab looks for optional tweaks in ~/.reportlab_mods when imported and only expects that file
    to be missing; with HOME set to a file the lookup fails with NotADirectoryError and the import with
    it. There are no tweaks then: say so with an empty module and import again."""
    import sys
    import types

    try:
        import reportlab  # noqa: F401
    except NotADirectoryError:
        sys.modules.setdefault("reportlab_mods", types.ModuleType("reportlab_mods"))
        import reportlab  # noqa: F401,F811


_import_reportlab()
