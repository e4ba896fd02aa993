"""`printkit build all` (5 games x 2 papers x 3 languages): cold on one process and on every core, a rebuild
with nothing changed, and a rebuild after one Rep-Detect card is edited, against bare ReportLab on deck6000.

    python bench/build_all.py [--runs N] [--json FILE] [--reference REV | --reference none]

Every command is a separate process timed as a whole (wall clock, median of the runs). The runs are
interleaved (bare, cold --jobs 1, cold, nothing changed, one card) so that a busy machine slows them all
alike; the ratios in one run are the numbers that count. The shipped content is copied to a scratch folder
(so that a card can be edited); the content cache stays as the user's (warm after the first run). After
each nothing-changed run, every file's mtime is compared: it must write nothing.

`--reference` also times, in the same runs, the serial `build all` of an earlier revision with its own content
and templates (read with `git archive`): by default 3aca388, printkit as it was when issue 17 was filed
("at most half of today's serial time").
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_content import compile_bytecode, shared_dir  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
REFERENCE = "3aca388"  # the last commit before issue 17's work: its one-process build all is "today's serial time"
CARD = 'text: "+1 Investigation at The Snake Pit."'


# this checkout's printkit, whatever is installed (the commands run in a scratch folder)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}


def timed(cmd: list[str], cwd: Path, env: dict[str, str] = ENV) -> float:
    """Wall seconds of one process; its CPU seconds (its workers' included) are appended to CPU."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)} failed:\n{err.read().decode(errors='replace')}")
    CPU.append(usage.ru_utime + usage.ru_stime)
    return wall


CPU: list[float] = []


def mtimes(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


def reference(rev: str, tmp: Path) -> tuple[list[str], dict[str, str]]:
    """The command and environment of an earlier revision's build all, its source, content and templates."""
    folder = tmp / "reference"
    folder.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=REPO, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    cmd = [sys.executable, "-m", "printkit", "build", "all", "--content", str(folder / "content"),
           "--templates", str(folder / "templates")]
    return cmd, {**os.environ, "PYTHONPATH": str(folder)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--reference", default=REFERENCE, help="an earlier revision to time serially, or 'none'")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="printkit-bench-all-"))
    ref = None if args.reference == "none" else reference(args.reference, tmp)
    compile_bytecode(REPO / "printkit")
    if ref:
        compile_bytecode(tmp / "reference" / "printkit")
    content = tmp / "content"
    shutil.copytree(REPO / "content", content)
    printkit = [sys.executable, "-m", "printkit", "build", "all", "--content", str(content),
                "--templates", str(REPO / "templates")]
    bare = [sys.executable, str(shared_dir() / "deck_bare_rl.py"), "6000", str(tmp / "bare.pdf")]
    deck = content / "rep-detect" / "draw-deck.yaml"
    original = deck.read_text(encoding="utf-8")
    keys = ("bare", "cold1", "cold", "nothing", "card") + (("reference",) if ref else ())
    walls: dict[str, list[float]] = {k: [] for k in keys}
    quiet = []
    cpus: dict[str, list[float]] = {k: [] for k in walls}
    timed(bare, tmp)  # warm-up: imports, content cache, disk
    timed([*printkit, "--out", str(tmp / "warm"), "--paper", "a4", "--lang", "en"], tmp)
    if ref:
        timed([*ref[0], "--out", str(tmp / "ref-warm"), "--paper", "a4", "--lang", "en"], tmp, ref[1])
    for run in range(args.runs):
        deck.write_text(original, encoding="utf-8")
        walls["bare"].append(timed(bare, tmp))
        for key, jobs in (("cold1", "1"), ("cold", "0")):
            shutil.rmtree(tmp / key, ignore_errors=True)
            walls[key].append(timed([*printkit, "--out", str(tmp / key), "--jobs", jobs], tmp))
        before = mtimes(tmp / "cold")
        walls["nothing"].append(timed([*printkit, "--out", str(tmp / "cold")], tmp))
        quiet.append(mtimes(tmp / "cold") == before)
        deck.write_text(original.replace(CARD, CARD.replace("The Snake Pit", f"the Pit ({run})")), encoding="utf-8")
        walls["card"].append(timed([*printkit, "--out", str(tmp / "cold")], tmp))
        if ref:
            shutil.rmtree(tmp / "ref-out", ignore_errors=True)
            walls["reference"].append(timed([*ref[0], "--out", str(tmp / "ref-out")], tmp, ref[1]))
        for key, cpu in zip(keys, CPU[-len(keys):]):
            cpus[key].append(cpu)
        print(f"run {run + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s (cpu {cpus[k][-1]:.2f})" for k, v in walls.items()),
              flush=True)
    med = {k: statistics.median(v) for k, v in walls.items()}
    ratios = {"cold --jobs 1 / bare": med["cold1"] / med["bare"], "cold / bare": med["cold"] / med["bare"],
              "cold / cold --jobs 1": med["cold"] / med["cold1"], "nothing changed / cold": med["nothing"] / med["cold"],
              "one card / cold": med["card"] / med["cold"]}
    if ref:
        ratios["cold / reference serial"] = med["cold"] / med["reference"]
        ratios["cold --jobs 1 / reference serial"] = med["cold1"] / med["reference"]
    if ref:
        print(f"reference: {args.reference}")
    print(f"\nmedian of {args.runs} runs, {os.cpu_count()} cores, Python {platform.python_version()}")
    for k, v in med.items():
        print(f"{k:>8}: {v:6.2f} s wall, {statistics.median(cpus[k]):6.2f} s cpu")
    for k, v in ratios.items():
        print(f"{k}: {v:.3f}")
    print(f"nothing changed wrote no file: {all(quiet)} ({sum(quiet)}/{len(quiet)})")
    if args.json:
        args.json.write_text(json.dumps({"walls": walls, "cpus": cpus, "median": med, "ratios": ratios, "quiet": quiet, "reference": args.reference,
                                         "cores": os.cpu_count(), "python": platform.python_version()}, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
