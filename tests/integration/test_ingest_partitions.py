"""Scale-out by partition: each ingest reads the partitions its setting gives it.

Several stores (one per property, say) can be fed from one topic: each ingest
stores the tables of its own partitions only, and resumes them from its own store.
"""

import json
import uuid

import pytest
from kafka.partitioner.default import murmur2

from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from consumers.errors import TopicError
from consumers.kafka_ingest import consume
from consumers.kafka_io import ensure_topics
from tests.builders.kafka_feed import events_for, produce, settings_for


def _partition(key: str, count: int = 4) -> int:
    """Return the partition a key goes to (Kafka's default partitioner: murmur2)."""
    return (murmur2(key.encode()) & 0x7FFFFFFF) % count


def _tables_in(store: FactStore) -> set[str]:
    return {f.fact["table_id"] for f in store.facts()}


def test_two_ingests_split_one_topic_between_two_stores(kafka_bootstrap, tmp_path):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 4, f"{topic}.dlq": 4})
    events = events_for(tables=8, per_table=20)
    produce(
        kafka_bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in events]
    )
    # Keyed by table: each table's events in the one partition the key hashes to.
    partition_of = {f"PG-{t:02d}": _partition(f"PG-{t:02d}") for t in range(8)}
    assert {p in (0, 1) for p in partition_of.values()} == {True, False}  # both stores get some

    stores = {}
    for name, chosen in (("east", (0, 1)), ("west", (2, 3))):
        settings = settings_for(topic, ingest_partitions=chosen)
        stores[name] = FactStore(StoreConfig.sqlite(tmp_path / f"{name}.sqlite"))
        summary = consume(kafka_bootstrap, settings, Ingestor(stores[name]), until_caught_up=True)
        assert summary.stored == 20 * sum(p in chosen for p in partition_of.values())
    east, west = _tables_in(stores["east"]), _tables_in(stores["west"])
    assert east == {t for t, p in partition_of.items() if p in (0, 1)}
    assert west == {t for t, p in partition_of.items() if p in (2, 3)}
    # Each resumes from its own store: a second pass reads nothing new.
    settings = settings_for(topic, ingest_partitions=(0, 1))
    assert consume(kafka_bootstrap, settings, Ingestor(stores["east"]),
                   until_caught_up=True).messages == 0  # fmt: skip


def test_a_partition_the_topic_lacks_is_an_error_naming_it(kafka_bootstrap, tmp_path):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 2, f"{topic}.dlq": 2})
    store = FactStore(StoreConfig.sqlite(tmp_path / "store.sqlite"))
    with pytest.raises(TopicError, match=r"no partition \[5\]"):
        consume(kafka_bootstrap, settings_for(topic, ingest_partitions=(0, 5)), Ingestor(store),
                until_caught_up=True)  # fmt: skip
