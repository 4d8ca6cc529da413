"""Facts the ingest itself observes about the stream: gaps, reorders, reused ids.

They are stored beside the table's events, with ``recorded_by`` naming the
ingest, and judged by the projections like any other fact.
"""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import Field

from audit.events.envelope import RoundId, TableEvent, event

INGEST = "tablewatch-ingest"


@event
class SequenceGapObserved(TableEvent):
    """An event arrived with a ``seq`` other than the next one expected for its table."""

    type: Literal["sequence_gap_observed"] = "sequence_gap_observed"
    expected_seq: int = Field(ge=0)
    observed_seq: int = Field(ge=0)
    observed_event_id: UUID
    about_round_id: RoundId | None = None


@event
class EventIdReused(TableEvent):
    """An ``event_id`` arrived again with different content: both versions are kept."""

    type: Literal["event_id_reused"] = "event_id_reused"
    reused_event_id: UUID
    first_digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    conflicting_digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    conflicting_event: dict[str, object]


INGEST_EVENTS: tuple[type[TableEvent], ...] = (SequenceGapObserved, EventIdReused)
"""The types only the ingest records; a producer sending one is refused."""
