"""Sandboxed Jinja2 SVG templates: the search path (render), the sandbox they run in (sandbox), the check
of the SVG they render (check), and where in a template a problem lies (sourcemap)."""

from .render import HEX_HELPERS, TemplateProblem, TemplateSet, environment, take_notes

__all__ = ["HEX_HELPERS", "TemplateProblem", "TemplateSet", "environment", "take_notes"]
