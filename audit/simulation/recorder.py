"""The recorder of one simulated table (of any game): a seeded ``event_id``, the next ``seq``
and a simulated clock that moves forward a few seconds per action."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

from audit.events.envelope import Event

EventT = TypeVar("EventT", bound=Event)


@dataclass
class Recorder:
    """Stamp one table's events: a seeded id, the next ``seq`` and the simulated clock."""

    table_id: str
    rng: random.Random
    now: datetime
    seq: int = 0
    events: list[Event] = field(default_factory=list)

    def wait(self, low: float, high: float) -> None:
        """Move the clock on by a random time from ``low`` to ``high`` seconds (1 ms at least)."""
        self.now += timedelta(milliseconds=max(1, round(self.rng.uniform(low, high) * 1000)))

    def emit(
        self,
        event_type: type[EventT],
        seconds: tuple[float, float],
        recorded_by: str,
        round_id: str | None = None,
        **fields: Any,
    ) -> EventT:
        """Record one event ``seconds`` after the previous one and return it."""
        self.wait(*seconds)
        event = event_type(
            event_id=UUID(int=self.rng.getrandbits(128), version=4),
            table_id=self.table_id,
            round_id=round_id,
            seq=self.seq,
            occurred_at=self.now,
            recorded_by=recorded_by,
            **fields,
        )
        self.seq += 1
        self.events.append(event)
        return event

    def drain(self) -> list[Event]:
        """Return the events recorded since the last drain, oldest first."""
        events, self.events = self.events, []
        return events
