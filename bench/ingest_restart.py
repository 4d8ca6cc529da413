"""Benchmark the ingest's start against its history; print each figure beside its baseline.

Run: ``python3 bench/ingest_restart.py [--tables 20 --rounds 25] [--sqlite]``. It
ingests a simulated shift of ``rounds`` rounds per table into one store and one
of four times as many into another (PostgreSQL databases it creates on
``TABLEWATCH_BENCH_POSTGRES`` and drops afterwards, or SQLite files with
``--sqlite``), then starts an ingest on each, each start in a fresh process:

- now: ``Ingestor(store)``, which reads one head row per table;
- baseline: the start before the state tables, kept below as it was: every
  stored fact read back, its digest taken and its id held in memory.

For each it prints the start's seconds, the process's peak RSS
(``resource.getrusage``) and how much of it the start added. Flat from the small
store to the large one is the point. Last line: JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from audit.facts.chain import GENESIS, digest
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor, check


@dataclass
class _Sequence:
    """One table's ingest state as the ingest held it in memory before its database tables."""

    next_seq: int = 0
    digests: dict[str, str] = field(default_factory=dict)


ADMIN = os.environ.get("TABLEWATCH_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
BATCH = 500


@contextmanager
def scratch_store(sqlite: bool) -> Iterator[StoreConfig]:
    """Create a store for one measurement and remove it afterwards."""
    if sqlite:
        with tempfile.TemporaryDirectory(prefix="tw_bench_") as directory:
            yield StoreConfig.sqlite(Path(directory) / "store.sqlite")
        return
    name = f"tw_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield StoreConfig.postgres(f"{ADMIN.rsplit('/', 1)[0]}/{name}")
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fill(config: StoreConfig, tables: int, rounds: int) -> int:
    """Ingest a simulated shift into the store; return how many facts it holds."""
    events = simulate_shift(ShiftConfig(tables, rounds), random.Random(7))
    checked = [check(event, "bench") for event in events]
    ingestor = Ingestor(FactStore(config))
    for start in range(0, len(checked), BATCH):
        batch = checked[start : start + BATCH]
        ingestor.record_batch(batch, "bench", start + len(batch) - 1)
    return len(checked)


def rebuild_as_before(store: FactStore) -> int:
    """The start before the state tables (``Ingestor._rebuild``): every fact, every id kept.

    Return how many facts it read.
    """
    sequences: dict[str, _Sequence] = {}
    heads: dict[str, str] = {}
    days: dict[str, str] = {}
    existing = set()
    read = 0
    for stored in store.facts():
        read += 1
        fact = stored.fact
        sequence = sequences.setdefault(fact["table_id"], _Sequence())
        if fact.get("recorded_by") != "tablewatch-ingest":
            sequence.digests.setdefault(fact["event_id"], digest(stored.fact_json))
            sequence.next_seq = max(sequence.next_seq, fact["seq"] + 1)
        heads[fact["table_id"]] = stored.chain_hash or GENESIS
        if fact["type"] == "table_opened":
            days[fact["table_id"]] = fact["gaming_day"]
        existing.add(stored.aggregate_id)
    return read


def measure(config: StoreConfig, how: str) -> dict[str, float]:
    """Start an ingest on the store the way ``how`` says, in this fresh process."""
    store = FactStore(config)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    started = time.perf_counter()
    if how == "now":
        ingestor = Ingestor(store)
        read = ingestor.migrated_facts
    else:
        read = rebuild_as_before(store)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "seconds": round(seconds, 5),
        "peak_rss_mib": round(peak / 1024, 1),
        "rss_growth_mib": round((peak - before) / 1024, 1),
        "facts_read": read,
    }


def in_fresh_process(config: StoreConfig, *args: str) -> dict[str, float]:
    """Run this script with ``args`` on the store in a new process; return its JSON line.

    Fresh processes keep the figures apart, and the parent stays small: a child
    inherits its parent's peak RSS across fork and exec, so filling a store in the
    parent would hide every child's own peak.
    """
    argv = [sys.executable, __file__, *args, "--store", json.dumps(_store_arg(config))]
    done = subprocess.run(argv, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _store_arg(config: StoreConfig) -> dict[str, str | None]:
    sqlite = None if config.sqlite_path is None else str(config.sqlite_path)
    return {"sqlite": sqlite, "postgres": config.postgres_url}


def _store_from(arg: str) -> StoreConfig:
    data = json.loads(arg)
    if data["sqlite"] is not None:
        return StoreConfig.sqlite(data["sqlite"])
    return StoreConfig.postgres(data["postgres"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--measure", choices=["now", "before"], help=argparse.SUPPRESS)
    parser.add_argument("--fill", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(_store_from(args.store), args.measure)))
        return
    if args.fill:
        print(json.dumps({"facts": fill(_store_from(args.store), args.tables, args.fill)}))
        return

    database = "SQLite" if args.sqlite else "PostgreSQL"
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for rounds in (args.rounds, 4 * args.rounds):
        with scratch_store(args.sqlite) as config:
            filled = in_fresh_process(config, "--fill", str(rounds), "--tables", str(args.tables))
            figures[str(int(filled["facts"]))] = {
                how: in_fresh_process(config, "--measure", how) for how in ("now", "before")
            }
    print(f"ingest start on {database}, {args.tables} tables, load {os.getloadavg()[0]:.1f}")
    for facts, row in figures.items():
        now, before = row["now"], row["before"]
        print(
            f"{int(facts):>8,} facts: start {now['seconds'] * 1e3:8.1f} ms "
            f"(baseline {before['seconds'] * 1e3:8.1f} ms), "
            f"peak RSS {now['peak_rss_mib']:.0f} MiB, +{now['rss_growth_mib']:.1f} by the start "
            f"(baseline {before['peak_rss_mib']:.0f} MiB, +{before['rss_growth_mib']:.1f}), "
            f"facts read {now['facts_read']:,.0f} (baseline {before['facts_read']:,.0f})"
        )
    print(json.dumps({"database": database, "tables": args.tables, "starts": figures}))


if __name__ == "__main__":
    main()
