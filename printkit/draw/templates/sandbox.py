"""The sandbox templates render in: Jinja's immutable sandbox, with only the helpers printkit gives.

A template may read the values it is given and call printkit's helpers; it cannot reach Python's
internals (no `__class__`, `__globals__`, `__builtins__`: a SecurityError), change the values it
is given (lists and dicts are read-only in it), read files or run commands. `range` and the
repetition and power operators are bounded, so a template cannot exhaust the machine's memory.
"""
from __future__ import annotations

from typing import Any, Callable

from jinja2.runtime import Context, Namespace, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError, safe_range

MAX_ITEMS = 1_000_000  # items (characters) a `*` repetition may make
MAX_BITS = 100_000  # size of an integer `**` may make
_PLAIN = frozenset({int, float})


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox; `*` and `**` checked before they run."""

    intercepted_binops = frozenset({"*", "**"})

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, Undefined):  # say what is undefined, not that its Python internals are unsafe
            obj._fail_with_undefined_error()  # noqa: SLF001 - Jinja's way of raising an undefined's error
        return super().getattr(obj, attribute)

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if type(left) in _PLAIN and type(right) in _PLAIN and operator == "*":
            return left * right  # arithmetic, most of what templates multiply
        if operator == "*" and _repeats(left, right) > MAX_ITEMS:
            raise SecurityError(f"the sandbox makes at most {MAX_ITEMS:,} items by repetition")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 \
                and abs(left).bit_length() * right > MAX_BITS:
            raise SecurityError(f"the sandbox makes numbers of at most {MAX_BITS:,} bits")
        return super().call_binop(context, operator, left, right)


def _repeats(left: Any, right: Any) -> int:
    """Items a `sequence * n` makes (0 for arithmetic)."""
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and not isinstance(n, bool):
            return len(seq) * n
    return 0


def sandbox_globals(helpers: dict[str, Callable[..., Any] | Any]) -> dict[str, Any]:
    """What every template sees besides its values: bounded range, dict, namespace and printkit's helpers
    (Jinja's other globals, lipsum, cycler and joiner, are left out)."""
    return {"range": safe_range, "dict": dict, "namespace": Namespace, **helpers}
