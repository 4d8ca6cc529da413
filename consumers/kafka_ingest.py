"""The Kafka ingest loop: read and validate ahead, record each batch in one transaction, repeat.

Three things run at once, each on its own share of the machine:

- a child process (``consumers/validation.py``) reads the partitions and
  validates each record, one poll ahead;
- the main thread sends dead letters and prepares the next batch for the store
  (sequencing, the hash chain, the stored events);
- a writer thread commits the previous batch, so the database's wait overlaps
  the preparation.

Positions come from the database, never from Kafka's committed offsets: the
child is told to start at the position after the last one stored. SIGTERM
finishes the batch in hand and exits. If the database already holds a position
(a second writer, a redelivery), the batch writes nothing, the child and what it
read ahead are discarded, and a new one starts from the database's positions.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TextIO

from eventsourcing.persistence import IntegrityError

from audit.store.ingest import BatchResult, Ingestor, PreparedBatch
from consumers.ingest import IngestSummary, Progress, prepare_checked, source_name
from consumers.kafka_io import (
    DEFAULT_TIMEOUT_MS,
    Bootstrap,
    DeadLetter,
    PartitionReader,
    StopFlag,
    ensure_topics,
    make_producer,
)
from consumers.settings import Settings
from consumers.validation import CheckingReader, ReaderSettings
from consumers.wiring import kafka


def _start_offsets(bootstrap: Bootstrap, settings: Settings, ingestor: Ingestor) -> dict[int, int]:
    """Return each of this ingest's partitions' next position, as the database records it.

    Raise OffsetError if a position lies beyond its partition's end.
    """
    chosen = settings.ingest_partitions
    with PartitionReader(bootstrap, settings.events_topic, {}, partitions=chosen) as probe:
        starts = {
            p: ingestor.resume_position(source_name(settings.events_topic, p))
            for p in probe.partitions
        }
        probe.check_within_topic(starts, DEFAULT_TIMEOUT_MS)
    return starts


def _reader(bootstrap: Bootstrap, settings: Settings) -> CheckingReader:
    """Spawn a validating reader; it imports while the caller finds the start offsets."""
    return CheckingReader(
        ReaderSettings(
            bootstrap,
            settings.events_topic,
            settings.batch_size,
            settings.poll_timeout_ms,
            settings.ingest_partitions,
        )
    )


def consume(
    bootstrap: Bootstrap,
    settings: Settings,
    ingestor: Ingestor,
    *,
    until_caught_up: bool = False,
    progress: Progress | None = None,
) -> IngestSummary:
    """Ingest from ``bootstrap`` until stopped (or, with ``until_caught_up``, until at the end).

    One commit is in flight on a writer thread while the next batch is received
    and prepared. Commits stay in order; if one fails, what was prepared after
    it is discarded, the state is rebuilt from the store and reading starts
    again from the stored positions.
    """
    reader = _reader(bootstrap, settings)
    summary = IngestSummary()
    try:
        topics = {
            settings.events_topic: settings.partitions,
            settings.dlq_topic: settings.partitions,
        }
        ensure_topics(bootstrap, topics, replication_factor=settings.replication_factor)
        reader.start(_start_offsets(bootstrap, settings, ingestor))
        with (
            make_producer(bootstrap) as producer,
            StopFlag() as stop,
            ThreadPoolExecutor(1, "tablewatch-writer") as writer,
        ):
            dead_letters = DeadLetter(producer, settings.dlq_topic)
            in_flight: Future[list[tuple[int, BatchResult]]] | None = None
            try:
                while not stop.is_set():
                    polled = reader.receive()
                    prepared = prepare_checked(polled.batches, ingestor, dead_letters)
                    try:
                        _settle(in_flight, summary)
                    except IntegrityError:
                        # Someone stored these positions first: resume from what the database says.
                        in_flight = None
                        ingestor.recover()
                        reader.close()
                        reader = _reader(bootstrap, settings)
                        reader.start(_start_offsets(bootstrap, settings, ingestor))
                        continue
                    in_flight = writer.submit(_commit_all, ingestor, prepared) if prepared else None
                    if progress is not None:
                        progress.update(summary)
                    if until_caught_up and polled.caught_up and in_flight is None:
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
