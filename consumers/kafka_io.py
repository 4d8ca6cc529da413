"""Kafka plumbing for the consumers: topics, publishing, reading, dead letters, stopping.

Nothing here commits offsets to Kafka. The database records how far each
partition was processed, in the same transaction as what the messages
produced, and a :class:`PartitionReader` is told where to start. A loop looks
like this::

    with StopFlag() as stop, PartitionReader(bootstrap, topic, stored) as reader:
        while not stop.is_set():
            batch = reader.poll_batch(settings.batch_size, settings.poll_timeout_ms)
            ...  # write events, dead letters and positions in one transaction

Every client connects when it is built, within ``timeout_ms``; a broker that
does not answer raises :class:`BrokerUnavailableError` instead of hanging.
"""

from __future__ import annotations

import hashlib
import logging
import signal
import time
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import Any, TypeVar

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka import errors as kafka_errors
from kafka.producer.future import FutureRecordMetadata

from consumers.errors import (
    BrokerUnavailableError,
    OffsetError,
    PublishError,
    TopicError,
)
from consumers.ingest import RecordLike
from consumers.kafka_connection import Bootstrap, client_config

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_MS = 10_000
"""How long a client waits for a broker to answer before giving up."""

LINGER_MS = 5
"""How long the producer holds a message to batch it with the next ones."""

FETCH_MAX_WAIT_MS = 50
"""How long the broker may hold a fetch that found nothing new (Kafka's default is 500).

Measured on the dev broker with four partitions and sparse traffic: with 500 ms a
record now and then waited up to ~100 ms for the fetch in flight to come back
before the next fetch could ask for it; with 50 ms, under 5 ms. An idle reader
then sends twenty small fetches a second, which costs the broker nothing to speak of.
"""

REASON_MAX_BYTES = 1024
"""The longest ``x-reason`` header a dead letter carries, in UTF-8 bytes."""

DEAD_LETTER_VALUE_MAX_BYTES = 512 * 1024
"""The most of a refused message's value that its dead letter carries.

A producer or broker refuses a message over its size limit (1 MB by default), so a
message near it, with the dead letter's headers added, could not be dead-lettered
whole, and the ingest would stop at it on every restart. Beyond this size the dead
letter keeps the start, the size and a SHA-256 digest of the whole, which identify
it; the original is on the source topic at the offset given, while the topic keeps it.
"""

DEAD_LETTER_HEADERS_MAX_BYTES = 64 * 1024
"""The most of a refused message's own headers that its dead letter carries; beyond it, none."""

TRUNCATED = "…"


Header = tuple[str, bytes]
"""A header to publish: a name and a value."""

ReadHeader = tuple[str, bytes | None]
"""A header as read: Kafka allows a null value, though kafka-python cannot send one."""


@dataclass(frozen=True)
class Record:
    """Hold one message read from Kafka, with where it came from."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: tuple[ReadHeader, ...] = ()
    timestamp_ms: int = -1

    @property
    def address(self) -> str:
        """Return ``topic[partition]@offset``, the record's name in logs and dead letters.

        >>> Record("table-events", 3, 1042, b"PG-01", b"{}").address
        'table-events[3]@1042'
        """
        return f"{self.topic}[{self.partition}]@{self.offset}"

    def header(self, name: str) -> bytes | None:
        """Return the last value of header ``name``, or None if it is absent.

        >>> Record("t", 0, 0, None, b"", headers=(("a", b"1"), ("a", b"2"))).header("a")
        b'2'
        """
        for header_name, value in reversed(self.headers):
            if header_name == name:
                return value
        return None


def ensure_topics(
    bootstrap: Bootstrap,
    topics: Mapping[str, int],
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    replication_factor: int | None = None,
) -> None:
    """Create each topic with its number of partitions, unless it exists already.

    The replication factor is the one given, else the broker's default. A topic that exists with a
    different number of partitions is left alone with a warning: changing it
    would move keys to other partitions, which is a decision for a person.
    """
    if not topics:
        return
    admin = _admin(bootstrap, timeout_ms)
    try:
        request: dict[str, dict[str, int]] = {
            name: {"num_partitions": count} for name, count in topics.items()
        }
        if replication_factor is not None:
            for spec in request.values():
                spec["replication_factor"] = replication_factor
        response = admin.create_topics(request, timeout_ms=timeout_ms, raise_errors=False)
        created, existing = _sort_results(response["topics"])
        # The broker answers before every partition has a leader; wait, so that the
        # first produce or fetch does not race the creation.
        if created:
            admin.wait_for_topics(created, timeout_ms=timeout_ms)
        for description in admin.describe_topics(existing) if existing else ():
            found, wanted = len(description["partitions"]), topics[description["name"]]
            if found != wanted:
                log.warning(
                    "topic %r has %d partitions, not the %d configured; leaving it as it is",
                    description["name"],
                    found,
                    wanted,
                )
    except kafka_errors.KafkaError as error:
        raise TopicError(f"cannot set up topics {sorted(topics)!r}: {error}") from error
    finally:
        admin.close()


def _sort_results(results: Iterable[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Split CreateTopics results into created and existing names; raise on any other error."""
    created, existing = [], []
    for result in results:
        error = kafka_errors.for_code(result["error_code"])
        if error is kafka_errors.NoError:
            created.append(result["name"])
        elif error is kafka_errors.TopicAlreadyExistsError:
            existing.append(result["name"])
        else:
            detail = result.get("error_message") or error.__name__
            raise TopicError(f"cannot create topic {result['name']!r}: {detail}")
    return created, existing


class ClosedOnExit(ABC):
    """A connection or process of the edges that ``with`` closes on the way out."""

    @abstractmethod
    def close(self) -> None:
        """Release what the object holds."""

    def __enter__(self: Closing) -> Closing:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


Closing = TypeVar("Closing", bound=ClosedOnExit)


class Producer(ClosedOnExit):
    """Send messages through an idempotent KafkaProducer and check each acknowledgement.

    Build one with :func:`make_producer`; send with :func:`publish`; call
    :func:`flush` before committing anything that claims the messages were sent.
    """

    def __init__(self, kafka: KafkaProducer) -> None:
        self._kafka = kafka
        self._pending: list[tuple[str, FutureRecordMetadata]] = []

    def close(self, timeout_s: float = 10.0) -> None:
        """Send what is buffered, then close the connection."""
        self._kafka.close(timeout=timeout_s)


def make_producer(
    bootstrap: Bootstrap,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    linger_ms: int = LINGER_MS,
    client_id: str = "tablewatch",
) -> Producer:
    """Connect an idempotent producer that waits for every in-sync replica.

    Keys and values are bytes, sent as they are. Topics are never created by
    producing to them; :func:`ensure_topics` does that with the right partitions.
    """
    try:
        kafka = KafkaProducer(
            **client_config(bootstrap),
            client_id=client_id,
            # Explicit, so kafka-python raises rather than quietly dropping idempotence
            # when a broker or another setting cannot have it.
            enable_idempotence=True,
            acks="all",
            linger_ms=linger_ms,
            allow_auto_create_topics=False,
            bootstrap_timeout_ms=timeout_ms,
            max_block_ms=timeout_ms,
        )
    except kafka_errors.KafkaTimeoutError as error:
        raise _unavailable(bootstrap, timeout_ms) from error
    return Producer(kafka)


def publish(
    producer: Producer,
    topic: str,
    key: bytes | None,
    value: bytes | None,
    headers: Iterable[Header] = (),
) -> None:
    """Queue one message; :func:`flush` reports whether the broker took it."""
    try:
        future = producer._kafka.send(topic, key=key, value=value, headers=list(headers))
    except kafka_errors.KafkaError as error:
        raise PublishError(f"cannot publish to {topic!r}: {error}") from error
    producer._pending.append((topic, future))


def flush(producer: Producer, timeout_s: float = 30.0) -> int:
    """Wait until the broker acknowledged every queued message; return how many there were.

    Raise PublishError if any was refused or the wait ran out. The caller
    should then stop without committing: the restart sends them again.
    """
    pending, producer._pending = producer._pending, []
    try:
        producer._kafka.flush(timeout=timeout_s)
    except kafka_errors.KafkaTimeoutError as error:
        raise PublishError(
            f"{len(pending)} messages were not acknowledged within {timeout_s}s"
        ) from error
    for topic, future in pending:
        if future.failed():
            raise PublishError(
                f"the broker refused a message for {topic!r}: {future.exception}"
            ) from future.exception
    return len(pending)


class DeadLetter:
    """Publish records that cannot be used to a dead-letter topic, bytes untouched.

    Each dead letter keeps the original value and headers, and adds
    ``x-source-topic``, ``x-source-partition``, ``x-source-offset`` and
    ``x-reason`` (plus ``x-source-key`` when the original had a key). Its key
    is the record's ``topic[partition]@offset``, so sending the same record
    twice, after a crash, yields two copies with one recognisable name.
    """

    def __init__(self, producer: Producer, topic: str) -> None:
        self._producer = producer
        self.topic = topic

    def send(self, record: RecordLike, reason: str) -> None:
        """Queue ``record`` for the dead-letter topic, saying why it was refused.

        A value, key or headers too large to publish are cut (see
        :data:`DEAD_LETTER_VALUE_MAX_BYTES`), the value's size and digest kept in headers.
        """
        # A null header value goes on as empty bytes: kafka-python cannot send null.
        original = [(name, b"" if value is None else value) for name, value in record.headers]
        headers: list[Header] = []
        if sum(len(name) + len(value) for name, value in original) <= DEAD_LETTER_HEADERS_MAX_BYTES:
            headers += original
        else:
            headers.append(("x-source-headers-dropped", str(len(original)).encode()))
        headers += [
            ("x-source-topic", record.topic.encode()),
            ("x-source-partition", str(record.partition).encode()),
            ("x-source-offset", str(record.offset).encode()),
            ("x-reason", truncate_utf8(reason, REASON_MAX_BYTES)),
        ]
        # The message key is taken by the address, so the original key rides in a header.
        if record.key is not None:
            headers.append(("x-source-key", record.key[:DEAD_LETTER_HEADERS_MAX_BYTES]))
        value = record.value
        if value is not None and len(value) > DEAD_LETTER_VALUE_MAX_BYTES:
            headers += [
                ("x-source-size", str(len(value)).encode()),
                ("x-source-sha256", hashlib.sha256(value).hexdigest().encode()),
            ]
            value = value[:DEAD_LETTER_VALUE_MAX_BYTES]
        publish(self._producer, self.topic, record.address.encode(), value, headers)

    def flush(self, timeout_s: float = 30.0) -> int:
        """Wait until the broker acknowledged every queued dead letter (and anything else)."""
        return flush(self._producer, timeout_s)


def truncate_utf8(text: str, limit: int) -> bytes:
    """Encode ``text`` as UTF-8 in at most ``limit`` bytes, marking a cut with an ellipsis.

    >>> truncate_utf8("short", 10)
    b'short'
    >>> truncate_utf8("é" * 10, 8).decode()
    'éé…'
    """
    encoded = text.encode("utf-8", "backslashreplace")  # a lone surrogate must not stop a send
    if len(encoded) <= limit:
        return encoded
    mark = TRUNCATED.encode()
    # Decoding with "ignore" drops a character split by the cut rather than mangling it.
    head = encoded[: limit - len(mark)].decode(errors="ignore").encode()
    return head + mark


class PartitionReader(ClosedOnExit):
    """Read partitions of one topic from given offsets, in batches, with no consumer group.

    ``start_offsets`` maps a partition to the next offset to read, as stored
    in the database; a partition missing from it is read from its beginning.
    ``partitions`` chooses which partitions to read (default: all of them);
    start offsets for partitions not chosen are ignored.

    Records from aborted transactions are never returned (read_committed), and a
    position the broker no longer holds raises OffsetError rather than jumping.
    """

    def __init__(
        self,
        bootstrap: Bootstrap,
        topic: str,
        start_offsets: Mapping[int, int] | None = None,
        *,
        partitions: Collection[int] | None = None,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        client_id: str = "tablewatch-reader",
        fetch_max_wait_ms: int = FETCH_MAX_WAIT_MS,
    ) -> None:
        self.topic = topic
        try:
            self._consumer = KafkaConsumer(
                **client_config(bootstrap),
                client_id=client_id,
                group_id=None,
                enable_auto_commit=False,
                # "none": a stored offset the broker lacks is an error, never a silent jump.
                auto_offset_reset="none",
                isolation_level="read_committed",
                allow_auto_create_topics=False,
                bootstrap_timeout_ms=timeout_ms,
                fetch_max_wait_ms=fetch_max_wait_ms,
            )
        except kafka_errors.KafkaTimeoutError as error:
            raise _unavailable(bootstrap, timeout_ms) from error
        try:
            self._assigned = self._assign(start_offsets or {}, partitions)
        except BaseException:
            self._consumer.close()
            raise

    @property
    def partitions(self) -> tuple[int, ...]:
        """Return the partitions this reader reads, in order."""
        return tuple(tp.partition for tp in self._assigned)

    def partitions_for(self, topic: str) -> frozenset[int]:
        """Return the partition numbers of ``topic``; empty if the topic does not exist."""
        try:
            found = self._consumer.partitions_for_topic(topic)
        except kafka_errors.KafkaTimeoutError as error:
            raise BrokerUnavailableError(f"no partitions for {topic!r} in time: {error}") from error
        return frozenset(found or ())

    def poll_batch(self, max_records: int = 500, timeout_ms: int = 1000) -> list[Record]:
        """Return up to ``max_records`` records, waiting at most ``timeout_ms`` for the first.

        Records of one partition come in offset order; partitions interleave.
        """
        try:
            fetched = self._consumer.poll(timeout_ms=timeout_ms, max_records=max_records)
        except kafka_errors.OffsetOutOfRangeError as error:
            raise OffsetError(
                f"a stored position is outside what {self.topic!r} holds: {error}"
            ) from error
        return [
            Record(
                topic=message.topic,
                partition=message.partition,
                offset=message.offset,
                key=message.key,
                value=message.value,
                headers=tuple(message.headers or ()),
                timestamp_ms=message.timestamp,
            )
            for messages in fetched.values()
            for message in messages
        ]

    def positions(self) -> dict[int, int]:
        """Return the next offset this reader will return, per partition."""
        return {tp.partition: self._consumer.position(tp) for tp in self._assigned}

    def end_offsets(self, timeout_ms: int | None = None) -> dict[int, int]:
        """Return the offset the next message will get, per partition.

        A reader whose positions have reached these offsets has caught up. A broker
        that does not answer within ``timeout_ms`` (default: the client's request
        timeout) raises BrokerUnavailableError.
        """
        try:
            listed = self._consumer.end_offsets(list(self._assigned), timeout_ms)
        except kafka_errors.KafkaTimeoutError as error:
            raise BrokerUnavailableError(f"no end offsets for {self.topic!r}: {error}") from error
        ends = {}
        for tp in self._assigned:
            # Tansu's ListOffsets answers with the last batch's first offset + 1, short
            # of the true end when that batch held several records; the high watermark
            # in fetch responses is right. On Kafka it never exceeds the listed end,
            # except inside an open transaction, where waiting for it errs the safe way.
            fetched = self._consumer.highwater(tp)
            ends[tp.partition] = max(listed[tp], fetched) if fetched is not None else listed[tp]
        return ends

    def close(self) -> None:
        """Close the connection; nothing is committed, because nothing needs to be."""
        self._consumer.close(autocommit=False)

    def check_within_topic(self, start_offsets: Mapping[int, int], timeout_ms: int) -> None:
        """Raise OffsetError if a start offset lies beyond its partition's end.

        The broker does not refuse a fetch past the end (Tansu answers it with no
        records), so a topic deleted and recreated with fewer messages would be
        skipped to its end in silence. Tansu's listed end can fall short of the true
        one, so each start past it is confirmed against the high watermark of a fetch
        from that start. The reader is left paused and positioned for the check only.
        """
        ends = self.end_offsets(timeout_ms)
        suspects = {
            TopicPartition(self.topic, p): start
            for p, start in start_offsets.items()
            if p in ends and start > ends[p]
        }
        if not suspects:
            return
        for tp, start in suspects.items():
            self._consumer.seek(tp, start)
        # The others would be fetched from wherever they are, for nothing.
        self._consumer.pause(*(tp for tp in self._assigned if tp not in suspects))
        deadline = time.monotonic() + timeout_ms / 1000
        while any(self._consumer.highwater(tp) is None for tp in suspects):
            if time.monotonic() >= deadline:
                raise BrokerUnavailableError(
                    f"no fetch from {self.topic!r} answered within {timeout_ms / 1000:g}s"
                )
            self.poll_batch(timeout_ms=100)
        beyond = {
            tp.partition: (start, self._consumer.highwater(tp))
            for tp, start in suspects.items()
            if start > (self._consumer.highwater(tp) or 0)
        }
        if beyond:
            partition, (start, end) = min(beyond.items())
            raise OffsetError(
                f"the store has {self.topic!r} partition {partition} up to offset {start - 1}, "
                f"but the topic holds offsets below {end} only: it was deleted or recreated; "
                "not skipping to its end"
            )

    def _assign(
        self, start_offsets: Mapping[int, int], partitions: Collection[int] | None
    ) -> tuple[TopicPartition, ...]:
        """Assign the chosen partitions and seek each to its start offset."""
        available = self.partitions_for(self.topic)
        if not available:
            raise TopicError(f"topic {self.topic!r} does not exist")
        chosen = frozenset(partitions) if partitions is not None else available
        unknown = (chosen | frozenset(start_offsets)) - available
        if unknown:
            raise TopicError(
                f"topic {self.topic!r} has no partition {sorted(unknown)!r}; "
                f"it has {sorted(available)!r}"
            )
        for partition, offset in start_offsets.items():
            if offset < 0:
                raise OffsetError(f"start offset for partition {partition} is negative: {offset!r}")
        assigned = tuple(TopicPartition(self.topic, p) for p in sorted(chosen))
        self._consumer.assign(list(assigned))
        for tp in assigned:
            if tp.partition in start_offsets:
                self._consumer.seek(tp, start_offsets[tp.partition])
            else:
                self._consumer.seek_to_beginning(tp)
        return assigned


class StopFlag:
    """Turn SIGTERM and SIGINT into a flag that a consumer loop checks between batches.

    The first signal asks the loop to finish its batch and exit; a second one
    raises KeyboardInterrupt at once, which is safe because an interrupted
    batch commits nothing and the restart resumes from the stored positions.
    Use it as a context manager in the main thread; the previous handlers come
    back on exit.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.reason: str | None = None
        self._previous: dict[int, Any] = {}

    def is_set(self) -> bool:
        """Return True once a stop was asked for."""
        return self.reason is not None

    def set(self, reason: str = "stop requested") -> None:
        """Ask the loop to stop, as a signal would."""
        if self.reason is None:
            self.reason = reason
            log.info("%s; stopping after the current batch", reason)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, ending early on a stop; return whether a stop was asked for."""
        deadline = time.monotonic() + seconds
        while not self.is_set() and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, 0.1))
        return self.is_set()

    def __enter__(self) -> StopFlag:
        for signum in self.SIGNALS:
            self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        previous, self._previous = self._previous, {}
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        """Set the flag on a first signal; raise KeyboardInterrupt on a second."""
        if self.is_set():
            raise KeyboardInterrupt(f"{signal.Signals(signum).name} again; stopping now")
        self.set(f"received {signal.Signals(signum).name}")


def _admin(bootstrap: Bootstrap, timeout_ms: int) -> KafkaAdminClient:
    """Connect an admin client, or raise BrokerUnavailableError within ``timeout_ms``."""
    try:
        return KafkaAdminClient(
            **client_config(bootstrap),
            client_id="tablewatch-admin",
            bootstrap_timeout_ms=timeout_ms,
            request_timeout_ms=timeout_ms,
        )
    except kafka_errors.KafkaTimeoutError as error:
        raise _unavailable(bootstrap, timeout_ms) from error


def _unavailable(bootstrap: Bootstrap, timeout_ms: int) -> BrokerUnavailableError:
    """Return the error for a broker that did not answer (naming the servers, no secret)."""
    return BrokerUnavailableError(
        f"no Kafka broker answered at {str(bootstrap)!r} within {timeout_ms / 1000:g}s"
    )
