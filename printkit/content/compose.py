"""Bytes of a YAML file → YAML nodes, within limits: read, decoded, characters checked, composed.

PyYAML's own composer recurses once per level and follows aliases into aliases, so deep nesting
ends in RecursionError and an alias bomb in MemoryError. Here nodes are composed from the parser's
events one at a time, each finished node knowing how many values it stands for once its aliases
are expanded and how deep it is, so a file over a limit stops at the event that crosses it, with
its position (the values written out in a file are bounded by its size, checked before parsing). Plain scalars that YAML 1.1 (which PyYAML reads) and YAML 1.2 read differently are
reported, so a value always means what YAML says: `no` is false in one and text in the other.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import ContentError, Pos, Problem, describe, expected_found

# libyaml's parser when PyYAML was built with it (the wheels are): ~10x faster, same marks.
BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Limits no real game meets (docs/content-format.md, "Limits"): they bound the work one file can ask
# for, so a broken or hostile file is a positioned error found at once, not a hang or a crash.
MAX_FILE_BYTES = 4 << 20  # 4 MiB; the largest shipped file has 25 kB, the benchmark deck of 6,000 cards 1.7 MB
MAX_DEPTH = 32  # mappings and lists inside each other; the deepest shipped file has 7
MAX_REPEATED = 100_000  # values that aliases repeat in one file (an alias bomb: a billion); shipped files repeat < 200
MAX_ALIASES = 1_000  # aliases (*name) in one file; shipped files have < 30
MAX_TEXT = 20_000  # characters in one text; the longest shipped text has 1,200
MAX_DIGITS = 18  # digits of a whole number (Python refuses to read numbers of over 4,300 digits)

_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
# Characters YAML itself refuses or reads as line breaks where editors see none: reported at their
# place in the file, before the parser gives a position in bytes.
_UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
# Characters no text may hold: controls (tab and line feed aside; escapes can make them), the
# private-use code points printkit uses for its own placeholders, lone surrogates, non-characters.
NOT_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ue000-\uf8ff\ufffe\uffff"
                      "\U000f0000-\U0010ffff]")
# YAML 1.2's core schema: how a plain scalar reads there, to refuse those YAML 1.1 (PyYAML) reads otherwise
_CORE_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_CORE_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_CORE_WORDS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False,
               "null": None, "Null": None, "NULL": None, "~": None, "": None}


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character, counting line breaks as YAML does (LF, CR LF, CR)."""
    before = text[:index]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    return line, index - max(before.rfind("\n"), before.rfind("\r"))


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def text_problem(value: str) -> str | None:
    """What a text breaks of the rules every text keeps, or None (messages end in `found …`)."""
    if len(value) > MAX_TEXT:
        return f"expected a text of at most {MAX_TEXT:,} characters, found {len(value):,}"
    bad = NOT_TEXT.search(value)
    if bad:
        kind = "the private-use character" if 0xE000 <= ord(bad.group()) <= 0xF8FF or ord(bad.group()) >= 0xF0000 \
            else "the control character"
        return f"expected printable text, found {kind} {_code(bad.group())}"
    return None


class _Open:
    """A mapping or list being composed: its node and children, how many values it stands for, how deep."""

    __slots__ = ("node", "anchor", "children", "values", "height")

    def __init__(self, node: yaml.Node, anchor: str | None):
        self.node, self.anchor, self.children, self.values, self.height = node, anchor, [], 1, 1

    def add(self, child: yaml.Node, values: int, height: int) -> None:
        self.children.append(child)
        self.values += values
        self.height = max(self.height, height + 1)

    def finish(self, end: Any) -> tuple[yaml.Node, int, int]:
        node, kids = self.node, self.children
        node.value = kids if isinstance(node, yaml.SequenceNode) else list(zip(kids[::2], kids[1::2]))
        node.end_mark = end
        return node, self.values, self.height


class Composer:
    """Parser events → YAML nodes, one event at a time (no recursion), within the limits."""

    def __init__(self, loader: Any, path: str, problems: list[Problem]):
        self.loader, self.path, self.problems = loader, path, problems
        self.anchors: dict[str, tuple[yaml.Node, int, int]] = {}
        self.repeated = self.aliases = 0

    def _stop(self, mark: Any, expected: str, found: str) -> ContentError:
        pos = Pos(self.path, mark.line + 1, mark.column + 1)
        return ContentError(self.problems + [expected_found(pos, expected, found, raw=True)])

    def compose(self) -> yaml.Node | None:
        get = self.loader.get_event
        get()  # stream start
        if self.loader.check_event(yaml.StreamEndEvent):
            return None
        get()  # document start
        root = self._document()
        get()  # document end
        if not self.loader.check_event(yaml.StreamEndEvent):
            raise self._stop(get().start_mark, "one document in the file", "a second one")
        return root

    def _document(self) -> yaml.Node:
        stack: list[_Open] = []
        while True:
            event = self.loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise self._stop(event.start_mark, f"at most {MAX_DEPTH} levels of nesting", "more")
                stack.append(_Open(self._collection(event), event.anchor))
                continue
            if isinstance(event, yaml.AliasEvent):
                node, values, height = self._alias(event, len(stack))
            elif isinstance(event, yaml.ScalarEvent):
                node, values, height = self._scalar(event), 1, 0
                self._anchor(event.anchor, node, 1, 0)
            else:  # the end of the innermost mapping or list: only now may an alias name it
                done = stack.pop()
                node, values, height = done.finish(event.end_mark)
                self._anchor(done.anchor, node, values, height)
            if not stack:
                return node
            stack[-1].add(node, values, height)

    def _anchor(self, name: str | None, node: yaml.Node, values: int, height: int) -> None:
        if name is not None:
            self.anchors[name] = (node, values, height)

    def _collection(self, event: Any) -> yaml.Node:
        kind = yaml.SequenceNode if isinstance(event, yaml.SequenceStartEvent) else yaml.MappingNode
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(kind, None, event.implicit)
        return kind(tag, [], event.start_mark, event.end_mark, flow_style=event.flow_style)

    def _alias(self, event: Any, depth: int) -> tuple[yaml.Node, int, int]:
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise self._stop(event.start_mark, f"at most {MAX_ALIASES:,} aliases in a file", "more")
        if event.anchor not in self.anchors:
            raise self._stop(event.start_mark, "an alias of a complete anchor defined before it", f"*{event.anchor}")
        node, values, height = self.anchors[event.anchor]
        if depth + height > MAX_DEPTH:
            raise self._stop(event.start_mark, f"at most {MAX_DEPTH} levels of nesting", f"more through *{event.anchor}")
        self.repeated += values
        if self.repeated > MAX_REPEATED:
            raise self._stop(event.start_mark, f"at most {MAX_REPEATED:,} values repeated by aliases in a file", "more")
        return node, values, height

    def _scalar(self, event: Any) -> yaml.Node:
        tag, value = event.tag, event.value
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, style=event.style)
        if tag is None or tag == "!":
            node.tag = self.loader.resolve(yaml.ScalarNode, value, event.implicit)
            if event.implicit[0] and not event.style:
                self.check_plain(node)
        return node

    def check_plain(self, node: yaml.ScalarNode) -> None:
        """A plain scalar must mean the same in YAML 1.1 and 1.2 (or be quoted)."""
        text, tag = node.value, node.tag
        if tag == _INT and text.isdigit() and (text[0] != "0" or len(text) == 1):
            return  # a plain decimal number, the common case, reads alike
        core = core_value(text)
        if tag == _STR and isinstance(core, str) or tag == "tag:yaml.org,2002:merge" and text == "<<":
            return  # the common case, at once
        try:
            mine = self.loader.yaml_constructors[tag](self.loader, node)
        except (KeyError, yaml.YAMLError, ValueError, OverflowError):
            return  # the builder reports it
        if type(mine) is type(core) and (mine == core or mine != mine):  # NaN is NaN in both
            return
        node.ambiguous = True  # reported here: the builder does not report it again as a key
        shown = f"the date {mine.isoformat()}" if hasattr(mine, "isoformat") else describe(mine)
        self.problems.append(Problem(node_pos(self.path, node), f"expected a plain value YAML 1.1 and 1.2 read alike, found "
                                                            f"{text} (YAML 1.1 reads {shown}, YAML 1.2 {describe(core)}); "
                                                            f"write \"{text}\" in quotes for text"))


def core_value(text: str) -> Any:
    """What YAML 1.2's core schema makes of a plain scalar."""
    if text in _CORE_WORDS:
        return _CORE_WORDS[text]
    if len(text) > 64:
        return text  # no number is this long: the builder reports one that YAML 1.1 reads as a number
    if _CORE_INT.fullmatch(text):
        return int(text[2:], 8) if text.startswith("0o") else int(text, 16 if text.startswith("0x") else 10)
    if _CORE_FLOAT.fullmatch(text):
        special = text.lstrip("+-").lower()  # .inf, .nan
        return float(text.replace(".", "", 1) if special in (".inf", ".nan") else text)
    return text


def node_pos(path: str, node: yaml.Node) -> Pos:
    mark = node.start_mark
    return Pos(path, mark.line + 1, mark.column + 1)


def read_limited(file: Path, shown_as: str) -> bytes:
    """The file's bytes, no more than the limit (a larger file is not read to its end)."""
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ContentError([expected_found(Pos(shown_as), "a readable file", exc.strerror or type(exc).__name__,
                                           raw=True)]) from None
    if len(data) > MAX_FILE_BYTES:
        raise ContentError([expected_found(Pos(shown_as), f"a file of at most {MAX_FILE_BYTES // 1024:,} kB",
                                           "a larger one", raw=True)])
    return data


def decode(data: bytes, shown_as: str) -> str:
    """UTF-8 text, or an error at the first byte that is not UTF-8 (a file saved as Latin-1)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(head, len(head))
        raise ContentError([expected_found(Pos(shown_as, line, col), "UTF-8 text",
                                           f"the byte 0x{data[exc.start]:02X} (save the file as UTF-8)", raw=True)]) from None
    bad = _UNREADABLE.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        raise ContentError([expected_found(Pos(shown_as, line, col), "printable text",
                                           f"the control character {_code(bad.group())}", raw=True)])
    return text
