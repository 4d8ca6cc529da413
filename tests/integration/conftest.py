"""Fixtures for tests against a real Kafka-compatible broker.

Set ``KAFKA_BOOTSTRAP_SERVERS`` to test against a running broker; otherwise
one dev broker (Tansu, memory storage) is started for the whole session.
"""

import os
import uuid

import pytest
from kafka import KafkaAdminClient
from kafka.errors import KafkaError

from consumers.devbroker import DevBroker
from consumers.kafka_io import ensure_topics


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
