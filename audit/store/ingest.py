"""Record arriving messages as facts: sequencing, the hash chain, rejections, exactly once.

The :class:`Ingestor` is the one writer of a :class:`~audit.store.application.FactStore`.
It knows nothing of Kafka: a source is a name (``table-events[3]``, ``file:shift.jsonl#9f2c…``)
with increasing integer positions, and a batch is recorded with its last position
in one transaction. After a crash it reloads its state from the store and the
caller resumes from :meth:`Ingestor.resume_position`.

Why it is built the way it is (the ingest is CPU-bound, see ``bench/ingest.py``):

- A message arrives as :class:`Checked`: the event's stored JSON text, its digest
  and the handful of fields the store needs, all computed where it was validated,
  which may be another process (``consumers/validation.py``). :class:`Accepted`
  (a pydantic event) is turned into one here.
- The ingest keeps each aggregate's last version, not the aggregate: a
  ``FactRecorded`` is encoded straight to its stored form
  (``audit/store/encoding.py``). Only creations and rejections go through
  eventsourcing's aggregates and mapper; they are one in dozens of events.

Why its state lives in the database (``audit/store/ingest_state.py``), not in memory:

- Judging an event needs its table's whole history of event ids (a repeat from
  last month is still a repeat), and rebuilding that in memory meant reading
  every stored fact on every start and every :meth:`Ingestor.recover`, and
  holding every id forever. Each table's head (next ``seq``, chain head, gaming
  day) and each arriving id's digest are instead rows written in the batch's
  own transaction, so they can never disagree with the facts after a crash. A
  start, or a recovery, reads one row per table.
- Which of a poll's ids are stored, and which of its rounds exist, is one
  indexed query for all its partitions' batches (:meth:`Ingestor.prepare_all`);
  only a table's gaming day, or an aggregate the version cache dropped, costs a
  query of its own.
- The one thing that must be in memory is what the database cannot yet show:
  the ids and versions of batches prepared but not yet committed (one may be
  committing on another thread while the next is prepared). Those ids are kept
  until their batch is known committed, then dropped; versions stay in a
  bounded cache, far larger than the batches in flight.
- A store written before those tables existed has its facts read once, at the
  first start, to build them (:func:`~audit.store.ingest_state.migrate`).
  Dropping both tables does the same: the way back into step after an older
  version has written to the store.
"""

from __future__ import annotations

import base64
import hashlib
import uuid
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import register_topic

from audit.events.catalogue import parse_event
from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.facts.chain import (
    CHAIN_VERSION,
    GENESIS,
    LINK_RECEIVED,
    digest,
    fact_link,
    rejection_link,
)
from audit.facts.received import Received
from audit.facts.sequencing import IN_ORDER, fact_json, judge_known, observe
from audit.store.aggregates import NAMESPACE, Round, Table, round_aggregate_id, table_day_id
from audit.store.application import FactStore
from audit.store.encoding import fact_recorded, timestamp_now
from audit.store.ingest_state import StateChange, TableHead, migrate

_MAX_CACHED_VERSIONS = 20_000
_MAX_CACHED_ROUND_IDS = 20_000
"""Round aggregate ids kept worked out: a round never completed leaves its id here until the
cache is full and emptied, so it holds at most this many whatever the history (#16)."""
_RAW_KEPT_BYTES = 4_096
_ROUND_END = "round_completed"
_TABLE_OPENED = TableOpened.type_name()


class Rejections(Aggregate):
    """Messages from one source that were not valid events, kept whatever the DLQ keeps.

    Each rejection is chained to the source's previous one over every stored field
    (``audit/facts/chain.py``), as facts are per table; rejections stored before the
    chain have no link and leave the chain where it was.
    """

    TOPIC = "tablewatch:Rejections"

    class Created(Aggregate.Created):
        TOPIC = "tablewatch:Rejections.Created"
        source: str

    class MessageRejected(Aggregate.Event):
        TOPIC = "tablewatch:Rejections.MessageRejected"
        origin: str
        reason: str
        size: int
        raw_base64: str
        sha256: str = ""
        """The digest of the whole message (absent from rejections stored before it was kept)."""
        chain_prev: str = ""
        chain_hash: str = ""
        """The link in the source's rejection chain (empty before rejections were chained)."""

        def apply(self, aggregate: Any) -> None:
            aggregate.count += 1
            if self.chain_hash:
                aggregate.chain_head = self.chain_hash

    def __init__(self, source: str) -> None:
        self.source = source
        self.count = 0
        self.chain_head = GENESIS

    @staticmethod
    def create_id(source: str) -> uuid.UUID:
        return uuid.uuid5(NAMESPACE, f"rejections/{source}")

    def reject(self, origin: str, reason: str, raw: bytes) -> None:
        """Record one rejected message: why, (the start of) its bytes, and the digest of all."""
        event = rejection_after(self.id, self.version, self.chain_head, origin, reason, raw)
        self.trigger_event(
            self.MessageRejected,
            timestamp=event.timestamp,
            origin=origin,
            reason=reason,
            size=event.size,
            raw_base64=event.raw_base64,
            sha256=event.sha256,
            chain_prev=event.chain_prev,
            chain_hash=event.chain_hash,
        )


def rejection_after(
    rejections_id: uuid.UUID, version: int, chain_head: str, origin: str, reason: str, raw: bytes
) -> Rejections.MessageRejected:
    """Return the rejection that follows a source's rejections at ``version``, chained to
    ``chain_head``, without loading them (#16: a source's rejections are one stream, years
    long); saved, it collides with any other writer's at the same version."""
    timestamp = Rejections.MessageRejected.create_timestamp()
    raw_base64 = base64.b64encode(raw[:_RAW_KEPT_BYTES]).decode()
    raw_sha256 = hashlib.sha256(raw).hexdigest()
    chain_hash = rejection_link(
        chain_head, str(rejections_id), version + 1, timestamp.isoformat(), origin, reason,
        len(raw), raw_base64, raw_sha256,
    )  # fmt: skip
    # an event class's fields are made by eventsourcing's metaclass, unseen by mypy
    return Rejections.MessageRejected(  # type: ignore[call-arg]
        originator_id=rejections_id,
        originator_version=version + 1,
        timestamp=timestamp,
        origin=origin,
        reason=reason,
        size=len(raw),
        raw_base64=raw_base64,
        sha256=raw_sha256,
        chain_prev=chain_head,
        chain_hash=chain_hash,
    )


register_topic(Rejections.MessageRejected.TOPIC, Rejections.MessageRejected)


class Checked(NamedTuple):
    """A message that validated as an event, reduced to what the store needs.

    A tuple of strings and an int, so a batch of them crosses a process
    boundary cheaply; ``text`` is the event's JSON exactly as it will be stored.
    """

    origin: str
    text: str
    digest: str
    kind: str
    table_id: str
    round_id: str | None
    event_id: str
    seq: int
    day: str
    """The gaming day of a ``table_opened``; for any other event, its UTC date."""
    received: bytes | None = None
    """The message exactly as it arrived (None for an event handed over parsed)."""


def check(event: Event, origin: str, received: bytes | None = None) -> Checked:
    """Reduce a validated event to what the store needs, with the bytes it arrived as."""
    text = fact_json(event)
    if isinstance(event, TableOpened):
        day = event.gaming_day.isoformat()
    else:
        day = event.occurred_at.date().isoformat()
    return Checked(
        origin,
        text,
        digest(text),
        event.type_name(),
        event.table_id,
        event.round_id,
        str(event.event_id),
        event.seq,
        day,
        received,
    )


@dataclass(frozen=True)
class Accepted:
    """A message that validated as an event, with where it came from."""

    event: Event
    origin: str


@dataclass(frozen=True)
class Rejected:
    """A message that is not a valid event, with where it came from and why."""

    raw: bytes
    origin: str
    reason: str


Message = Checked | Accepted | Rejected
Batch = tuple[Sequence[Message], str, int]
"""A batch to prepare: its messages, its source and its last position there."""


def _checked(message: Message) -> Checked | Rejected:
    return check(message.event, message.origin) if isinstance(message, Accepted) else message


@dataclass
class BatchResult:
    """What one recorded batch did."""

    stored: int = 0
    duplicates: int = 0
    observations: int = 0
    rejected: int = 0
    written: int = 0


@dataclass
class PreparedBatch:
    """A batch ready to write: its stored events in chain order, and where it ends in its source."""

    source: str
    position: int
    events: list[StoredEvent] = field(default_factory=list)
    result: BatchResult = field(default_factory=BatchResult)
    state: StateChange = field(default_factory=StateChange)
    """The ingest state's change, committed with the events."""
    committed: bool = False


@dataclass
class _TableState:
    next_seq: int = 0
    chain_head: str = GENESIS
    gaming_day: str | None = None
    pending: dict[str, str] = field(default_factory=dict)
    """Event id -> digest of this table's events in batches not yet known committed."""


class Ingestor:
    """The single writer that turns messages into stored facts."""

    def __init__(self, store: FactStore) -> None:
        self.store = store
        self._state = store.ingest_state
        self._tables: dict[str, _TableState] = {}
        self._versions: OrderedDict[uuid.UUID, int] = OrderedDict()
        self._found_versions: dict[uuid.UUID, int | None] = {}  # the batch's look-up
        self._rejections: dict[str, tuple[int, str]] = {}
        """Each source's rejections as last prepared: their version and chain head."""
        self.rejections_read = 0
        """Stored rejections read to find a source's version and chain head."""
        self._round_ids: dict[tuple[str, str], uuid.UUID] = {}  # uuid5 per event is costly
        self._unsettled: deque[PreparedBatch] = deque()
        heads = self._state.heads()
        self.migrated_facts = 0
        """Facts read at start to build the state tables: 0 unless the store predates them."""
        if not heads:
            self.migrated_facts = migrate(self._state, store.facts())
            heads = self._state.heads()
        self._load(heads)

    @property
    def tables(self) -> int:
        """Return how many tables' state is held (one head each, whatever their history)."""
        return len(self._tables)

    @property
    def round_ids_held(self) -> int:
        """Return how many rounds' aggregate ids are kept worked out (at most a cache's)."""
        return len(self._round_ids)

    def _load(self, heads: list[TableHead]) -> None:
        """Forget everything not yet written and hold each table's head."""
        self._tables = {
            head.table_id: _TableState(head.next_seq, head.chain_head, head.gaming_day)
            for head in heads
        }
        self._versions.clear()
        self._found_versions.clear()
        self._rejections.clear()
        self._round_ids.clear()
        self._unsettled.clear()

    def resume_position(self, source: str) -> int:
        """Return the first position of ``source`` not yet recorded (0 for a new source)."""
        last = self.store.position(source)
        return 0 if last is None else last + 1

    def record_batch(self, messages: Sequence[Message], source: str, position: int) -> BatchResult:
        """Record a batch of messages from ``source`` whose last position is ``position``.

        One transaction stores every new fact, every rejection and the position.
        On any failure nothing is stored and the in-memory state is reloaded from
        the store, so the caller can retry from :meth:`resume_position`.
        """
        prepared = self.prepare(messages, source, position)
        try:
            return self.commit(prepared)
        except Exception:
            self.recover()
            raise

    def prepare(self, messages: Sequence[Message], source: str, position: int) -> PreparedBatch:
        """Turn a batch into events to write, advancing sequencing and chains as if written.

        Follow it with :meth:`commit`, in order. Batches may be prepared while the
        previous one is being committed; if a commit fails, call :meth:`recover`
        and discard anything prepared since. Every fact of a batch carries the
        same timestamp: the moment the ingest prepared it.
        """
        return self.prepare_all([(messages, source, position)])[0]

    def prepare_all(
        self, batches: Sequence[tuple[Sequence[Message], str, int]]
    ) -> list[PreparedBatch]:
        """Prepare several batches, each (messages, source, last position), as :meth:`prepare`.

        For one poll's partitions: one database look-up serves them all.
        """
        timestamp = timestamp_now()
        self._settle()
        prepared_all = []
        try:
            checked = [
                [
                    check(message.event, message.origin)
                    if isinstance(message, Accepted)
                    else message
                    for message in messages
                ]
                for messages, _, _ in batches
            ]
            known = self._look_up(checked)
            for batch, (_, source, position) in zip(checked, batches, strict=True):
                prepared = PreparedBatch(source, position)
                touched: dict[str, _TableState] = {}
                for message in batch:
                    if isinstance(message, Checked):
                        self._record(message, known, timestamp, prepared, touched)
                    else:
                        self._reject(message, source, prepared)
                prepared.state.heads = [
                    TableHead(table_id, state.next_seq, state.chain_head, state.gaming_day)
                    for table_id, state in touched.items()
                ]
                prepared_all.append(prepared)
        except Exception:
            self.recover()
            raise
        finally:
            self._found_versions.clear()
        self._unsettled.extend(prepared_all)
        return prepared_all

    def commit(self, prepared: PreparedBatch) -> BatchResult:
        """Write a prepared batch, its state and its position in one transaction.

        Safe on another thread: it only sets the batch's ``committed`` flag, which
        the next :meth:`prepare` reads.
        """
        prepared.result.written = self.store.write_stored(
            prepared.events, prepared.source, prepared.position, prepared.state
        )
        prepared.committed = True
        return prepared.result

    def recover(self) -> None:
        """Forget everything not yet written: reload each table's head from the store."""
        self._load(self._state.heads())

    def _settle(self) -> None:
        """Drop the ids of batches now committed: the database answers for them from here on."""
        unsettled = self._unsettled
        while unsettled and unsettled[0].committed:
            batch = unsettled.popleft()
            if not unsettled:
                for state in self._tables.values():  # the usual case, and the cheap one
                    state.pending.clear()
                return
            for event_id, table_id, _ in batch.state.event_ids:
                self._tables[table_id].pending.pop(event_id, None)

    def _look_up(self, batches: list[list[Checked | Rejected]]) -> dict[tuple[str, str], str]:
        """Read, in one query, which of the batches' ids are stored and which rounds exist.

        Return the digest stored with each (table, event id) that has one.
        """
        checked = [
            message for batch in batches for message in batch if isinstance(message, Checked)
        ]
        event_ids = [(message.event_id, message.table_id) for message in checked]
        rounds = {
            (message.table_id, message.round_id)
            for message in checked
            if message.round_id is not None
        }
        aggregate_ids = []
        for key in rounds:
            aggregate_id = self._round_aggregate(key)
            if aggregate_id not in self._versions:
                aggregate_ids.append(aggregate_id)
        if not event_ids and not aggregate_ids:
            return {}
        found = self._state.look_up(event_ids, aggregate_ids)
        self._found_versions = {each: found.versions.get(each) for each in aggregate_ids}
        return found.digests

    def _reject(self, message: Rejected, source: str, prepared: PreparedBatch) -> None:
        head = self._rejections.get(source)
        if head is None:
            head = self._rejections_head(source)
        version, chain_head = head
        if version == 0:  # the source's first rejection creates its stream
            rejections = Rejections(source=source)
            rejections.reject(message.origin, message.reason, message.raw)
            events: list[Any] = list(rejections.collect_events())
            self._rejections[source] = (rejections.version, rejections.chain_head)
        else:
            event = rejection_after(Rejections.create_id(source), version, chain_head,
                                    message.origin, message.reason, message.raw)  # fmt: skip
            events = [event]
            self._rejections[source] = (event.originator_version, event.chain_hash)
        prepared.events.extend(map(self.store.mapper.to_stored_event, events))
        prepared.result.rejected += 1

    def _rejections_head(self, source: str) -> tuple[int, str]:
        """Return a source's stored rejections' version and chain head (0 and GENESIS for a
        new source), read from its newest rejection, not by loading them all; a rejection
        stored before the chain (no link) is passed over to the newest linked one."""
        rejections_id = Rejections.create_id(source)
        version, below, page = 0, None, 1  # the newest alone first: linked, but in old stores
        while True:
            newest = list(self.store.events.get(rejections_id, desc=True, lte=below, limit=page))
            self.rejections_read += len(newest)
            for event in newest:
                version = version or event.originator_version
                link: str = getattr(event, "chain_hash", "")
                if link:
                    return version, link
            if len(newest) < page:
                return version, GENESIS
            below, page = newest[-1].originator_version - 1, 50

    def _record(
        self,
        checked: Checked,
        known: dict[tuple[str, str], str],
        timestamp: str,
        prepared: PreparedBatch,
        touched: dict[str, _TableState],
    ) -> None:
        table_id = checked.table_id
        state = self._tables.get(table_id)
        if state is None:
            state = self._tables[table_id] = _TableState()
        touched[table_id] = state
        event_id = checked.event_id
        first_digest = state.pending.get(event_id)
        if first_digest is None and known:
            first_digest = known.get((table_id, event_id))
        judgement = judge_known(state, first_digest, checked.seq, checked.digest)
        if judgement.duplicate:
            prepared.result.duplicates += 1
            return
        if first_digest is None:
            state.pending[event_id] = checked.digest
            prepared.state.event_ids.append((event_id, table_id, checked.digest))
        if checked.kind == _TABLE_OPENED:
            state.gaming_day = checked.day
        if judgement is not IN_ORDER:
            # Rare: a gap, a reorder or a reused id. The observed facts need the full event.
            for observation in observe(judgement, parse_event(checked.text), checked.digest):
                observed = check(observation, checked.origin)
                if not judgement.store_event:
                    # A reused id's message is stored only in this observation: its bytes
                    # go with it, filed under the id they arrived with.
                    observed = observed._replace(
                        received=checked.received, event_id=checked.event_id
                    )
                self._append(state, observed, timestamp, prepared)
                prepared.result.observations += 1
        if judgement.store_event:
            self._append(state, checked, timestamp, prepared)
            prepared.result.stored += 1

    def _append(
        self, state: _TableState, fact: Checked, timestamp: str, prepared: PreparedBatch
    ) -> None:
        aggregate_id, version = self._next_version(state, fact, prepared.events)
        received_digest = None
        if fact.received is not None:
            received_digest = hashlib.sha256(fact.received).hexdigest()
            prepared.state.received.append(
                Received(aggregate_id, version, fact.event_id, fact.received)
            )
        chain_hash = fact_link(
            state.chain_head, str(aggregate_id), version, timestamp, fact.kind, fact.origin,
            fact.digest, received_digest,
        )  # fmt: skip
        prepared.events.append(
            fact_recorded(
                aggregate_id,
                version,
                timestamp,
                fact.kind,
                fact.text,
                fact.origin,
                state.chain_head,
                chain_hash,
                CHAIN_VERSION if received_digest is None else LINK_RECEIVED,
            )
        )
        state.chain_head = chain_hash
        if fact.kind == _ROUND_END and fact.round_id is not None:
            # A completed round takes no more facts in the normal course: forget its id (a late
            # fact computes it again). Its version stays until evicted, so a late fact in the
            # same or the next batch, not yet committed, still gets the right one.
            self._round_ids.pop((fact.table_id, fact.round_id), None)

    def _round_aggregate(self, key: tuple[str, str]) -> uuid.UUID:
        """Return a round's aggregate id, worked out once while it is cached."""
        aggregate_id = self._round_ids.get(key)
        if aggregate_id is None:
            if len(self._round_ids) >= _MAX_CACHED_ROUND_IDS:
                self._round_ids.clear()  # a cache of uuid5s: any id is worked out again
            aggregate_id = self._round_ids[key] = round_aggregate_id(*key)
        return aggregate_id

    def _next_version(
        self, state: _TableState, fact: Checked, events: list[StoredEvent]
    ) -> tuple[uuid.UUID, int]:
        """Return the aggregate a fact belongs to and its next version, creating it if new."""
        if fact.round_id is not None:
            aggregate_id = self._round_aggregate((fact.table_id, fact.round_id))
        else:
            # A table event before any table_opened falls on its UTC date's gaming day.
            gaming_day = state.gaming_day or fact.day
            aggregate_id = table_day_id(fact.table_id, gaming_day)
        versions = self._versions
        last = versions.get(aggregate_id)
        if last is not None:
            versions.move_to_end(aggregate_id)
        elif aggregate_id in self._found_versions:
            last = self._found_versions.pop(aggregate_id)
        else:
            last = self._stored_version(aggregate_id)
        if last is None:
            created: Aggregate
            if fact.round_id is not None:
                created = Round(table_id=fact.table_id, round_id=fact.round_id)
            else:
                created = Table(table_id=fact.table_id, gaming_day=gaming_day)
            events.extend(map(self.store.mapper.to_stored_event, created.collect_events()))
            last = created.version
        versions[aggregate_id] = last + 1
        while len(versions) > _MAX_CACHED_VERSIONS:
            versions.popitem(last=False)
        return aggregate_id, last + 1

    def _stored_version(self, aggregate_id: uuid.UUID) -> int | None:
        """Return an aggregate's last stored version (None if it has none).

        Only for an aggregate neither in the version cache nor in the batch's
        look-up (a table's gaming day, mostly): the cache holds far more
        aggregates than the batches in flight touch, so this one has nothing
        waiting to be committed.
        """
        newest = self.store.process_recorder.select_events(aggregate_id, desc=True, limit=1)
        return newest[0].originator_version if newest else None
