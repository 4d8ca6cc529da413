"""Benchmark what a person waits for from typing a command to its answer, start included.

Run: ``python3 bench/cli_start.py [--tables 20 --rounds 100 --repeats 5]``. A careless Pai
Gow floor (``tablewatch simulate``) is written to a scratch file and ingested into a scratch
SQLite store, whose findings view is then caught up, so each command below answers from its
view as it would on a running floor. Each command then runs as a person runs it, in a fresh
interpreter (``python -m consumers.cli ...``), timed from its start to its exit:

- ``verify FILE --json`` over the floor's file (the issue's "verify FILE end to end");
- ``findings --table T``, ``report mgr`` and ``replay ROUND`` on the store;
- ``rules rank 6-6 4-5``, a question the rules engine answers in microseconds.

Baseline, from the same run, each command alternated with it: the same command with every
command's module imported before it runs, which is what every command paid before
``consumers/cli.py`` imported only its own (Kafka's client, the web app and the store for
``rules rank``). The bare interpreter's start (``python -c pass``) is printed too: no command
can answer sooner. And a second baseline for ``verify FILE``: the same bytes given through a
pipe (``verify /dev/stdin``), which cannot be read twice, so every event is known by the
digest of its canonical JSON, serialised again, as before 2026-11-27; from a file each is known
by its line's bytes (``audit/verification/stream.py``). Figures are medians of ``--repeats``
runs. Last line: JSON.
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
EVERY_MODULE = (
    "import importlib, sys\n"
    "from consumers.cli import COMMANDS, main\n"
    "for name in dict.fromkeys(COMMANDS.values()):\n"
    "    importlib.import_module(f'consumers.{name}')\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def run(
    argv: list[str], env: dict[str, str], every_module: bool = False, piped: bytes | None = None
) -> float:
    """Return the seconds a command takes in a fresh interpreter, from start to exit
    (``piped``: given these bytes on its standard input, through a pipe)."""
    command = [sys.executable, "-c", EVERY_MODULE] if every_module else [
        sys.executable, "-m", "consumers.cli"]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run([*command, *argv], env=env, cwd=ROOT, capture_output=True,
                          input=piped)  # fmt: skip
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: verify found a critical finding
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr!r}")
    return seconds


def tablewatch(argv: list[str], env: dict[str, str]) -> str:
    """Run a command once for its output (the floor's setup)."""
    return subprocess.run([sys.executable, "-m", "consumers.cli", *argv], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=100, help="rounds per table (default 100)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(interpreter())
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "TABLEWATCH_DATA_DIR": str(Path(scratch) / "data"),
               "PYTHONPATH": str(ROOT)}  # fmt: skip
        env.pop("DATABASE_URL", None)
        floor = Path(scratch) / "floor.jsonl"
        tablewatch(["simulate", "--tables", str(args.tables), "--rounds", str(args.rounds),
                    "--irregularities", "0.03", "--out", str(floor),
                    "--labels", str(Path(scratch) / "labels.json")], env)  # fmt: skip
        tablewatch(["ingest", "--from-file", str(floor)], env)
        lines = len(floor.read_bytes().splitlines())
        found = [json.loads(line) for line in tablewatch(["findings", "--json"], env).splitlines()]
        first = next(row for row in found if row["round_id"])
        commands = {
            "verify FILE": ["verify", str(floor), "--json"],
            "findings --table": ["findings", "--table", first["table_id"]],
            "report mgr": ["report", "mgr"],
            "replay ROUND": ["replay", first["round_id"]],
            "rules rank": ["rules", "rank", "6-6", "4-5"],
        }
        now: dict[str, list[float]] = {name: [] for name in commands}
        before: dict[str, list[float]] = {name: [] for name in commands}
        bare: list[float] = []
        piped: list[float] = []
        floor_bytes = floor.read_bytes()
        for _ in range(args.repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - started)
            for name, argv in commands.items():
                before[name].append(run(argv, env, every_module=True))
                now[name].append(run(argv, env))
            piped.append(run(["verify", "/dev/stdin", "--json"], env, piped=floor_bytes))
    print(f"{args.tables * args.rounds:,} rounds ({lines:,} events); "
          f"the bare interpreter starts in {statistics.median(bare):.3f} s")  # fmt: skip
    figures: dict[str, dict[str, float]] = {}
    for name in commands:
        was, is_ = statistics.median(before[name]), statistics.median(now[name])
        figures[name] = {"every_module_s": round(was, 3), "own_module_s": round(is_, 3)}
        print(f"  {name:18} every module first {was:6.3f} s   its own module {is_:6.3f} s"
              f"   {was / is_:5.2f}x")  # fmt: skip
    from_pipe, from_file = statistics.median(piped), figures["verify FILE"]["own_module_s"]
    print(
        f"  verify, the same bytes from a pipe (canonical digests) {from_pipe:.3f} s; "
        f"from the file (its lines' bytes) {from_file:.3f} s   {from_pipe / from_file:5.2f}x"
    )
    print(json.dumps({"bench": "cli_start", "rounds": args.tables * args.rounds, "lines": lines,
                      "bare_interpreter_s": round(statistics.median(bare), 3),
                      "verify_from_pipe_s": round(from_pipe, 3),
                      "commands": figures}))  # fmt: skip


if __name__ == "__main__":
    main()
