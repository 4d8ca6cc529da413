"""Record arriving messages as facts: sequencing, the hash chain, rejections, exactly once.

The :class:`Ingestor` is the one writer of a :class:`~audit.store.application.FactStore`.
It knows nothing of Kafka: a source is a name (``table-events[3]``, ``file:shift.jsonl``)
with increasing integer positions, and a batch is recorded with its last position
in one transaction. After a crash it rebuilds its state from the store and the
caller resumes from :meth:`Ingestor.resume_position`.
"""

from __future__ import annotations

import base64
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.store.aggregates import NAMESPACE, Round, Table, round_aggregate_id, table_day_id
from audit.store.application import FactStore
from audit.store.chain import GENESIS, digest, link
from audit.store.sequencing import TableSequence, decide, fact_json

_MAX_CACHED_AGGREGATES = 20_000
_RAW_KEPT_BYTES = 4_096
_ROUND_ENDS = {"round_completed"}


class Rejections(Aggregate):
    """Messages from one source that were not valid events, kept whatever the DLQ keeps."""

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

        def apply(self, aggregate: Any) -> None:
            aggregate.count += 1

    def __init__(self, source: str) -> None:
        self.source = source
        self.count = 0

    @staticmethod
    def create_id(source: str) -> uuid.UUID:
        return uuid.uuid5(NAMESPACE, f"rejections/{source}")

    def reject(self, origin: str, reason: str, raw: bytes) -> None:
        """Record one rejected message: why, and (the start of) its bytes."""
        self.trigger_event(
            self.MessageRejected,
            origin=origin,
            reason=reason,
            size=len(raw),
            raw_base64=base64.b64encode(raw[:_RAW_KEPT_BYTES]).decode(),
        )


register_topic(Rejections.MessageRejected.TOPIC, Rejections.MessageRejected)


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


Message = Accepted | Rejected


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
    """A batch ready to write: its events in chain order, and where it ends in its source."""

    source: str
    position: int
    events: list[Any] = field(default_factory=list)
    touched: dict[uuid.UUID, Aggregate] = field(default_factory=dict)
    result: BatchResult = field(default_factory=BatchResult)


@dataclass
class _TableState:
    sequence: TableSequence = field(default_factory=TableSequence)
    chain_head: str = GENESIS
    gaming_day: str | None = None


class Ingestor:
    """The single writer that turns messages into stored facts."""

    def __init__(self, store: FactStore) -> None:
        self.store = store
        self._tables: dict[str, _TableState] = {}
        self._aggregates: OrderedDict[uuid.UUID, Aggregate] = OrderedDict()
        self._round_ids: dict[tuple[str, str], uuid.UUID] = {}  # uuid5 per event is costly
        self._rebuild()

    def _rebuild(self) -> None:
        """Rebuild sequencing, chain heads and gaming days from the facts already stored."""
        self._tables.clear()
        self._aggregates.clear()
        for stored in self.store.facts():
            fact = stored.fact
            state = self._tables.setdefault(fact["table_id"], _TableState())
            state.sequence.remember(fact, digest(stored.fact_json))
            state.chain_head = stored.chain_hash
            if fact["type"] == TableOpened.type_name():
                state.gaming_day = fact["gaming_day"]

    def resume_position(self, source: str) -> int:
        """Return the first position of ``source`` not yet recorded (0 for a new source)."""
        last = self.store.position(source)
        return 0 if last is None else last + 1

    def record_batch(self, messages: Sequence[Message], source: str, position: int) -> BatchResult:
        """Record a batch of messages from ``source`` whose last position is ``position``.

        One transaction stores every new fact, every rejection and the position.
        On any failure nothing is stored and the in-memory state is rebuilt from
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
        and discard anything prepared since.
        """
        prepared = PreparedBatch(source, position)
        self._pending = prepared.events
        try:
            for message in messages:
                if isinstance(message, Rejected):
                    rejections = self._rejections(source)
                    rejections.reject(message.origin, message.reason, message.raw)
                    prepared.events.extend(rejections.collect_events())
                    prepared.result.rejected += 1
                    continue
                self._record_event(message, prepared.touched, prepared.result)
        except Exception:
            self.recover()
            raise
        self._forget_finished(prepared.touched.values())
        return prepared

    def commit(self, prepared: PreparedBatch) -> BatchResult:
        """Write a prepared batch and its position in one transaction (safe on another thread)."""
        prepared.result.written = self.store.write(
            prepared.events, prepared.source, prepared.position
        )
        return prepared.result

    def recover(self) -> None:
        """Forget everything not yet written: rebuild the state from the store."""
        self._rebuild()

    def _record_event(
        self, message: Accepted, touched: dict[uuid.UUID, Aggregate], result: BatchResult
    ) -> None:
        event = message.event
        state = self._tables.setdefault(event.table_id, _TableState())
        text = fact_json(event)
        decision = decide(state.sequence, event, text)
        if decision.duplicate:
            result.duplicates += 1
            return
        if isinstance(event, TableOpened):
            state.gaming_day = event.gaming_day.isoformat()
        for observation in decision.observations:
            observed = fact_json(observation)
            self._append(state, observation, observed, digest(observed), message.origin, touched)
            result.observations += 1
        if decision.store_event:
            self._append(state, event, text, decision.digest, message.origin, touched)
            result.stored += 1

    def _append(
        self,
        state: _TableState,
        event: Event,
        text: str,
        fact_digest: str,
        origin: str,
        touched: dict[uuid.UUID, Aggregate],
    ) -> None:
        aggregate = self._aggregate_for(state, event)
        chain_hash = link(state.chain_head, fact_digest)
        kind = event.type_name()
        aggregate.record(kind, text, origin, state.chain_head, chain_hash)  # type: ignore[attr-defined]
        self._pending.extend(aggregate.collect_events())
        state.chain_head = chain_hash
        touched[aggregate.id] = aggregate

    def _aggregate_for(self, state: _TableState, event: Event) -> Aggregate:
        if event.round_id is not None:
            key = (event.table_id, event.round_id)
            aggregate_id = self._round_ids.get(key) or self._round_ids.setdefault(
                key, round_aggregate_id(*key)
            )
            return self._cached(aggregate_id) or self._keep(
                Round(table_id=event.table_id, round_id=event.round_id)
            )
        # A table event before any table_opened falls on its UTC date's gaming day.
        gaming_day = state.gaming_day or event.occurred_at.date().isoformat()
        aggregate_id = table_day_id(event.table_id, gaming_day)
        return self._cached(aggregate_id) or self._keep(
            Table(table_id=event.table_id, gaming_day=gaming_day)
        )

    def _rejections(self, source: str) -> Rejections:
        aggregate_id = Rejections.create_id(source)
        found = self._cached(aggregate_id)
        return found or self._keep(Rejections(source=source))  # type: ignore[return-value]

    def _cached(self, aggregate_id: uuid.UUID) -> Aggregate | None:
        aggregate = self._aggregates.get(aggregate_id)
        if aggregate is not None:
            self._aggregates.move_to_end(aggregate_id)
            return aggregate
        try:
            aggregate = self.store.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None
        return self._keep(aggregate)

    def _keep(self, aggregate: Aggregate) -> Any:
        self._aggregates[aggregate.id] = aggregate
        while len(self._aggregates) > _MAX_CACHED_AGGREGATES:
            self._aggregates.popitem(last=False)
        return aggregate

    def _forget_finished(self, aggregates: Any) -> None:
        # A completed round takes no more facts in the normal course; a late one reloads it.
        for aggregate in list(aggregates):
            if isinstance(aggregate, Round) and aggregate.last_fact_type in _ROUND_ENDS:
                self._aggregates.pop(aggregate.id, None)
                self._round_ids.pop((aggregate.table_id, aggregate.round_id), None)
