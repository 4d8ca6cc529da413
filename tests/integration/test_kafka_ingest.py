"""Kafka into the store, exactly once: round trip, dead letters, and a SIGKILL mid-batch.

Real broker (the session's dev broker, or KAFKA_BOOTSTRAP_SERVERS) and real
PostgreSQL (a database per test).
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from kafka import KafkaAdminClient

from audit.events.examples import EXAMPLES
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from audit.store.verify import verify_chain
from consumers.cli import main
from consumers.kafka_ingest import consume
from consumers.kafka_io import PartitionReader, ensure_topics
from consumers.wiring import SQLITE_FILE
from tests.builders.kafka_feed import (
    count_facts,
    events_for,
    ingest_command,
    produce,
    settings_for,
    stored_event_ids,
)

ROOT = Path(__file__).resolve().parents[2]


def test_round_trip_stores_every_event_once_in_table_order(kafka_bootstrap, pg_url):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = settings_for(topic)
    ensure_topics(kafka_bootstrap, {topic: 3, settings.dlq_topic: 3})
    events = events_for(tables=6, per_table=50)
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in events]
    )
    store = FactStore(StoreConfig.postgres(pg_url))
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)
    assert (summary.stored, summary.rejected, summary.observations) == (300, 0, 0)
    stored = [f.fact for f in store.facts()]
    assert sorted(f["event_id"] for f in stored) == sorted(e["event_id"] for e in events)
    for table in {e["table_id"] for e in events}:
        assert [f["seq"] for f in stored if f["table_id"] == table] == list(range(50))
    # A second pass finds nothing new: positions came from the database.
    again = consume(kafka_bootstrap, settings, Ingestor(FactStore(StoreConfig.postgres(pg_url))),
                    until_caught_up=True)  # fmt: skip
    assert again.messages == 0
    assert verify_chain(store).ok


MISSING_FIELD = {k: v for k, v in EXAMPLES["hand_set"].items() if k != "high"}
WRONG_TILE = {**EXAMPLES["stack_delivered"], "tiles": ["6-6a", "7-7", "1-2", "4-5"]}
BAD_MESSAGES = {
    "malformed-json": b'{"type": "no_more_bets", ',
    "unknown-type": json.dumps({**EXAMPLES["no_more_bets"], "type": "dice_thrown"}).encode(),
    "missing-field": json.dumps(MISSING_FIELD).encode(),
    "wrong-tile": json.dumps(WRONG_TILE).encode(),
    "oversized": b'{"type": "no_more_bets", "pad": "' + b"x" * 70_000 + b'"}',
}
REASONS = {
    "malformed-json": "not JSON",
    "unknown-type": "unknown event type 'dice_thrown'",
    "missing-field": "high: Field required",
    "wrong-tile": "tiles.1: Value error, invalid tile kind: '7-7'",
    "oversized": "exceeds 65536",
}


def test_bad_input_goes_to_the_dlq_with_its_reason_and_ingest_continues(kafka_bootstrap, pg_url):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = settings_for(topic)
    ensure_topics(kafka_bootstrap, {topic: 1, settings.dlq_topic: 1})
    good = events_for(tables=1, per_table=6)
    messages = [(b"PG-00", json.dumps(good[0]).encode())]
    for name, raw in BAD_MESSAGES.items():
        messages.append((name.encode(), raw))
    messages += [(b"PG-00", json.dumps(e).encode()) for e in good[1:]]
    produce(kafka_bootstrap, topic, messages)
    store = FactStore(StoreConfig.postgres(pg_url))
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)
    assert (summary.stored, summary.rejected) == (6, 5)
    with PartitionReader(kafka_bootstrap, settings.dlq_topic, {0: 0}) as dlq:
        letters = []
        while len(letters) < 5:
            batch = dlq.poll_batch(100, 1000)
            assert batch, "dead letters did not arrive"
            letters += batch
    by_name = {letter.header("x-source-key").decode(): letter for letter in letters}
    for name, raw in BAD_MESSAGES.items():
        letter = by_name[name]
        assert letter.value == raw  # the original bytes
        assert REASONS[name] in letter.header("x-reason").decode()
        assert letter.header("x-source-topic") == topic.encode()
        assert letter.key.decode().startswith(f"{topic}[0]@")
    assert stored_event_ids(store) == [e["event_id"] for e in good]


def _store_for(store_config: StoreConfig) -> StoreConfig:
    """Return the store an ingest process opens for ``store_config``'s database."""
    if store_config.sqlite_path is None:
        return store_config
    return StoreConfig.sqlite(store_config.sqlite_path.parent / SQLITE_FILE)


@pytest.mark.slow
def test_sigkill_mid_batch_loses_nothing_and_duplicates_nothing(kafka_bootstrap, store_config):
    config = _store_for(store_config)
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 3, f"{topic}.dlq": 3})
    events = events_for(tables=12, per_table=400)
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in events]
    )
    FactStore(config)  # create the tables before the ingest starts
    argv, env = ingest_command(kafka_bootstrap, config, topic)
    ingest = subprocess.Popen(argv, env=env)
    deadline = time.monotonic() + 60
    while count_facts(config) < len(events) // 4:
        assert time.monotonic() < deadline, "the ingest made no progress"
        assert ingest.poll() is None, "the ingest died on its own"
        time.sleep(0.02)
    ingest.send_signal(signal.SIGKILL)
    ingest.wait(10)
    killed_at = count_facts(config)
    assert 0 < killed_at < len(events), "kill the ingest while it is still working"
    # Redelivered events from long before the kill: the restarted ingest must drop them.
    again = events[: len(events) // 8]
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in again]
    )
    argv, env = ingest_command(kafka_bootstrap, config, topic, "--until-caught-up")
    assert subprocess.run(argv, env=env, timeout=120, check=False).returncode == 0
    store = FactStore(config)
    ids = stored_event_ids(store)
    assert len(ids) == len(set(ids)), "an event was stored twice"
    assert sorted(ids) == sorted(e["event_id"] for e in events), "an event was lost"
    report = verify_chain(store)
    assert report.ok
    assert report.facts == len(events), "no gap or reuse was observed"
    # The ingest's state tables committed in step with the facts.
    heads = {head.table_id: head for head in store.ingest_state.heads()}
    assert {table: head.chain_head for table, head in heads.items()} == report.heads
    assert {head.next_seq for head in heads.values()} == {400}


def test_a_simulated_shift_round_trips_through_kafka_into_postgres(kafka_bootstrap, pg_url):
    """The issue's round trip: a simulated shift, every event stored once, in per-table order."""
    import random

    from audit.simulation.shift import ShiftConfig, simulate_shift
    from consumers.run_cli import produce_events

    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = settings_for(topic)
    ensure_topics(kafka_bootstrap, {topic: 3, settings.dlq_topic: 3})
    events = list(simulate_shift(ShiftConfig(tables=5, rounds_per_table=6), random.Random(11)))
    produce_events(kafka_bootstrap, topic, events)
    store = FactStore(StoreConfig.postgres(pg_url))
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)
    assert (summary.stored, summary.rejected, summary.observations) == (len(events), 0, 0)
    stored = [f.fact for f in store.facts()]
    assert sorted(f["event_id"] for f in stored) == sorted(str(e.event_id) for e in events)
    for table in {e.table_id for e in events}:
        seqs = [f["seq"] for f in stored if f["table_id"] == table]
        assert seqs == sorted(seqs) == list(range(len(seqs)))
    some_round = next(e for e in events if e.round_id is not None)
    replayed = store.round(some_round.table_id, some_round.round_id).facts
    assert replayed[0]["type"] == "round_started"
    assert replayed[-1]["type"] == "round_completed"
    assert verify_chain(store).ok


def test_a_topic_recreated_shorter_than_the_store_read_it_stops_the_ingest(
    kafka_bootstrap, pg_url, monkeypatch, capsys
):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 3, f"{topic}.dlq": 3})
    events = events_for(tables=3, per_table=40)
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in events]
    )
    for name, value in {
        "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
        "DATABASE_URL": pg_url,
        "TABLEWATCH_EVENTS_TOPIC": topic,
        "TABLEWATCH_PARTITIONS": "3",
        "TABLEWATCH_POLL_TIMEOUT_MS": "200",
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["db", "migrate"]) == 0  # the commands run no DDL on PostgreSQL
    assert main(["ingest", "--until-caught-up"]) == 0
    stored = count_facts(pg_url)
    assert stored >= len(events)
    # A restart at the end is not beyond it (Tansu lists ends short of the last batch).
    assert main(["ingest", "--until-caught-up"]) == 0
    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    try:
        admin.delete_topics([topic])
        deadline = time.monotonic() + 10
        while topic in admin.list_topics():
            assert time.monotonic() < deadline, "the topic was not deleted"
            time.sleep(0.05)
    finally:
        admin.close()
    ensure_topics(kafka_bootstrap, {topic: 3})
    fewer = events_for(tables=3, per_table=5)
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in fewer]
    )
    capsys.readouterr()
    assert main(["ingest", "--until-caught-up"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "not skipping to its end" in err[-1], err
    assert err[-1].startswith("tablewatch: the store has "), err
    assert "Traceback" not in "\n".join(err)
    assert count_facts(pg_url) == stored


def test_the_ingest_serves_readiness_and_its_totals_while_it_runs(kafka_bootstrap, tmp_path):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 2, f"{topic}.dlq": 2})
    events = events_for(tables=2, per_table=30)
    produce(kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode())
                                     for e in events] + [(b"PG-00", b"{not json")])  # fmt: skip
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
           "TABLEWATCH_DATA_DIR": str(tmp_path), "TABLEWATCH_EVENTS_TOPIC": topic,
           "TABLEWATCH_PARTITIONS": "2", "TABLEWATCH_POLL_TIMEOUT_MS": "200"}  # fmt: skip
    env.pop("DATABASE_URL", None)
    ingest = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "ingest", "--health-port", str(port)],
        env=env, cwd=ROOT, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline, metrics = time.monotonic() + 60, ""
        while 'tablewatch_ingest{total="stored"} 60.0' not in metrics:
            assert ingest.poll() is None, "the ingest stopped"
            assert time.monotonic() < deadline, metrics
            time.sleep(0.2)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as m:
                    metrics = m.read().decode()
            except OSError:
                continue  # not serving yet
        assert 'tablewatch_ingest{total="rejected"} 1.0' in metrics
        assert "tablewatch_ingest_last_batch_timestamp_seconds" in metrics
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
            assert (answer.status, answer.read()) == (200, b"reading and storing\n")
    finally:
        ingest.send_signal(signal.SIGTERM)
        assert ingest.wait(timeout=30) == 0
