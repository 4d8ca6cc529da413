"""Build what the Kafka ingest tests feed and read: events for many tables, a producer of raw
messages, settings for a topic, an ingest process as an operator runs it, and what was stored."""

import os
import sqlite3
import sys
import uuid
from contextlib import closing
from dataclasses import replace

import psycopg

from audit.events.examples import EXAMPLES
from audit.store.application import FactStore, StoreConfig
from consumers.kafka_io import flush, make_producer, publish
from consumers.settings import Settings


def events_for(tables: int, per_table: int) -> list[dict]:
    """Valid events for several tables, each table's seq running 0, 1, 2, ..."""
    events = []
    for t in range(tables):
        table = f"PG-{t:02d}"
        for seq in range(per_table):
            kind = "table_opened" if seq == 0 else "no_more_bets"
            event = {**EXAMPLES[kind], "table_id": table, "seq": seq, "event_id": str(uuid.uuid4())}
            if "round_id" in event:
                event["round_id"] = f"{table}-r{seq // 40}"
            events.append(event)
    return events


def produce(bootstrap: str, topic: str, messages: list[tuple[bytes, bytes]]) -> None:
    with make_producer(bootstrap) as producer:
        for key, value in messages:
            publish(producer, topic, key, value)
        flush(producer)


def settings_for(topic: str, **changes) -> Settings:
    return replace(
        Settings(), events_topic=topic, dlq_topic=f"{topic}.dlq", partitions=3,
        poll_timeout_ms=200, **changes,
    )  # fmt: skip


def stored_event_ids(store: FactStore) -> list[str]:
    return [
        f.fact["event_id"] for f in store.facts() if f.fact["recorded_by"] != "tablewatch-ingest"
    ]


def count_facts(database: StoreConfig | str) -> int:
    config = StoreConfig.postgres(database) if isinstance(database, str) else database
    statement = "SELECT count(*) FROM {} WHERE topic = 'tablewatch:FactRecorded'"
    if config.sqlite_path is not None:
        with closing(sqlite3.connect(config.sqlite_path)) as conn:
            row = conn.execute(statement.format("stored_events")).fetchone()
            assert row is not None
            return row[0]
    assert config.postgres_url is not None
    with psycopg.connect(config.postgres_url) as conn:
        row = conn.execute(statement.format("tablewatch_events")).fetchone()
    assert row is not None
    return row[0]


_INGEST = (
    "import os, sys; from dataclasses import replace; from consumers.settings import Settings;"
    "from consumers.wiring import open_store; from audit.store.ingest import Ingestor;"
    "from consumers.kafka_ingest import consume;"
    "s = Settings.from_env(); t = os.environ['TEST_EVENTS_TOPIC'];"
    "s = replace(s, events_topic=t, dlq_topic=t + '.dlq', partitions=3);"
    "consume(s.kafka_bootstrap_servers, s, Ingestor(open_store(s)),"
    " until_caught_up='--until-caught-up' in sys.argv)"
)


def ingest_command(
    kafka_bootstrap: str, database: StoreConfig | str, topic: str, *flags: str
) -> tuple[list, dict]:
    """Return argv and environment for an ingest process, as an operator would run it.

    ``database`` is a PostgreSQL URL or a store config; a SQLite one must be where
    the settings put it (``TABLEWATCH_DATA_DIR``, see ``_store_for``).
    """
    config = StoreConfig.postgres(database) if isinstance(database, str) else database
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
        "TABLEWATCH_BATCH_SIZE": "40",
        "TABLEWATCH_POLL_TIMEOUT_MS": "200",
        "TEST_EVENTS_TOPIC": topic,
    }
    if config.sqlite_path is not None:
        env["TABLEWATCH_DATA_DIR"] = str(config.sqlite_path.parent)
    else:
        assert config.postgres_url is not None
        env["DATABASE_URL"] = config.postgres_url
    return [sys.executable, "-c", _INGEST, *flags], env
