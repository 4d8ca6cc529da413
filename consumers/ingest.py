"""Ingest: bytes from Kafka or a JSON Lines file, validated, stored once, positions tracked.

Each source (a Kafka partition, a file) resumes from the position stored in the
database, never from Kafka's own offsets. A message that is not a valid event is
sent to the dead-letter topic with its reason *before* the batch's transaction
commits, and is kept in the store as well; so after a crash a dead letter may be
sent twice (with the same key), but nothing is ever lost.

Validation (:func:`to_checked`, :func:`check_records`) reduces each event to the
:class:`~audit.store.ingest.Checked` tuple the store needs. It needs none of the
ingest's state, so the Kafka ingest runs it in a child process
(``consumers/validation.py``) and only :func:`prepare_checked` in the main one.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from audit.events.catalogue import InvalidEventError, parse_arriving
from audit.store.ingest import (
    BatchResult,
    Checked,
    Ingestor,
    Message,
    PreparedBatch,
    Rejected,
    check,
)
from consumers.errors import FileChangedError

log = logging.getLogger(__name__)


@dataclass
class IngestSummary:
    """Running totals of an ingest."""

    messages: int = 0
    stored: int = 0
    duplicates: int = 0
    observations: int = 0
    rejected: int = 0
    batches: int = 0
    started: float = field(default_factory=time.perf_counter)
    next_offsets: dict[str, int] = field(default_factory=dict)
    """Per Kafka source (``table-events[3]``), the next offset the ingest will store."""
    end_offsets: dict[str, int] = field(default_factory=dict)
    """Per Kafka source, its end offset as the broker last told it (asked every few seconds)."""

    def add(self, messages: int, result: BatchResult) -> None:
        """Add one recorded batch."""
        self.messages += messages
        self.stored += result.stored
        self.duplicates += result.duplicates
        self.observations += result.observations
        self.rejected += result.rejected
        self.batches += 1

    def lag(self) -> dict[str, int]:
        """Return, per Kafka source with a known end, the messages not yet stored.

        Never negative: an end told before the latest commits (or Tansu's listed end,
        which falls short of the true one) means nothing is waiting, not less than nothing.
        """
        return {
            source: max(0, end - self.next_offsets.get(source, 0))
            for source, end in self.end_offsets.items()
        }

    @property
    def seconds(self) -> float:
        """Return the seconds since the ingest started."""
        return time.perf_counter() - self.started

    def line(self) -> str:
        """Return a one-line account for a person."""
        rate = self.messages / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.messages:,} messages: {self.stored:,} stored, {self.duplicates:,} duplicates "
            f"dropped, {self.observations:,} stream observations, {self.rejected:,} rejected "
            f"({rate:,.0f}/s)"
        )


class Progress:
    """Report an ingest's progress on a terminal, at most every ``interval`` seconds.

    Only on a terminal, where each line overwrites the last: a log (a file, a pipe, a
    service manager's journal) would fill with a line a second even when nothing
    happens. The final word is printed everywhere.
    """

    def __init__(self, out: TextIO | None, interval: float = 1.0) -> None:
        self.out = out
        self.interval = interval
        self._last = 0.0

    def update(self, summary: IngestSummary, *, final: bool = False) -> None:
        """Print the summary if enough time has passed, or if this is the last word."""
        if self.out is None or not (final or self.out.isatty()):
            return
        now = time.perf_counter()
        if final or now - self._last >= self.interval:
            self._last = now
            live = not final
            self.out.write(("\r" if live else "") + summary.line() + ("" if live else "\n"))
            self.out.flush()


def _batches(lines: Iterable[tuple[int, bytes]], size: int) -> Iterator[list[tuple[int, bytes]]]:
    batch: list[tuple[int, bytes]] = []
    for item in lines:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


_IDENTITY_BYTES = 64 * 1024


def file_source(path: Path) -> str:
    """Return the tracking name of a file: its name and a digest of its first line.

    By content, not by name alone: another file of the same name is another source,
    ingested from its start, while lines appended to this one are picked up.
    """
    with path.open("rb") as lines:
        first = lines.readline(_IDENTITY_BYTES)
    return f"file:{path.name}#{hashlib.sha256(first).hexdigest()[:16]}"


def ingest_file(
    path: Path, ingestor: Ingestor, batch_size: int = 500, progress: Progress | None = None
) -> IngestSummary:
    """Ingest a JSON Lines file; a re-run resumes after the last line stored.

    A file with fewer lines than were already ingested from it was changed, and is
    refused (FileChangedError): what it held is in the store, and resuming would be a guess.
    A change that keeps the first line and the length is not seen here; the events'
    ids are: an edited event under a stored id is kept as ``event_id_reused``.
    """
    source = file_source(path)
    start = ingestor.resume_position(source)
    summary = IngestSummary()
    lines_read = 0

    def numbered(lines: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
        nonlocal lines_read
        for i, line in enumerate(lines):
            lines_read = i + 1
            if i >= start:
                yield i, line.rstrip(b"\r\n")

    with path.open("rb") as lines:
        for batch in _batches(numbered(lines), batch_size):
            messages = [to_checked(raw, f"{source}:{i + 1}") for i, raw in batch if raw.strip()]
            for message in messages:
                if isinstance(message, Rejected):
                    log.warning("rejected %s: %s", message.origin, message.reason)
            summary.add(len(messages), ingestor.record_batch(messages, source, batch[-1][0]))
            if progress:
                progress.update(summary)
    if lines_read < start:
        raise FileChangedError(
            f"{str(path)!r} has {lines_read:,} lines, but {start:,} were ingested from it: "
            "it was changed after it was ingested; the store keeps what it held, and nothing "
            "more is read from it"
        )
    return summary


class RecordLike(Protocol):
    """A Kafka record as the ingest needs it: where it came from and its value, and the key
    and headers a dead letter keeps. Read-only, so a frozen record is one."""

    @property
    def topic(self) -> str: ...
    @property
    def partition(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def key(self) -> bytes | None: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> Sequence[tuple[str, bytes | None]]: ...
    @property
    def address(self) -> str:
        """Return ``topic[partition]@offset``, the record's name in logs and dead letters."""
        ...


class DeadLetterSink(Protocol):
    """Where invalid messages go: ``send`` one, ``flush`` before the batch commits."""

    def send(self, record: RecordLike, reason: str) -> None:
        """Send one dead letter."""

    def flush(self) -> object:
        """Wait until every dead letter sent is acknowledged (what it returns is not read)."""


def source_name(topic: str, partition: int) -> str:
    """Return the tracking name of one Kafka partition, e.g. ``table-events[3]``."""
    return f"{topic}[{partition}]"


def split_source(source: str) -> tuple[str, int]:
    """Return the topic and partition a :func:`source_name` names.

    >>> split_source("table-events[3]")
    ('table-events', 3)
    """
    topic, _, partition = source.rpartition("[")
    return topic, int(partition.rstrip("]"))


def to_checked(raw: bytes, origin: str) -> Checked | Rejected:
    """Validate one message's bytes: what the store needs of the event, or why it was refused.

    It never raises for what a message holds: one message must not halt the ingest,
    which would stop at the same record again on every restart. A failure that is
    not a validation verdict is a defect of ours, so it is logged with its traceback,
    and the message is refused with the error as its reason: kept, never dropped.
    """
    try:
        return check(parse_arriving(raw), origin, raw)
    except InvalidEventError as error:
        return Rejected(raw, origin, str(error))
    except Exception as error:  # the message is kept as a rejection, its defect logged
        log.exception("validating %s failed unexpectedly; refusing it", origin)
        return Rejected(raw, origin, str(InvalidEventError(f"cannot be validated: {error!r}")))


@dataclass
class CheckedBatch:
    """One partition's share of a poll, validated: messages in offset order, and the refused."""

    source: str
    """The partition's tracking name, e.g. ``table-events[3]``."""
    last_offset: int
    messages: list[Message] = field(default_factory=list)
    refused: list[tuple[RecordLike, str]] = field(default_factory=list)
    """Each rejected record, whole, with its reason: what its dead letter carries."""


def check_records(records: Iterable[RecordLike]) -> list[CheckedBatch]:
    """Validate polled records, grouped into one batch per partition."""
    batches: dict[tuple[str, int], CheckedBatch] = {}
    for record in records:
        batch = batches.get((record.topic, record.partition))
        if batch is None:
            source = source_name(record.topic, record.partition)
            batch = batches[record.topic, record.partition] = CheckedBatch(source, record.offset)
        message = to_checked(record.value or b"", f"{batch.source}@{record.offset}")
        batch.messages.append(message)
        batch.last_offset = record.offset
        if isinstance(message, Rejected):
            batch.refused.append((record, message.reason))
    return list(batches.values())


def prepare_checked(
    batches: Iterable[CheckedBatch], ingestor: Ingestor, dead_letters: DeadLetterSink
) -> list[tuple[int, PreparedBatch]]:
    """Prepare validated partition batches for the store, together (one look-up for all);
    dead letters are sent (and flushed) here, before any of these batches can commit."""
    listed = list(batches)
    refused = [item for batch in listed for item in batch.refused]
    for record, reason in refused:
        log.warning("rejected %s[%d]@%d: %s", record.topic, record.partition, record.offset,
                    reason)  # fmt: skip
        dead_letters.send(record, reason)
    if refused:
        dead_letters.flush()  # before the commit: a crash now re-sends, never loses
    prepared = ingestor.prepare_all(
        [(batch.messages, batch.source, batch.last_offset) for batch in listed]
    )
    return [(len(batch.messages), each) for batch, each in zip(listed, prepared, strict=True)]


StopCheck = Callable[[], bool]
