"""The Kafka ingest loop: poll a batch, record it in one transaction per partition, repeat.

Positions come from the database, never from Kafka's committed offsets: each
partition is assigned and sought to the position after the last one stored.
SIGTERM finishes the batch in hand and exits. If the database already holds a
position (a second writer, a redelivery), the batch writes nothing and the
reader is sought again from the database.
"""

from __future__ import annotations

import sys
from typing import TextIO

from eventsourcing.persistence import IntegrityError

from audit.store.ingest import Ingestor
from consumers.ingest import IngestSummary, Progress, record_kafka_batch, source_name
from consumers.kafka_io import DeadLetter, PartitionReader, StopFlag, ensure_topics, make_producer
from consumers.settings import Settings
from consumers.wiring import kafka


def _caught_up(reader: PartitionReader) -> bool:
    ends = reader.end_offsets()
    positions = reader.positions()
    return all(positions.get(p, 0) >= end for p, end in ends.items())


def _reader(bootstrap: str, settings: Settings, ingestor: Ingestor) -> PartitionReader:
    probe = PartitionReader(bootstrap, settings.events_topic, {})
    partitions = probe.partitions
    probe.close()
    starts = {
        p: ingestor.resume_position(source_name(settings.events_topic, p)) for p in partitions
    }
    return PartitionReader(bootstrap, settings.events_topic, starts)


def consume(
    bootstrap: str,
    settings: Settings,
    ingestor: Ingestor,
    *,
    until_caught_up: bool = False,
    progress: Progress | None = None,
) -> IngestSummary:
    """Ingest from ``bootstrap`` until stopped (or, with ``until_caught_up``, until at the end)."""
    ensure_topics(
        bootstrap,
        {settings.events_topic: settings.partitions, settings.dlq_topic: settings.partitions},
    )
    summary = IngestSummary()
    with make_producer(bootstrap) as producer, StopFlag() as stop:
        dead_letters = DeadLetter(producer, settings.dlq_topic)
        reader = _reader(bootstrap, settings, ingestor)
        try:
            while not stop.is_set():
                records = reader.poll_batch(settings.batch_size, settings.poll_timeout_ms)
                try:
                    for count, result in record_kafka_batch(records, ingestor, dead_letters):
                        summary.add(count, result)
                except IntegrityError:
                    # Someone stored these positions first: resume from what the database says.
                    reader.close()
                    reader = _reader(bootstrap, settings, ingestor)
                    continue
                if progress is not None:
                    progress.update(summary)
                if until_caught_up and not records and _caught_up(reader):
                    break
        finally:
            reader.close()
    return summary


def ingest_from_kafka(
    settings: Settings, ingestor: Ingestor, *, until_caught_up: bool, out: TextIO = sys.stderr
) -> IngestSummary:
    """Run the ingest against the configured cluster, or a dev broker started for it."""
    with kafka(settings) as bootstrap:
        print(f"reading {settings.events_topic} from {bootstrap}", file=out)
        return consume(
            bootstrap, settings, ingestor, until_caught_up=until_caught_up, progress=Progress(out)
        )
