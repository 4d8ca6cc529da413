"""Benchmark verification: rounds judged per second, beside the time to load them. Last line: JSON.

Run: ``python3 bench/verify.py [--tables 20 --rounds 60]``. A simulated shift is
stored in a scratch SQLite store; then, in the same run:

- load: read every stored fact back and parse it into events (the baseline);
- verify: judge those loaded events, every check of every round (one core).

Target: at least 10,000 rounds/s of verification alone.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from audit.events.catalogue import parse_event
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from audit.verification.paigow.verify import verify_stream


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()

    events = list(simulate_shift(ShiftConfig(args.tables, args.rounds), random.Random(args.seed)))
    rounds = len({(e.table_id, e.round_id) for e in events if e.round_id})
    with tempfile.TemporaryDirectory() as scratch:
        store = FactStore(StoreConfig.sqlite(Path(scratch) / "bench.sqlite"))
        ingestor = Ingestor(store)
        for start in range(0, len(events), 500):
            batch = [Accepted(e, "bench") for e in events[start : start + 500]]
            ingestor.record_batch(batch, "bench", start + len(batch) - 1)

        started = time.perf_counter()
        loaded = [parse_event(stored.fact_json) for stored in store.facts()]
        load_s = time.perf_counter() - started

    started = time.perf_counter()
    findings = list(verify_stream(loaded))
    verify_s = time.perf_counter() - started

    rate, load_rate = rounds / verify_s, rounds / load_s
    print(f"{len(loaded):,} stored events, {rounds:,} rounds, {len(findings)} findings")
    print(f"load (read + parse):   {load_rate:>10,.0f} rounds/s ({load_s:.2f} s)")
    print(f"verify (every check):  {rate:>10,.0f} rounds/s ({verify_s:.2f} s) (target 10,000)")
    print(json.dumps({
        "events": len(loaded), "rounds": rounds, "findings": len(findings),
        "load_rounds_per_s": round(load_rate), "verify_rounds_per_s": round(rate),
        "target_met": rate >= 10_000,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
