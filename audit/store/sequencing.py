"""What the ingest records for each arriving event, judged against its table's history.

Pure: given a table's sequencing state and one validated event, decide whether
the event is stored and which further facts the ingest observed about it. It
never refuses a fact for breaking a rule:

- an exact repeat of an ``event_id`` (same content) is dropped, idempotently;
- a reused ``event_id`` with other content is kept, as an ``event_id_reused`` fact;
- a ``seq`` other than the next expected is stored and a ``sequence_gap_observed``
  fact records the gap or reorder.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from audit.events.catalogue import event_dict
from audit.events.envelope import Event
from audit.events.ingest import INGEST, EventIdReused, SequenceGapObserved
from audit.store.chain import digest

_OBSERVATION_NAMESPACE = uuid.UUID("3b0f3f7e-8f3c-4c8e-9d0a-6f1e2d3c4b5a")


@dataclass
class TableSequence:
    """One table's ingest state: the next ``seq`` it expects and the digests of its event ids."""

    next_seq: int = 0
    digests: dict[str, str] = field(default_factory=dict)

    def remember(self, fact: dict[str, Any], fact_digest: str) -> None:
        """Update the state for a fact already stored (used when rebuilding from the store)."""
        if fact.get("recorded_by") == INGEST:
            return
        self.digests.setdefault(fact["event_id"], fact_digest)
        self.next_seq = max(self.next_seq, fact["seq"] + 1)


def fact_json(event: Event) -> str:
    """Return an event's JSON text as stored: the catalogue's own serialisation."""
    return event.model_dump_json()


@dataclass(frozen=True)
class Decision:
    """What to store for one arriving event: the event itself (or not) and observed facts."""

    store_event: bool
    observations: tuple[Event, ...] = ()
    duplicate: bool = False
    digest: str = ""
    """The arriving fact's digest, computed once here for the chain link too."""


def _observation_id(event: Event, what: str) -> uuid.UUID:
    # Deterministic, so reprocessing the same input yields the same observation ids.
    return uuid.uuid5(
        _OBSERVATION_NAMESPACE, f"{what}/{event.table_id}/{event.event_id}/{event.seq}"
    )


def decide(state: TableSequence, event: Event, text: str | None = None) -> Decision:
    """Decide what to store for ``event`` (whose JSON text is ``text``) and update ``state``."""
    text = fact_json(event) if text is None else text
    fact_digest = digest(text)
    key = str(event.event_id)
    known = state.digests.get(key)
    if known == fact_digest:
        return Decision(store_event=False, duplicate=True)
    observations: list[Event] = []
    common = {
        "table_id": event.table_id,
        "occurred_at": event.occurred_at,
        "recorded_by": INGEST,
        "seq": event.seq,
    }
    if known is not None:
        observations.append(
            EventIdReused(
                event_id=_observation_id(event, "reused"),
                reused_event_id=event.event_id,
                first_digest=known,
                conflicting_digest=fact_digest,
                conflicting_event=event_dict(event),
                **common,
            )
        )
        # The reused id's seq still arrived: the next event should not look like a gap.
        state.next_seq = max(state.next_seq, event.seq + 1)
        return Decision(store_event=False, observations=tuple(observations))
    if event.seq != state.next_seq:
        observations.append(
            SequenceGapObserved(
                event_id=_observation_id(event, "gap"),
                expected_seq=state.next_seq,
                observed_seq=event.seq,
                observed_event_id=event.event_id,
                about_round_id=event.round_id,
                **common,
            )
        )
    state.digests[key] = fact_digest
    state.next_seq = max(state.next_seq, event.seq + 1)
    return Decision(store_event=True, observations=tuple(observations), digest=fact_digest)
