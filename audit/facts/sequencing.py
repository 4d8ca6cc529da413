"""What the ingest records for each arriving event, judged against its table's history.

Pure: given a table's sequencing state and one validated event, decide whether
the event is stored and which further facts the ingest observed about it. It
never refuses a fact for breaking a rule:

- an exact repeat of an ``event_id`` (same content) is dropped, idempotently;
- a reused ``event_id`` with other content is kept, as an ``event_id_reused`` fact;
- a ``seq`` other than the next expected is stored and a ``sequence_gap_observed``
  fact records the gap or reorder.

The judgement itself (:func:`judge_known`) needs only an event's ``seq``, its
digest and the digest first seen with its id, which the caller keeps (the ingest
in its database, an offline file in audit/verification/first_arrivals.py), so the
ingest can judge events validated in another process without rebuilding them; the
rare observed facts are built from the full event (:func:`observe`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypedDict

from audit.events.catalogue import event_dict, event_json
from audit.events.envelope import Event
from audit.events.ingest import INGEST, EventIdReused, SequenceGapObserved

_OBSERVATION_NAMESPACE = uuid.UUID("3b0f3f7e-8f3c-4c8e-9d0a-6f1e2d3c4b5a")


def fact_json(event: Event) -> str:
    """Return an event's JSON text as stored: the catalogue's own serialisation."""
    return event_json(event)


@dataclass(frozen=True)
class Judgement:
    """How one arriving event stands against its table's history."""

    store_event: bool
    duplicate: bool = False
    first_digest: str | None = None
    """For a reused ``event_id``: the digest of the content first seen with it."""
    expected_seq: int | None = None
    """For a gap or reorder: the ``seq`` that was expected instead."""

    @property
    def observed(self) -> bool:
        """Return whether the ingest records a fact of its own about this event."""
        return self.first_digest is not None or self.expected_seq is not None


IN_ORDER = Judgement(store_event=True)
DUPLICATE = Judgement(store_event=False, duplicate=True)


class Sequenced(Protocol):
    """Anything that holds a table's next expected ``seq``."""

    next_seq: int


def judge_known(state: Sequenced, known: str | None, seq: int, fact_digest: str) -> Judgement:
    """Judge an event given the digest first seen with its id (None if new); advance ``state``.

    For a caller that keeps the ids seen elsewhere (the ingest keeps them in its
    database).
    """
    if known is not None:
        if known == fact_digest:
            return DUPLICATE
        # The reused id's seq still arrived: the next event should not look like a gap.
        state.next_seq = max(state.next_seq, seq + 1)
        return Judgement(store_event=False, first_digest=known)
    expected = state.next_seq
    state.next_seq = max(expected, seq + 1)
    return IN_ORDER if seq == expected else Judgement(store_event=True, expected_seq=expected)


def _observation_id(event: Event, what: str) -> uuid.UUID:
    # Deterministic, so reprocessing the same input yields the same observation ids.
    return uuid.uuid5(
        _OBSERVATION_NAMESPACE, f"{what}/{event.table_id}/{event.event_id}/{event.seq}"
    )


class _Envelope(TypedDict):
    """The envelope an observation shares with the event it is about."""

    table_id: str
    occurred_at: datetime
    recorded_by: str
    seq: int


def observe(judgement: Judgement, event: Event, fact_digest: str) -> tuple[Event, ...]:
    """Return the facts the ingest records about ``event``, judged as ``judgement``."""
    common: _Envelope = {
        "table_id": event.table_id,
        "occurred_at": event.occurred_at,
        "recorded_by": INGEST,
        "seq": event.seq,
    }
    if judgement.first_digest is not None:
        reused = EventIdReused(
            event_id=_observation_id(event, "reused"),
            reused_event_id=event.event_id,
            first_digest=judgement.first_digest,
            conflicting_digest=fact_digest,
            conflicting_event=event_dict(event),
            schema_version=EventIdReused.SCHEMA_VERSION,
            **common,
        )
        return (reused,)
    if judgement.expected_seq is not None:
        gap = SequenceGapObserved(
            event_id=_observation_id(event, "gap"),
            expected_seq=judgement.expected_seq,
            observed_seq=event.seq,
            observed_event_id=event.event_id,
            about_round_id=event.round_id,
            schema_version=SequenceGapObserved.SCHEMA_VERSION,
            **common,
        )
        return (gap,)
    return ()
