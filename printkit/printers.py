"""Printer profiles: a named duplex offset saved in the user's config file, so that a printer whose
backs land off their fronts is corrected once (`printkit printer NAME --duplex-offset DX,DY`) and
then named on every build (`--printer NAME`)."""
from __future__ import annotations

import math
import os
from pathlib import Path

import yaml

from .errors import ContentError, Pos, Problem, UsageError
from .staging import os_problem


def config_file() -> Path:
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "printkit" / "printers.yaml"


def parse_offset(text: str) -> tuple[float, float]:
    """'DX,DY' in mm (right and down), each within ±10 mm."""
    try:
        dx, dy = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"expected --duplex-offset DX,DY in mm (for example 0.5,-1), found {text!r}") from None
    if not all(math.isfinite(v) and abs(v) <= 10 for v in (dx, dy)):
        raise UsageError(f"expected a duplex offset within ±10 mm each way, found {text!r}")
    return dx, dy


def _in_the_way(path: Path) -> None:
    """A file where a folder of the config path belongs (HOME set to a file, say): a problem at that file."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            raise ContentError([Problem(Pos(str(parent)), "expected a folder for the printer profiles, found a file")])


def _profiles() -> dict[str, dict]:
    path = config_file()
    _in_the_way(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UsageError(f"expected a readable printer profile file {path}, found {type(exc).__name__}") from None
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise UsageError(f"expected printer profiles (name: {{duplex_offset: [DX, DY]}}) in {path}, found {type(data).__name__}")
    return data


def printer_offset(name: str) -> tuple[float, float]:
    profiles = _profiles()
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or "none saved"
        raise UsageError(f"unknown printer {name!r}; printers: {known}")
    offset = profiles[name].get("duplex_offset")
    if not (isinstance(offset, list) and len(offset) == 2):
        raise UsageError(f"expected duplex_offset: [DX, DY] for printer {name!r} in {config_file()}, found {offset!r}")
    return parse_offset(f"{offset[0]},{offset[1]}")


def save_printer(name: str, offset: tuple[float, float]) -> Path:
    profiles = _profiles()
    profiles[name] = {"duplex_offset": [offset[0], offset[1]]}
    path = config_file()
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(yaml.safe_dump(profiles, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True) if tmp.parent.is_dir() else None
        raise ContentError([os_problem(path, exc)]) from None
    return path
