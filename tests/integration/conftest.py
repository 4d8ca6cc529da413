"""Fixtures for tests against a real Kafka-compatible broker, and those several modules share:
the alerts' tampered shift and webhook receiver, and three PostgreSQL roles.

Set ``KAFKA_BOOTSTRAP_SERVERS`` to test against a running broker; otherwise
one dev broker (Tansu, memory storage) is started for the whole session.
"""

import os
import random
import uuid

import psycopg
import pytest
from kafka import KafkaAdminClient
from kafka.errors import KafkaError

from audit.events.catalogue import event_dict, parse_event
from audit.simulation.shift import ShiftConfig, simulate_shift
from consumers.devbroker import DevBroker
from consumers.kafka_io import ensure_topics
from tests.conftest import ADMIN_URL


@pytest.fixture(scope="session")
def kafka_bootstrap():
    """Yield the bootstrap servers of the broker the integration tests use."""
    configured = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "").strip()
    if configured:
        yield configured
        return
    with DevBroker() as broker:
        yield broker.bootstrap_servers


@pytest.fixture
def new_topic(kafka_bootstrap):
    """Return a function that creates a topic with a unique name; delete them afterwards."""
    created = []

    def make(partitions=1, prefix="test"):
        name = f"{prefix}-{uuid.uuid4().hex[:12]}"
        ensure_topics(kafka_bootstrap, {name: partitions})
        created.append(name)
        return name

    yield make
    if created:
        admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        try:
            admin.delete_topics(created)
        except KafkaError as error:
            # A leftover uniquely named topic harms no later test; say so and move on.
            print(f"could not delete test topics {created!r}: {error}")
        finally:
            admin.close()


@pytest.fixture(scope="module")
def shift():
    """A small shift with an overpaid winner early, another late, and a missing event."""
    raw = [event_dict(e) for e in simulate_shift(ShiftConfig(3, 6), random.Random(4))]
    winners = [
        i for i, r in enumerate(raw) if r["type"] == "wager_settled" and r["outcome"] == "win"
    ]
    for i in (winners[0], winners[-1]):
        raw[i]["paid"] = "999.00"
    del raw[40]
    return [parse_event(r) for r in raw]


@pytest.fixture
def roles(pg_url):
    """Yield {'owner'|'writer'|'reader': URL} for three new roles on a fresh database."""
    suffix = uuid.uuid4().hex[:10]
    names = {kind: f"tw_{kind}_{suffix}" for kind in ("owner", "writer", "reader")}
    database = pg_url.rsplit("/", 1)[1]
    base = ADMIN_URL.rsplit("/", 1)[0].replace("postgres@", "{role}@", 1)
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        for name in names.values():
            conn.execute(f'CREATE ROLE "{name}" LOGIN')
        conn.execute(f'ALTER DATABASE "{database}" OWNER TO "{names["owner"]}"')
    try:
        yield {kind: f"{base.format(role=name)}/{database}" for kind, name in names.items()}
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            for name in names.values():
                conn.execute(f'DROP ROLE IF EXISTS "{name}"')
