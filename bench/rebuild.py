"""Benchmark a rebuild of every read model from zero, end to end, beside reading the store raw.

Run: ``python3 bench/rebuild.py [--tables 20 --rounds 200 --cache DIR --repeats 3]``. A
careless floor of ``tables x rounds`` Pai Gow rounds (two shifts, 2% irregular) is
ingested once into a SQLite store kept in ``--cache`` (default in the system's
temporary directory). Each pass then works on a fresh copy of it, without views, and
times, end to end from the stored rows:

- raw: every stored event read from the notification log, decoded, and its fact's
  JSON ``json.loads``-ed: the floor under any rebuild (the baseline);
- together: every read model (findings, hand history, table state, win rates,
  reconciliation, round index) rebuilt by ``catch_up_together``, each fact read and
  parsed once;
- one by one: the same read models each catching up alone, each reading the store.

Figures are rounds per second, the median of ``--repeats`` passes. Target (#16): the
rebuild at 5,000 rounds/s or more on two cores, and at least half the raw rate. The
interpreter is printed first. Last line: JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.together import catch_up_together
from projections.win_rates import WinRatesProjection

PROJECTIONS = (FindingsProjection, HandHistoryProjection, TableStateProjection,
               WinRatesProjection, ReconciliationProjection, RoundIndexProjection)  # fmt: skip
STORE = "tablewatch.sqlite"


def cached_store(cache: Path, tables: int, rounds: int) -> tuple[Path, int]:
    """Return a stored floor's SQLite file and its number of rounds, built once."""
    home = cache / f"floor-{tables}x{rounds}"
    path = home / STORE
    if not (home / "ready").exists():
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        shift, _ = careless_shift(ShiftConfig(tables, rounds, shifts=2), Random(16), 0.02)
        events = list(shift)
        store = FactStore(StoreConfig.sqlite(path))
        ingestor = Ingestor(store)
        for start in range(0, len(events), 2_000):
            batch = events[start : start + 2_000]
            ingestor.record_batch([Accepted(e, "bench") for e in batch], "bench", start)
        (home / "ready").write_text(str(tables * rounds))
    return path, int((home / "ready").read_text())


def raw(store: FactStore) -> None:
    """Read every stored event and json.loads its fact, the way a projection reads them."""
    recorder, mapper, start = store.process_recorder, store.mapper, 1
    while True:
        notifications = recorder.select_notifications(start, 2_000)
        for notification in notifications:
            event = mapper.to_domain_event(notification)
            fact_json = getattr(event, "fact_json", None)
            if fact_json is not None:
                json.loads(fact_json)
        if len(notifications) < 2_000:
            return
        start = notifications[-1].id + 1


def together(store: FactStore) -> None:
    catch_up_together([kind(store) for kind in PROJECTIONS])


def one_by_one(store: FactStore) -> None:
    for kind in PROJECTIONS:
        kind(store).catch_up()


def timed(source: Path, work: Callable[[FactStore], None]) -> float:
    """Return the seconds ``work`` takes on a fresh copy of the store, opening it included."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / STORE
        shutil.copy(source, copy)
        gc.collect()
        started = time.perf_counter()
        work(FactStore(StoreConfig.sqlite(copy)))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200, help="rounds per table (default 200)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "tw-bench" / "rebuild"
    )
    args = parser.parse_args()
    source, rounds = cached_store(args.cache, args.tables, args.rounds)
    print(f"{rounds:,} rounds stored ({source.stat().st_size / 2**20:.0f} MiB); "
          f"Python {sys.version.split()[0]}")  # fmt: skip
    figures = {}
    for name, work in (("raw", raw), ("together", together), ("one_by_one", one_by_one)):
        seconds = statistics.median(timed(source, work) for _ in range(args.repeats))
        figures[name] = rounds / seconds
        print(f"  {name:<11} {seconds:7.2f} s  {figures[name]:9,.0f} rounds/s")
    share = figures["together"] / figures["raw"]
    print(f"rebuild at {share:.2f}x the raw rate; sharing one read gains "
          f"{figures['together'] / figures['one_by_one']:.2f}x over one by one")  # fmt: skip
    print(json.dumps({"bench": "rebuild", "rounds": rounds,
                      **{f"{k}_rounds_per_s": round(v) for k, v in figures.items()},
                      "share_of_raw": round(share, 3)}))  # fmt: skip


if __name__ == "__main__":
    main()
