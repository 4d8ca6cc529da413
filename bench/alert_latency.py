"""Benchmark alert latency: event produced to alert published, at ten times a 40-table floor.

Run: ``python3 bench/alert_latency.py [--seconds 60 --rate 140 --irregularities 0.2]``. It
starts the dev broker (or uses ``KAFKA_BOOTSTRAP_SERVERS``) and creates, then drops, a
scratch PostgreSQL database on ``TABLEWATCH_BENCH_POSTGRES`` (see ``bench/ingest.py``).

A 40-table floor plays about 30 rounds an hour a table at about 41.5 events a round,
about 14 events/s; ten times that is the default 140 events/s. Four threads run at once:

- producer: a simulated shift with injected irregularities (``careless_shift``), paced
  at ``--rate``, keyed by table, each event's produce time recorded by event id;
- ingest: ``PartitionReader.poll_batch`` (50 ms timeout), ``check_records``,
  ``prepare_checked`` and ``Ingestor.commit`` into the scratch database, in the thread
  (the ingest command validates in a child process; at this rate that saves no time);
- findings + alerts: ``FindingsProjection.catch_up`` then ``Alerter.publish_new``,
  sleeping 20 ms when neither had anything to do;
- alert reader: reads the alerts topic and records when each alert arrived.

Latency of an alert is its receive time minus the produce time of the event that
made the finding possible (the trigger). The finding names its evidence in
``event_ids``; the trigger is the last-produced of those we produced. But most
findings are judged per round, when ``round_completed`` arrives, and their evidence
is usually earlier events of the round: measuring from the evidence would charge
the pipeline for the dealer's time until the round ended, which no pipeline can
save. So when the round's ``round_completed`` was produced later than the evidence
and before the alert arrived, it is the trigger. The "before the alert arrived"
guard matters for stream checks judged at the event itself, mid-round: for those
a ``round_completed`` produced afterwards cannot be the trigger. (Such a check whose
round completes in the short while between its alert being published and received
is measured from ``round_completed``, understating it; with a table producing an
event every ~0.3 s at this rate, that is rare.) Alerts with no produced trigger are
counted as unmatched and left out.

Times are ``time.perf_counter`` in one process, so they share a clock. Production
stops after ``--seconds``; then the pipeline drains (at most ``--drain-seconds``)
and every thread stops by itself. Target: p99 under 500 ms. Last line: JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for bench/ingest.py

from ingest import scratch_database

from audit.events.catalogue import event_json
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from consumers.alerts import Alerter
from consumers.ingest import check_records, prepare_checked
from consumers.kafka_io import (
    Bootstrap,
    DeadLetter,
    PartitionReader,
    ensure_topics,
    flush,
    make_producer,
    publish,
)
from consumers.settings import Settings
from consumers.wiring import kafka
from projections.findings import FindingsProjection

TABLES = 40
EVENTS_PER_ROUND = 41.5
TARGET_P99_MS = 500.0
POLL_MS = 50
IDLE_S = 0.02


@dataclass
class Shared:
    """What the threads record and how they tell each other to stop."""

    produced_at: dict[str, float] = field(default_factory=dict)
    completed_at: dict[tuple[str, str], float] = field(default_factory=dict)
    received: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    produced: int = 0
    ingested: int = 0
    findings: int = 0
    alerts_sent: int = 0
    production_done: threading.Event = field(default_factory=threading.Event)
    ingest_done: threading.Event = field(default_factory=threading.Event)
    alerts_done: threading.Event = field(default_factory=threading.Event)
    abort: threading.Event = field(default_factory=threading.Event)
    errors: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def guarded(shared: Shared, body: Callable[[], None], done: threading.Event | None) -> None:
    """Run one thread's body; on error, record it and ask every thread to stop."""
    try:
        body()
    except BaseException as error:
        shared.errors.append(error)
        shared.abort.set()
    finally:
        if done is not None:
            done.set()


def produce(bootstrap: Bootstrap, topic: str, args: argparse.Namespace, shared: Shared) -> None:
    """Produce the shift at a steady rate for ``args.seconds``, recording each produce time."""
    rounds = math.ceil(args.seconds * args.rate / EVENTS_PER_ROUND / TABLES) + 2
    events, _labels = careless_shift(
        ShiftConfig(TABLES, rounds), random.Random(args.seed), args.irregularities
    )
    interval = 1.0 / args.rate
    with make_producer(bootstrap, client_id="bench-producer") as producer:
        started = time.perf_counter()
        deadline = started + args.seconds
        for index, event in enumerate(events):
            due = started + index * interval
            if due >= deadline or shared.abort.is_set():
                break
            wait = due - time.perf_counter()
            if wait > 0:
                flush(producer)  # idle anyway: have the broker acknowledge what was sent
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            value = event_json(event).encode()
            now = time.perf_counter()
            publish(producer, topic, event.table_id.encode(), value)
            with shared.lock:
                shared.produced_at[str(event.event_id)] = now
                if event.type_name() == "round_completed" and event.round_id is not None:
                    shared.completed_at[(event.table_id, event.round_id)] = now
                shared.produced += 1
        flush(producer)


def caught_up(reader: PartitionReader) -> bool:
    """Return True when the reader has read everything its partitions hold."""
    positions = reader.positions()
    return all(positions.get(p, 0) >= end for p, end in reader.end_offsets().items())


def ingest(bootstrap: Bootstrap, settings: Settings, ingestor: Ingestor, shared: Shared) -> None:
    """Poll, validate, store; stop once production is done and everything is stored."""
    with (
        make_producer(bootstrap, client_id="bench-dlq") as producer,
        PartitionReader(bootstrap, settings.events_topic, {}) as reader,
    ):
        dead_letters = DeadLetter(producer, settings.dlq_topic)
        while not shared.abort.is_set():
            records = reader.poll_batch(settings.batch_size, POLL_MS)
            for count, batch in prepare_checked(check_records(records), ingestor, dead_letters):
                ingestor.commit(batch)
                shared.ingested += count
            if not records and shared.production_done.is_set() and caught_up(reader):
                return


def judge_and_alert(
    bootstrap: Bootstrap, store: FactStore, alerts_topic: str, shared: Shared
) -> None:
    """Catch the findings up and publish new alerts; stop once ingest is done and all is sent."""
    projection = FindingsProjection(store)
    with make_producer(bootstrap, client_id="bench-alerts") as producer:
        alerter = Alerter(projection.view, producer, alerts_topic)
        while not shared.abort.is_set():
            finished = shared.ingest_done.is_set()  # read before the pass: it then sees all
            written = projection.catch_up()
            sent = alerter.publish_new()
            shared.findings += written
            shared.alerts_sent += sent
            if finished and not written and not sent:
                return
            if not written and not sent:
                time.sleep(IDLE_S)


def read_alerts(bootstrap: Bootstrap, alerts_topic: str, shared: Shared) -> None:
    """Record each alert's receive time; stop once the alerter is done and all arrived."""
    with PartitionReader(bootstrap, alerts_topic, {}, client_id="bench-alert-reader") as reader:
        while not shared.abort.is_set():
            records = reader.poll_batch(500, POLL_MS)
            now = time.perf_counter()
            for record in records:
                shared.received.append((now, json.loads(record.value or b"{}")))
            if (
                not records
                and shared.alerts_done.is_set()
                and len(shared.received) >= shared.alerts_sent
            ):
                return


def trigger_time(alert: dict[str, Any], received: float, shared: Shared) -> float | None:
    """Return the produce time of the event that made this finding possible (see above)."""
    times = [shared.produced_at[e] for e in alert.get("event_ids", ()) if e in shared.produced_at]
    table_id, round_id = alert.get("table_id"), alert.get("round_id")
    completed = shared.completed_at.get((table_id, round_id)) if table_id and round_id else None
    if completed is not None and completed <= received:
        times.append(completed)
    return max(times) if times else None


def percentile(ordered: list[float], share: float) -> float:
    """Return the nearest-rank percentile of an ascending list."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="production time (60)")
    parser.add_argument("--rate", type=float, default=140.0, help="events/s (140)")
    parser.add_argument("--irregularities", type=float, default=0.2, help="round share (0.2)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--drain-seconds", type=float, default=60.0, help="drain limit (60)")
    args = parser.parse_args()

    settings = Settings.from_env()
    shared = Shared()
    with kafka(settings) as bootstrap, scratch_database() as url:
        tag = uuid.uuid4().hex[:8]
        settings = replace(
            settings,
            events_topic=f"bench-latency-{tag}",
            dlq_topic=f"bench-latency-{tag}.dlq",
            alerts_topic=f"bench-latency-{tag}.alerts",
        )
        ensure_topics(
            bootstrap,
            {
                name: settings.partitions
                for name in (settings.events_topic, settings.dlq_topic, settings.alerts_topic)
            },
        )
        store = FactStore(StoreConfig.postgres(url))
        ingestor = Ingestor(store)
        threads = [
            threading.Thread(
                target=guarded, name=name, args=(shared, body, done), daemon=True
            )
            for name, body, done in (
                ("producer", lambda: produce(bootstrap, settings.events_topic, args, shared),
                 shared.production_done),
                ("ingest", lambda: ingest(bootstrap, settings, ingestor, shared),
                 shared.ingest_done),
                ("alerts", lambda: judge_and_alert(bootstrap, store, settings.alerts_topic,
                                                   shared), shared.alerts_done),
                ("reader", lambda: read_alerts(bootstrap, settings.alerts_topic, shared), None),
            )
        ]  # fmt: skip
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        deadline = started + args.seconds + args.drain_seconds
        for thread in threads:
            thread.join(max(0.0, deadline - time.perf_counter()))
        if any(thread.is_alive() for thread in threads):
            shared.abort.set()
            for thread in threads:
                thread.join(10)
            stuck = [thread.name for thread in threads if thread.is_alive()]
            if not shared.errors:
                raise SystemExit(
                    f"did not drain within {args.drain_seconds:g}s after production; "
                    f"still running: {stuck}"
                )
        elapsed = time.perf_counter() - started
    if shared.errors:
        raise shared.errors[0]

    latencies: list[float] = []
    unmatched = 0
    for received, alert in shared.received:
        produced = trigger_time(alert, received, shared)
        if produced is None:
            unmatched += 1
        else:
            latencies.append((received - produced) * 1000)
    latencies.sort()
    if not latencies:
        raise SystemExit(f"no alerts to measure ({len(shared.received)} received)")
    figures = {
        name: round(percentile(latencies, share), 1)
        for name, share in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
    }
    met = figures["p99"] < TARGET_P99_MS
    rate = shared.produced / args.seconds
    print(f"broker {bootstrap}; PostgreSQL scratch database; {elapsed:.1f}s in all")
    print(f"produced {shared.produced:,} events in {args.seconds:g}s ({rate:,.1f}/s, "
          f"target {args.rate:g}/s), irregularity rate {args.irregularities:g}")  # fmt: skip
    print(f"ingested {shared.ingested:,}; findings {shared.findings:,}; "
          f"alerts sent {shared.alerts_sent:,}, received {len(shared.received):,}, "
          f"measured {len(latencies):,}, unmatched {unmatched}")  # fmt: skip
    for name, value in figures.items():
        print(f"  {name:>4}: {value:>8,.1f} ms")
    print(f"p99 under {TARGET_P99_MS:g} ms: {'yes' if met else 'NO'}")
    print(json.dumps({
        "events_produced": shared.produced,
        "events_per_s": round(rate, 1),
        "alerts": len(latencies),
        "unmatched": unmatched,
        **{f"{name}_ms": value for name, value in figures.items()},
        "target_p99_ms": TARGET_P99_MS,
        "target_met": met,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
