"""Benchmark ``tablewatch verify FILE``'s memory and time as the file grows, start to exit.

Run: ``python3 bench/verify_memory.py [--tables 30 --rounds 200 --repeats 1 --cache DIR]``.
Two careless Pai Gow floors are simulated once and kept in ``--cache`` (default in the
system's temporary directory): N, ``--tables`` tables of ``--rounds`` rounds in two shifts,
and 4N, the same tables playing four times the rounds in eight shifts (history grows, the
tables open do not). Each file is then judged as a person judges it, ``verify FILE --json``
in a fresh interpreter, timed from start to exit, its peak resident memory taken from the
kernel (``wait4``):

- as shipped: ids' first arrivals in memory up to ``MEMORY_IDS``, then on disk
  (audit/verification/first_arrivals.py);
- baseline, from the same run, alternated with it: every id held in memory, as before
  2026-11-27 (the same code with the limit set past the file's length).

Both ways must print the same findings, byte for byte (checked). Target (#16, "costs flat
in history"): peak memory at 4N within 1.5x of N as shipped. Figures are medians of
``--repeats`` runs. Last line: JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from interpreter import interpreter

ROOT = Path(__file__).resolve().parents[1]
EVERY_ID_IN_MEMORY = (
    "import sys\n"
    "import audit.verification.first_arrivals as first_arrivals\n"
    "first_arrivals.MEMORY_IDS = 10**12  # never reached: every id in memory\n"
    "from consumers.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def verify(floor: Path, in_memory: bool) -> tuple[float, int, bytes]:
    """Return the seconds, peak RSS (bytes) and output of ``verify FILE --json``."""
    command = [sys.executable, "-c", EVERY_ID_IN_MEMORY] if in_memory else [
        sys.executable, "-m", "consumers.cli"]  # fmt: skip
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        child = subprocess.Popen([*command, "verify", str(floor), "--json"], cwd=ROOT,
                                 stdout=out, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):  # 1: a critical finding
            raise SystemExit(f"verify {floor} failed ({child.returncode})")
        out.seek(0)
        return seconds, usage.ru_maxrss * 1024, out.read()


def floor_file(cache: Path, tables: int, rounds: int, shifts: int) -> Path:
    """Return a cached careless floor's file, simulating it the first time."""
    path = cache / f"floor-{tables}x{rounds}x{shifts}.jsonl"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        subprocess.run([sys.executable, "-m", "consumers.cli", "simulate", "--tables",
                        str(tables), "--rounds", str(rounds), "--shifts", str(shifts),
                        "--irregularities", "0.02", "--out", str(partial), "--labels",
                        str(path.with_suffix(".labels"))], cwd=ROOT, check=True,
                       capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        partial.rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=200, help="rounds per table at N")
    parser.add_argument("--repeats", type=int, default=1)
    default_cache = Path(tempfile.gettempdir()) / "tablewatch-bench-verify"
    parser.add_argument("--cache", type=Path, default=default_cache)
    args = parser.parse_args()
    print(interpreter())
    sizes = {"N": floor_file(args.cache, args.tables, args.rounds, 2),
             "4N": floor_file(args.cache, args.tables, 4 * args.rounds, 8)}  # fmt: skip
    figures: dict[str, dict[str, float | int]] = {}
    for size, floor in sizes.items():
        events = sum(1 for _ in floor.open("rb"))
        runs: dict[bool, list[tuple[float, int]]] = {True: [], False: []}
        outputs: dict[bool, bytes] = {}
        for _ in range(args.repeats):
            for in_memory in (True, False):
                seconds, peak, output = verify(floor, in_memory)
                runs[in_memory].append((seconds, peak))
                outputs[in_memory] = output
        if outputs[True] != outputs[False]:
            raise SystemExit(f"{size}: the findings differ with ids on disk")
        row: dict[str, float | int] = {"events": events,
                                       "findings": outputs[False].count(b"\n")}  # fmt: skip
        for in_memory, name in ((True, "in_memory"), (False, "shipped")):
            row[f"{name}_s"] = round(statistics.median(s for s, _ in runs[in_memory]), 2)
            median_peak = statistics.median(p for _, p in runs[in_memory])
            row[f"{name}_peak_mb"] = round(median_peak / 2**20, 1)
        figures[size] = row
        print(f"  {size:3} {events:>10,} events, {row['findings']:,} findings: "
              f"every id in memory {row['in_memory_s']:7.2f} s "
              f"{row['in_memory_peak_mb']:7.1f} MB; "
              f"as shipped {row['shipped_s']:7.2f} s {row['shipped_peak_mb']:7.1f} MB")  # fmt: skip
    for name in ("in_memory", "shipped"):
        grew = figures["4N"][f"{name}_peak_mb"] / figures["N"][f"{name}_peak_mb"]
        print(f"  peak memory at 4N against N, {name.replace('_', ' ')}: {grew:.2f}x")
    print(json.dumps({"bench": "verify_memory", "sizes": figures}))


if __name__ == "__main__":
    main()
