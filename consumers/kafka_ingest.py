"""The Kafka ingest loop: poll a batch, record it in one transaction per partition, repeat.

Positions come from the database, never from Kafka's committed offsets: each
partition is assigned and sought to the position after the last one stored.
SIGTERM finishes the batch in hand and exits. If the database already holds a
position (a second writer, a redelivery), the batch writes nothing and the
reader is sought again from the database.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TextIO

from eventsourcing.persistence import IntegrityError

from audit.store.ingest import BatchResult, Ingestor, PreparedBatch
from consumers.ingest import IngestSummary, Progress, prepare_kafka_batch, source_name
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
    """Ingest from ``bootstrap`` until stopped (or, with ``until_caught_up``, until at the end).

    One commit is in flight on a writer thread while the next batch is polled and
    prepared: the database's wait and the validation work overlap. Commits stay
    in order; if one fails, what was prepared after it is discarded, the state is
    rebuilt from the store and the reader sought again from the stored positions.
    """
    topics = {settings.events_topic: settings.partitions, settings.dlq_topic: settings.partitions}
    ensure_topics(bootstrap, topics)
    summary = IngestSummary()
    with (
        make_producer(bootstrap) as producer,
        StopFlag() as stop,
        ThreadPoolExecutor(1, "tablewatch-writer") as writer,
    ):
        dead_letters = DeadLetter(producer, settings.dlq_topic)
        reader = _reader(bootstrap, settings, ingestor)
        in_flight: Future[list[tuple[int, BatchResult]]] | None = None
        try:
            while not stop.is_set():
                records = reader.poll_batch(settings.batch_size, settings.poll_timeout_ms)
                prepared = prepare_kafka_batch(records, ingestor, dead_letters)
                try:
                    _settle(in_flight, summary)
                except IntegrityError:
                    # Someone stored these positions first: resume from what the database says.
                    in_flight = None
                    ingestor.recover()
                    reader.close()
                    reader = _reader(bootstrap, settings, ingestor)
                    continue
                in_flight = writer.submit(_commit_all, ingestor, prepared) if prepared else None
                if progress is not None:
                    progress.update(summary)
                if until_caught_up and not records and in_flight is None and _caught_up(reader):
                    break
            _settle(in_flight, summary)
        except BaseException:
            if in_flight is not None:
                in_flight.cancel()
            ingestor.recover()
            raise
        finally:
            reader.close()
    return summary


def _commit_all(
    ingestor: Ingestor, prepared: list[tuple[int, PreparedBatch]]
) -> list[tuple[int, BatchResult]]:
    return [(count, ingestor.commit(batch)) for count, batch in prepared]


def _settle(
    in_flight: Future[list[tuple[int, BatchResult]]] | None, summary: IngestSummary
) -> None:
    """Wait for the commit in flight (raising its error) and count what it stored."""
    if in_flight is not None:
        for count, result in in_flight.result():
            summary.add(count, result)


def ingest_from_kafka(
    settings: Settings, ingestor: Ingestor, *, until_caught_up: bool, out: TextIO = sys.stderr
) -> IngestSummary:
    """Run the ingest against the configured cluster, or a dev broker started for it."""
    with kafka(settings) as bootstrap:
        print(f"reading {settings.events_topic} from {bootstrap}", file=out)
        return consume(
            bootstrap, settings, ingestor, until_caught_up=until_caught_up, progress=Progress(out)
        )
