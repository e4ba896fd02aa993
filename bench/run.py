"""printkit's benchmark: the reference deck workload, printkit against bare ReportLab (and protograf).

    python bench/run.py [--workloads deck60,deck6000] [--runs N] [--json FILE]
                        [--no-protograf] [--protograf-6000] [--protograf-python PATH]

Every tool is a separate process, timed as a whole (wall clock, median of the runs) with its peak
memory (max RSS from os.wait4, what /usr/bin/time reports) and the size of the PDF it wrote. Runs
are interleaved (bare, printkit, protograf, bare, ...) so that drift of a noisy machine hits every
tool alike; ratios against bare ReportLab in the same run are the numbers that count.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_content import compile_bytecode, make_game, shared_dir  # noqa: E402

DEFAULT_RUNS = {"deck60": 5, "deck6000": 3}
TARGET = 1.5  # printkit / bare ReportLab wall time on deck6000


@dataclass
class Tool:
    """One way of producing the deck: a command line and the PDF it writes."""

    name: str
    python: str  # the interpreter that runs it
    cmd: list[str]
    pdf: Path
    clean: Path | None = None  # folder removed before each run (printkit's --out)
    env: dict[str, str] | None = None  # extra environment (printkit's cache switch)


@dataclass
class Result:
    workload: str
    tool: str
    python: str
    walls: list[float] = field(default_factory=list)
    peaks_mib: list[float] = field(default_factory=list)
    pdf_kib: float = 0.0
    pages: int = 0
    error: str = ""

    @property
    def wall(self) -> float:
        return statistics.median(self.walls) if self.walls else float("nan")

    @property
    def peak(self) -> float:
        return statistics.median(self.peaks_mib) if self.peaks_mib else float("nan")


# ---------------------------------------------------------------- measuring one process
def run_once(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS in MiB, exit code and stderr of one process."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err,
                                env={**os.environ, **env} if env else None)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return wall, usage.ru_maxrss / 1024.0, proc.returncode, err.read().decode(errors="replace")


def page_count(pdf: Path) -> int:
    try:
        from pypdf import PdfReader

        return len(PdfReader(str(pdf)).pages)
    except ImportError:  # ReportLab writes plain page dictionaries
        return len(re.findall(rb"/Type\s*/Page(?!s)", pdf.read_bytes()))


def measure(tool: Tool, result: Result, cwd: Path) -> None:
    if tool.clean is not None:
        shutil.rmtree(tool.clean, ignore_errors=True)
    tool.pdf.unlink(missing_ok=True)
    wall, peak, rc, err = run_once(tool.cmd, cwd, tool.env)
    if rc != 0 or not tool.pdf.is_file():
        result.error = err.strip() or f"exit code {rc}, no {tool.pdf.name}"
        print(f"  {result.tool}: FAILED (exit {rc})\n" + _indent(result.error), flush=True)
        return
    result.walls.append(wall)
    result.peaks_mib.append(peak)
    result.pdf_kib = tool.pdf.stat().st_size / 1024.0
    print(f"  {result.tool:<22} {wall:8.2f} s {peak:8.1f} MiB", flush=True)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines()[-25:])


# ---------------------------------------------------------------- the tools
def printkit_cmd() -> list[str]:
    """The `printkit` script of this interpreter (no pyenv shim in the timing), else from PATH."""
    local = Path(sys.executable).parent / "printkit"
    found = str(local) if local.is_file() else shutil.which("printkit")
    if not found:
        sys.exit("expected the printkit command (pip install -e .), found none")
    return [found]


def script_python(script: str) -> str:
    """The interpreter named on a console script's #! line."""
    first = Path(script).read_bytes().split(b"\n", 1)[0].decode(errors="replace")
    return first[2:].strip().split()[0] if first.startswith("#!") else sys.executable


def has_module(python: str, module: str) -> bool:
    probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
    return probe.returncode == 0


def rl_accel(python: str) -> bool:
    """Whether ReportLab's C accelerator (_rl_accel) is what reportlab.lib.rl_accel uses."""
    probe = subprocess.run([python, "-c", "from reportlab.lib.rl_accel import _c_funcs; print('fp_str' in _c_funcs)"],
                           capture_output=True, text=True)
    return probe.stdout.strip() == "True"


def version_of(python: str, code: str) -> str:
    probe = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return probe.stdout.strip() or "?"


def printkit_args(pk: list[str], game: str, work: Path, out: Path) -> list[str]:
    return pk + ["build", game, "--content", str(work / "content"), "--templates", str(work / "templates"),
                 "--paper", "a4", "--lang", "en", "--no-kit", "--no-poster", "--no-gutterfold", "--out", str(out)]


def tools_for(n: int, work: Path, protograf_python: str | None) -> list[Tool]:
    shared = shared_dir()
    game = make_game(work, n)
    out = work / "out"
    pk = printkit_cmd()
    tools = [
        Tool("bare ReportLab", sys.executable, [sys.executable, str(shared / "deck_bare_rl.py"), str(n), str(work / "bare.pdf")],
             work / "bare.pdf"),
        Tool("bare ReportLab + TTF", sys.executable,
             [sys.executable, str(Path(__file__).resolve().parent / "deck_bare_rl_ttf.py"), str(n), str(work / "bare_ttf.pdf")],
             work / "bare_ttf.pdf"),
        Tool("printkit", script_python(pk[0]), printkit_args(pk, game, work, out), out / game / "a4" / "deck.pdf",
             clean=out, env={"PRINTKIT_CACHE": str(work / "cache")}),
        # the same build with the content cache off: what a first build costs
        Tool("printkit (no cache)", script_python(pk[0]), printkit_args(pk, game, work, out), out / game / "a4" / "deck.pdf",
             clean=out, env={"PRINTKIT_CACHE": "off"}),
    ]
    if protograf_python:
        if os.path.realpath(protograf_python) != os.path.realpath(sys.executable):
            tools.append(Tool("bare ReportLab (pg py)", protograf_python,
                              [protograf_python, str(shared / "deck_bare_rl.py"), str(n), str(work / "bare_pg.pdf")],
                              work / "bare_pg.pdf"))
        tools.append(Tool("protograf", protograf_python,
                          [protograf_python, str(shared / "deck_protograf.py"), str(n), str(work / "protograf.pdf")],
                          work / "protograf.pdf"))
    return tools


# ---------------------------------------------------------------- one workload
def bench_workload(name: str, runs: int, protograf_python: str | None, root: Path) -> list[Result]:
    n = int(name.removeprefix("deck"))
    work = root / name
    tools = tools_for(n, work, protograf_python)
    results = [Result(name, t.name, t.python) for t in tools]
    print(f"\n{name}: {n} cards, {runs} runs each, interleaved", flush=True)
    for r in range(runs):
        print(f" run {r + 1}/{runs}", flush=True)
        for tool, result in zip(tools, results):
            if not result.error:
                measure(tool, result, work)
    for tool, result in zip(tools, results):
        if not result.error:
            result.pages = page_count(tool.pdf)
    check_pages(n, results)
    return results


def warm_up(root: Path, protograf_python: str | None) -> None:
    """One untimed deck60 run of every tool: file caches and bytecode are warm for everyone."""
    work = root / "warmup"
    for tool in tools_for(60, work, protograf_python):
        run_once(tool.cmd, work, tool.env)


def check_pages(n: int, results: list[Result]) -> None:
    expected = 2 * -(-n // 9)
    by_tool = {r.tool: r for r in results}
    bare, pk = by_tool["bare ReportLab"], by_tool["printkit"]
    if pk.error:
        print(f"WARNING: printkit failed on deck{n}; no page check", flush=True)
    elif pk.pages != bare.pages or pk.pages != expected:
        print(f"WARNING: deck{n}: printkit wrote {pk.pages} pages, bare ReportLab {bare.pages}, "
              f"expected {expected}", flush=True)
    else:
        print(f" pages OK: printkit {pk.pages} = bare {bare.pages} = expected {expected}", flush=True)


# ---------------------------------------------------------------- report
def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and a == a and b == b else "-"


def baseline_for(result: Result, results: list[Result]) -> Result:
    """protograf is compared with bare ReportLab run by protograf's own interpreter when that differs."""
    same = {r.tool: r for r in results if r.workload == result.workload}
    if result.tool == "protograf" and "bare ReportLab (pg py)" in same:
        return same["bare ReportLab (pg py)"]
    return same["bare ReportLab"]


def report(results: list[Result]) -> str:
    lines = ["| workload | tool | wall s (median) | peak MiB | PDF KiB | pages | time / bare | memory / bare |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        if r.error:
            lines.append(f"| {r.workload} | {r.tool} | FAILED | | | | | |")
            continue
        base = baseline_for(r, results)
        lines.append(f"| {r.workload} | {r.tool} | {r.wall:.2f} | {r.peak:.0f} | {r.pdf_kib:.0f} | {r.pages} "
                     f"| {ratio(r.wall, base.wall)} | {ratio(r.peak, base.peak)} |")
    return "\n".join(lines)


def ratios(results: list[Result]) -> str:
    """printkit/bare and protograf/bare per workload (protograf against bare in its own interpreter)."""
    lines = []
    for r in results:
        if r.tool in ("printkit", "printkit (no cache)", "protograf") and not r.error:
            base = baseline_for(r, results)
            lines.append(f"{r.workload}: {r.tool}/bare  time {ratio(r.wall, base.wall)}  memory {ratio(r.peak, base.peak)}"
                         f"  pdf {ratio(r.pdf_kib, base.pdf_kib)}  (bare = {base.tool})")
    return "\n".join(lines)


def verdict(results: list[Result]) -> str:
    by = {(r.workload, r.tool): r for r in results}
    pk, bare = by.get(("deck6000", "printkit")), by.get(("deck6000", "bare ReportLab"))
    if not pk or not bare or pk.error or bare.error:
        return "target (printkit within 1.5x of bare ReportLab on deck6000): not measured in this run"
    k = pk.wall / bare.wall
    text = (f"target: printkit within {TARGET}x of bare ReportLab on deck6000 -> {k:.2f}x: "
            f"{'MET' if k <= TARGET else 'NOT MET'} (memory {pk.peak:.0f} MiB vs {bare.peak:.0f} MiB)")
    cold = by.get(("deck6000", "printkit (no cache)"))
    if cold and not cold.error:
        text += f"\nfirst build (content cache off): {cold.wall / bare.wall:.2f}x"
    ttf = by.get(("deck6000", "bare ReportLab + TTF"))
    if ttf and not ttf.error:
        k2 = pk.wall / ttf.wall
        text += (f"\nagainst bare ReportLab with the same embedded font: {k2:.2f}x: "
                 f"{'MET' if k2 <= TARGET else 'NOT MET'} (memory {pk.peak:.0f} MiB vs {ttf.peak:.0f} MiB)")
    small_pk, small_bare = by.get(("deck60", "printkit")), by.get(("deck60", "bare ReportLab"))
    if small_pk and small_bare and not small_pk.error and not small_bare.error:
        text += (f"\nmemory growth deck60 -> deck6000: printkit {small_pk.peak:.0f} -> {pk.peak:.0f} MiB "
                 f"({pk.peak / small_pk.peak:.2f}x), bare {small_bare.peak:.0f} -> {bare.peak:.0f} MiB "
                 f"({bare.peak / small_bare.peak:.2f}x)")
    return text


def printkit_revision() -> str:
    """The commit measured, and whether the engine's files differ from it (work in progress)."""
    repo = Path(__file__).resolve().parents[1]
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "printkit"], capture_output=True, text=True)
    return (head.stdout.strip() or "?") + (" + uncommitted changes in printkit/" if dirty.stdout.strip() else "")


def machine(pythons: dict[str, str]) -> dict:
    return {
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "printkit": printkit_revision(),
        "nproc": os.cpu_count(),
        "platform": platform.platform(),
        "interpreters": {
            label: {"python": py, "version": version_of(py, "import sys; print(sys.version.split()[0])"),
                    "reportlab": version_of(py, "import reportlab; print(reportlab.Version)"),
                    "rl_accel": rl_accel(py)}
            for label, py in pythons.items()
        },
    }


def _num(x: float) -> float | None:
    return None if x != x else round(x, 4)


# ---------------------------------------------------------------- main
def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="printkit vs bare ReportLab (vs protograf) on the shared deck workload")
    ap.add_argument("--workloads", default="deck60,deck6000", help="comma list of deck60, deck6000")
    ap.add_argument("--runs", type=int, default=None, help="runs per tool (default 5 for deck60, 3 for deck6000)")
    ap.add_argument("--protograf", action=argparse.BooleanOptionalAction, default=True,
                    help="include protograf on deck60 when it is importable (default yes)")
    ap.add_argument("--protograf-6000", action="store_true", help="include protograf on deck6000 too (~400 s a run)")
    ap.add_argument("--protograf-python", default=os.environ.get("PRINTKIT_PROTOGRAF_PYTHON", sys.executable),
                    help="interpreter that has protograf (0.6.0 needs Python >= 3.13); "
                         "default $PRINTKIT_PROTOGRAF_PYTHON or this one")
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary folder)")
    return ap.parse_args()


def main() -> None:
    args = parse_args()
    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    bad = [w for w in workloads if w not in DEFAULT_RUNS]
    if bad:
        sys.exit(f"expected workloads among {', '.join(DEFAULT_RUNS)}, found {', '.join(bad)}")
    pg_python = args.protograf_python if args.protograf and has_module(args.protograf_python, "protograf") else None
    if args.protograf and pg_python is None:
        print(f"protograf is not importable by {args.protograf_python}: skipped "
              "(pip install protograf==0.6.0 in a Python >= 3.13, then --protograf-python)")
    pythons = {"bare ReportLab": sys.executable, "printkit": script_python(printkit_cmd()[0])}
    if pg_python:
        pythons["protograf"] = pg_python
    info = machine(pythons)
    print(f"{info['date']}  nproc={info['nproc']}  {info['platform']}  printkit {info['printkit']}")
    for label, i in info["interpreters"].items():
        print(f"  {label}: Python {i['version']} ({i['python']}), reportlab {i['reportlab']}, "
              f"rl_accel {'yes' if i['rl_accel'] else 'NO'}")
    compile_bytecode(Path(__file__).resolve().parents[1] / "printkit")
    root = args.keep or Path(tempfile.mkdtemp(prefix="printkit-bench-"))
    results: list[Result] = []
    try:
        warm_up(root, pg_python)
        for w in workloads:
            with_pg = pg_python if (w == "deck60" or args.protograf_6000) else None
            results += bench_workload(w, args.runs or DEFAULT_RUNS[w], with_pg, root)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print("\n" + report(results) + "\n\n" + ratios(results) + "\n\n" + verdict(results))
    if args.json:
        body = {"machine": info, "results": [{**asdict(r), "wall": _num(r.wall), "peak_mib": _num(r.peak)} for r in results],
                "verdict": verdict(results)}
        args.json.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
