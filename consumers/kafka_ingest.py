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

A lost broker or database is retried the way a restart would: everything read
ahead and prepared is discarded, and after a pause (1, 2, 4 ... 30 s) a new
:class:`Ingestor` reads its state and positions from the store again. After
``Settings.fault_deadline_s`` of failing, the ingest ends with one error (see
``consumers/faults.py``). A stored position beyond a partition's end (the topic
was recreated) ends it at once: skipping would lose what was never read.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, wait
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TextIO

from eventsourcing.persistence import IntegrityError

from audit.store.application import FactStore
from audit.store.ingest import Ingestor, PreparedBatch
from consumers.faults import (
    STALL_WARNING_S,
    Recovery,
    is_broker_fault,
    is_store_fault,
)
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
from consumers.readiness import Readiness
from consumers.settings import Settings
from consumers.validation import CheckingReader, ReaderSettings
from consumers.wiring import kafka

log = logging.getLogger(__name__)


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
    readiness: Readiness | None = None,
) -> IngestSummary:
    """Ingest from ``bootstrap`` until stopped (or, with ``until_caught_up``, until at the end).

    A lost broker or database is retried from the stored positions with a new
    :class:`Ingestor` on the same store, until ``settings.fault_deadline_s`` of
    failing raises BrokerUnavailableError or StoreUnavailableError. ``readiness``
    is false while failing.
    """
    recovery = Recovery(settings.fault_deadline_s, readiness or Readiness())
    summary = IngestSummary()
    opened: FactStore | None = None  # a store this call opened (and closes)
    renew_store = False
    try:
        with StopFlag() as stop:
            while True:
                try:
                    if renew_store:
                        opened, renew_store = _reopen(ingestor.store, opened), False
                    if recovery.failing:
                        ingestor = Ingestor(ingestor.store if opened is None else opened)
                    _run(bootstrap, settings, ingestor, summary, stop, recovery, until_caught_up,
                         progress)  # fmt: skip
                    return summary
                except Exception as error:
                    if not recovery.retries(error):
                        raise
                    renew_store = renew_store or is_store_fault(error)
                    delay = recovery.failed(error)
                if stop.wait(delay):
                    return summary
    finally:
        if opened is not None:
            opened.close()


def _reopen(store: FactStore, opened: FactStore | None) -> FactStore:
    """Open the store again, as a restart would, and close the one this ingest opened before.

    Not the same store: its connection pool backs off its reconnections without a cap
    (a minute apart after a minute's outage) and drops them after five minutes. A new
    store checks that the server answers (StoreUnavailableError, at once, if not).
    """
    fresh = FactStore(store.config)
    if opened is not None:
        opened.close()
    return fresh


def _run(
    bootstrap: Bootstrap,
    settings: Settings,
    ingestor: Ingestor,
    summary: IngestSummary,
    stop: StopFlag,
    recovery: Recovery,
    until_caught_up: bool,
    progress: Progress | None,
) -> None:
    """Ingest from the stored positions until stopped or caught up; raise on a fault.

    One commit is in flight on a writer thread while the next batch is received
    and prepared. Commits stay in order; if one fails, what was prepared after
    it is discarded. If the database already holds a position, the state is
    rebuilt from the store and reading starts again from the stored positions.
    """
    reader = _reader(bootstrap, settings)
    writer = _Writer()
    try:
        topics = {
            settings.events_topic: settings.partitions,
            settings.dlq_topic: settings.partitions,
        }
        ensure_topics(bootstrap, topics, replication_factor=settings.replication_factor)
        reader.start(_starting(summary, settings, _start_offsets(bootstrap, settings, ingestor)))
        with make_producer(bootstrap) as producer:
            dead_letters = DeadLetter(producer, settings.dlq_topic)
            in_flight: Future[list[tuple[int, PreparedBatch]]] | None = None
            try:
                while not stop.is_set():
                    polled = reader.receive()
                    for partition, end in polled.ends.items():
                        summary.end_offsets[source_name(settings.events_topic, partition)] = end
                    prepared = prepare_checked(polled.batches, ingestor, dead_letters)
                    try:
                        _settle(in_flight, summary, recovery)
                    except IntegrityError:
                        # Someone stored these positions first: resume from what the database says.
                        in_flight = None
                        ingestor.recover()
                        reader.close()
                        reader = _reader(bootstrap, settings)
                        starts = _start_offsets(bootstrap, settings, ingestor)
                        reader.start(_starting(summary, settings, starts))
                        continue
                    committed, in_flight = in_flight is not None, None  # counted once
                    if committed or not polled.batches:
                        recovery.healthy()  # a commit went through, or the broker told its ends
                    in_flight = writer.submit(_commit_all, ingestor, prepared) if prepared else None
                    if progress is not None:
                        progress.update(summary)
                    if until_caught_up and polled.caught_up and in_flight is None:
                        break
                _settle(in_flight, summary, recovery)
            except BaseException as error:
                if (
                    in_flight is not None
                    and not in_flight.cancel()  # it runs: it may yet be recorded
                    and error is not recovery.gave_up
                ):
                    # What runs next (a retry, a restart) must read the store after it.
                    _wait_out(in_flight, summary, recovery)
                if not (is_broker_fault(error) or is_store_fault(error)):
                    ingestor.recover()  # after a fault, the retry builds a new Ingestor instead
                raise
    finally:
        writer.close()
        reader.close()


def _starting(summary: IngestSummary, settings: Settings, starts: dict[int, int]) -> dict[int, int]:
    """Note where each partition starts as the next offset to store (for the lag); return them."""
    for partition, start in starts.items():
        summary.next_offsets[source_name(settings.events_topic, partition)] = start
    return starts


def _commit_all(
    ingestor: Ingestor, prepared: list[tuple[int, PreparedBatch]]
) -> list[tuple[int, PreparedBatch]]:
    for _, batch in prepared:
        ingestor.commit(batch)
    return prepared


def _count(summary: IngestSummary, committed: list[tuple[int, PreparedBatch]]) -> None:
    """Add committed batches to the totals, and move their sources' next offsets past them."""
    for count, batch in committed:
        summary.add(count, batch.result)
        summary.next_offsets[batch.source] = batch.position + 1


def _settle(
    in_flight: Future[list[tuple[int, PreparedBatch]]] | None,
    summary: IngestSummary,
    recovery: Recovery,
) -> None:
    """Wait for the commit in flight (raising its error) and count what it stored.

    A commit that takes longer than STALL_WARNING_S is reported (the database may be
    gone, and the store's own retries take a minute to give up) and, past the
    fault deadline, abandoned with StoreUnavailableError.
    """
    if in_flight is None:
        return
    started = time.monotonic()
    while True:
        try:
            results = in_flight.result(timeout=STALL_WARNING_S)
        except FutureTimeout:
            recovery.stalled(time.monotonic() - started)
            continue
        _count(summary, results)
        return


_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


def _wait_out(
    in_flight: Future[list[tuple[int, PreparedBatch]]], summary: IngestSummary, recovery: Recovery
) -> None:
    """Wait until a commit ends, and count it if it went through.

    Its error, if any, is not raised: the error being handled is the one that
    counts, and the store, read next, says what was recorded. A stall is reported,
    and past the fault deadline abandoned, as in :func:`_settle`.
    """
    started = time.monotonic()
    while not wait([in_flight], timeout=STALL_WARNING_S).done:
        recovery.stalled(time.monotonic() - started)
    if in_flight.exception() is None:
        _count(summary, in_flight.result())


class _Writer:
    """One thread that runs commits in order, returning a Future for each.

    A daemon thread, unlike a ThreadPoolExecutor's: when the ingest gives up on a
    commit hung on a lost database, the process must still exit; the server rolls
    back the transaction left open.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="tablewatch-writer", daemon=True)
        self._thread.start()

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        """Queue ``function(*args)``; return its Future."""
        future: Future[Any] = Future()
        self._jobs.put((future, function, args))
        return future

    def close(self) -> None:
        """Let the thread end once the queued commits are done (it is not waited for)."""
        self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, function, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(function(*args))
            except BaseException as error:  # handed to the waiting main thread
                future.set_exception(error)


def ingest_from_kafka(
    settings: Settings,
    ingestor: Ingestor,
    *,
    until_caught_up: bool,
    out: TextIO = sys.stderr,
    readiness: Readiness | None = None,
    progress: Progress | None = None,
) -> IngestSummary:
    """Run the ingest against the configured cluster, or a dev broker started for it."""
    with kafka(settings) as bootstrap:
        print(f"reading {settings.events_topic} from {bootstrap}", file=out)
        return consume(
            bootstrap,
            settings,
            ingestor,
            until_caught_up=until_caught_up,
            progress=progress or Progress(out),
            readiness=readiness,
        )
