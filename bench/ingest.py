"""Benchmark ingest on real parts; print each figure beside its raw baseline. Last line: JSON.

Run: ``python3 bench/ingest.py [--tables 40 --rounds 40]``. It starts the dev broker
(or uses ``KAFKA_BOOTSTRAP_SERVERS``) and creates, then drops, its own PostgreSQL
databases on ``TABLEWATCH_BENCH_POSTGRES`` (default the local server). Measured:

- raw consume: kafka-python reading the produced topic, no work per record;
- raw writes: stock eventsourcing recording the same facts as aggregate events, 500
  per transaction with a tracking record, no validation, sequencing or chain;
- end to end: tablewatch's ingest (consume, validate, sequence, chain, store, track),
  from a standing start (topics checked, positions read, validating child started)
  to caught up. The topic is produced in full first, so the producer's speed is not
  in it; the simulated events are dropped first, so the garbage collector does not
  walk them during it.

On this shared 2-core machine wall-clock rates follow the load (printed); CPU time
per event (the ingest's own process, its validating child, and for raw writes the
one process) compares versions reliably under load.

Targets: end to end at least 10,000 events/s on PostgreSQL and at least 50% of raw writes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import psycopg
from eventsourcing.application import Application
from eventsourcing.persistence import ProcessRecorder, Tracking

from audit.events.catalogue import event_dict
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.aggregates import Round
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from consumers.kafka_ingest import consume
from consumers.kafka_io import Bootstrap, PartitionReader, ensure_topics
from consumers.run_cli import produce_events
from consumers.settings import Settings
from consumers.wiring import kafka

ADMIN = os.environ.get("TABLEWATCH_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
BATCH = 500


@contextmanager
def scratch_database() -> Iterator[str]:
    """Create a database for one measurement and drop it afterwards."""
    name = f"tw_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{ADMIN.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def children_cpu() -> float:
    """Return the CPU seconds of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def raw_consume(bootstrap: Bootstrap, topic: str, expected: int) -> float:
    """Read every record with kafka-python and nothing else; return seconds."""
    started = time.perf_counter()
    seen = 0
    with PartitionReader(bootstrap, topic, {}) as reader:
        while seen < expected:
            seen += len(reader.poll_batch(BATCH, 1000))
    return time.perf_counter() - started


class StockStore(Application[uuid.UUID]):
    """eventsourcing as shipped: a process recorder, nothing of tablewatch's tuning."""

    name = "rawbench"

    def construct_recorder(self) -> ProcessRecorder:
        return self.factory.process_recorder()


def raw_writes(url: str, facts: list[dict]) -> tuple[float, float]:
    """Record the facts as aggregate events in batches with tracking, on stock eventsourcing.

    Return wall seconds and CPU seconds."""
    store = StockStore(env=StoreConfig.postgres(url).env())
    rounds: dict[tuple[str, str], Round] = {}
    cpu = time.process_time()
    started = time.perf_counter()
    for start in range(0, len(facts), BATCH):
        pending: list[Any] = []
        for fact in facts[start : start + BATCH]:
            key = (fact["table_id"], fact.get("round_id") or "table")
            aggregate = rounds.get(key) or rounds.setdefault(
                key, Round(table_id=key[0], round_id=key[1])
            )
            aggregate.record(fact["type"], json.dumps(fact), "bench", "0" * 64, "0" * 64)
            pending.extend(aggregate.collect_events())
        store.events.put(pending, tracking=Tracking("bench", start + BATCH - 1))
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    events = list(simulate_shift(ShiftConfig(args.tables, args.rounds), random.Random(args.seed)))
    n = len(events)
    facts = [event_dict(event) for event in events]
    settings = Settings.from_env()
    load_before = os.getloadavg()[0]
    with kafka(settings) as bootstrap:
        topic = f"bench-{uuid.uuid4().hex[:8]}"
        settings = replace(settings, events_topic=topic, dlq_topic=f"{topic}.dlq")
        ensure_topics(
            bootstrap, {topic: settings.partitions, settings.dlq_topic: settings.partitions}
        )
        started = time.perf_counter()
        produce_events(bootstrap, topic, events)
        produce_s = time.perf_counter() - started
        del events
        consume_s = raw_consume(bootstrap, topic, n)
        with scratch_database() as url:
            writes_s, writes_cpu = raw_writes(url, facts)
        del facts
        gc.collect()
        with scratch_database() as url:
            ingestor = Ingestor(FactStore(StoreConfig.postgres(url)))
            cpu, child_cpu = time.process_time(), children_cpu()
            started = time.perf_counter()
            summary = consume(bootstrap, settings, ingestor, until_caught_up=True)
            end_to_end_s = time.perf_counter() - started
            cpu, child_cpu = time.process_time() - cpu, children_cpu() - child_cpu
    load_after = os.getloadavg()[0]
    if summary.stored != n:
        raise SystemExit(f"stored {summary.stored} of {n} events")

    rates = {
        "produce": n / produce_s,
        "raw_consume": n / consume_s,
        "raw_writes": n / writes_s,
        "end_to_end": n / end_to_end_s,
    }
    share = rates["end_to_end"] / rates["raw_writes"]
    us = {
        "raw_writes_cpu_us": writes_cpu / n * 1e6,
        "end_to_end_cpu_us": cpu / n * 1e6,
        "end_to_end_child_cpu_us": child_cpu / n * 1e6,
    }
    print(
        f"{n:,} simulated events ({args.tables} tables x {args.rounds} rounds), "
        f"broker {bootstrap}, load average {load_before:.1f} before, {load_after:.1f} after"
    )
    print(f"produce (idempotent, acks=all):     {rates['produce']:>10,.0f} events/s")
    print(f"raw kafka-python consume:           {rates['raw_consume']:>10,.0f} events/s")
    print(f"raw eventsourcing writes, PG, {BATCH}/tx: {rates['raw_writes']:>9,.0f} events/s, "
          f"{us['raw_writes_cpu_us']:.1f} us CPU/event")  # fmt: skip
    print(f"tablewatch end to end, PG:          {rates['end_to_end']:>10,.0f} events/s "
          f"(target 10,000), {share:.0%} of raw writes (target 50%)")  # fmt: skip
    print(f"  CPU per event: {us['end_to_end_cpu_us']:.1f} us in the ingest process, "
          f"{us['end_to_end_child_cpu_us']:.1f} us in its validating child")  # fmt: skip
    print(json.dumps({
        "events": n,
        **{f"{name}_per_s": round(rate) for name, rate in rates.items()},
        "end_to_end_share_of_raw_writes": round(share, 3),
        **{name: round(value, 1) for name, value in us.items()},
        "load_average": [round(load_before, 2), round(load_after, 2)],
        "targets_met": rates["end_to_end"] >= 10_000 and share >= 0.5,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
