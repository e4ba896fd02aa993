"""Where in a template a problem lies.

Jinja compiles a template to Python and keeps, for each line of that code, the template line it came
from; a traceback through a template names the template's file and line. Only failures take this path.
"""
from __future__ import annotations

from typing import Callable

Where = tuple[str, int]  # a template file's absolute path, 1-based line


def frame_line(exc: BaseException, is_template: Callable[[str], bool]) -> Where | None:
    """The innermost template line a traceback passes through."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if is_template(filename):
            found = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
