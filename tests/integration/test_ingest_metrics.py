"""The ingest's /metrics: per-partition lag, scraped while a real broker's topic drains."""

import json
import re
import uuid
from dataclasses import replace

from prometheus_client import CollectorRegistry

from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from consumers.health import serve_health
from consumers.ingest import IngestSummary
from consumers.ingest_metrics import MeteredProgress
from consumers.kafka_ingest import consume
from consumers.kafka_io import PartitionReader, ensure_topics, flush, make_producer, publish
from consumers.settings import Settings
from tests.builders.kafka_feed import events_for
from tests.builders.metrics import (
    scrape,
)


def partition_values(samples: dict[str, float], metric: str, topic: str) -> dict[int, float]:
    found = {}
    for name, value in samples.items():
        match = re.fullmatch(rf'{metric}\{{partition="(\d+)",topic="{re.escape(topic)}"\}}', name)
        if match:
            found[int(match[1])] = value
    return found


class Scraping(MeteredProgress):
    """The ingest's metered progress, scraping its own /metrics after every update."""

    def __init__(self, registry: CollectorRegistry) -> None:
        super().__init__(None, registry)
        self.port = 0
        self.scrapes: list[dict[str, float]] = []

    def update(self, summary: IngestSummary, *, final: bool = False) -> None:
        super().update(summary, final=final)
        self.scrapes.append(scrape(self.port))


def test_lag_starts_at_the_backlog_and_falls_to_zero_as_it_is_stored(kafka_bootstrap, tmp_path):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = replace(Settings(), events_topic=topic, dlq_topic=f"{topic}.dlq", partitions=2,
                       poll_timeout_ms=200, batch_size=20)  # fmt: skip
    ensure_topics(kafka_bootstrap, {topic: 2, settings.dlq_topic: 2})
    with make_producer(kafka_bootstrap) as producer:
        for event in events_for(tables=4, per_table=15):
            publish(producer, topic, event["table_id"].encode(), json.dumps(event).encode())
            flush(producer)  # one record a batch: Tansu lists the true end of each
    with PartitionReader(kafka_bootstrap, topic, {}) as reader:
        held = reader.end_offsets()
    assert sum(held.values()) == 60
    assert all(held.values()), held

    registry = CollectorRegistry()
    progress = Scraping(registry)
    server = serve_health(lambda: (True, "ok"), registry, "127.0.0.1", 0)
    progress.port = server.server_address[1]
    store = FactStore(StoreConfig.sqlite(tmp_path / "store.sqlite"))
    try:
        summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True,
                          progress=progress)  # fmt: skip
    finally:
        server.shutdown()
    assert summary.stored == 60

    lags = [partition_values(s, "tablewatch_ingest_lag_messages", topic) for s in progress.scrapes]
    # The first poll asks for the ends before anything is stored: the whole backlog shows.
    assert lags[0] == {p: float(end) for p, end in held.items()}
    # Batches of 20 drain it in steps, never rising, down to nothing.
    for p in held:
        seen = [lag[p] for lag in lags if p in lag]
        assert seen == sorted(seen, reverse=True), seen
        assert len(set(seen)) > 2, seen
    assert lags[-1] == {p: 0.0 for p in held}
    last = progress.scrapes[-1]
    assert partition_values(last, "tablewatch_ingest_next_offset", topic) == {
        p: float(end) for p, end in held.items()
    }
    assert partition_values(last, "tablewatch_ingest_end_offset", topic) == {
        p: float(end) for p, end in held.items()
    }
