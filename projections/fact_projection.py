"""The shared machinery of every read model fed by the store's facts.

A projection reads the store's notification log after its view's recorded
position, turns facts into rows and writes rows and position in one transaction.
On start it replays the facts up to that position without writing, so its
in-memory state is as it was and a rebuild from zero gives the same rows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any

from eventsourcing.persistence import Tracking

from audit.events.catalogue import parse_event
from audit.events.envelope import Event
from audit.store.aggregates import FactRecorded
from audit.store.application import FactStore


class FactProjection(ABC):
    """Reads the store's facts after a view's position: warm-up, then catch-up in batches.

    Subclasses say what a fact does (``apply``, returning rows to write) and how
    rows and a position are written (``write``). Warm-up replays the facts up to
    the recorded position without writing, so state is as it was.
    """

    tracking_name: str
    keeps_state: bool = True
    """Whether ``apply`` depends on earlier facts; a view that does not skips the warm-up."""

    def __init__(self, store: FactStore, view: Any) -> None:
        self.store = store
        self.view = view
        self.position = 0
        recorded = self.view.max_tracking_id(self.tracking_name) or 0
        if recorded and self.keeps_state:
            for notification_id, fact in self._facts(1, stop=recorded):
                if fact is not None:
                    self.apply(fact, notification_id)
        self.position = recorded

    @abstractmethod
    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact; return the rows it completes."""

    def pending(self) -> list[tuple[Any, ...]]:
        """Return rows that are due at a batch's end, beside those ``apply`` returned."""
        return []

    def write(self, rows: list[tuple[Any, ...]], tracking: Tracking) -> None:
        """Write rows and the position in one transaction."""
        self.view.record(rows, tracking)

    def _facts(
        self, start: int, stop: int | None = None, batch: int = 2_000
    ) -> Iterator[tuple[int, Event | None]]:
        """Yield (notification id, fact as an event, or None for other stored events)."""
        recorder = self.store.process_recorder
        while True:
            notifications = recorder.select_notifications(start, batch, stop=stop)
            for notification in notifications:
                event = self.store.mapper.to_domain_event(notification)
                fact = parse_event(event.fact_json) if isinstance(event, FactRecorded) else None
                yield notification.id, fact
            if len(notifications) < batch:
                return
            start = notifications[-1].id + 1

    def catch_up(self, batch: int = 2_000) -> int:
        """Apply every fact stored since the view's position; return how many rows it wrote."""
        written = 0
        rows: list[tuple[Any, ...]] = []
        last = self.position
        for notification_id, fact in self._facts(self.position + 1):
            if fact is not None:
                rows += self.apply(fact, notification_id)
            last = notification_id
            if notification_id - self.position >= batch:
                written += self._write(rows, last)
                rows = []
        if last > self.position:
            written += self._write(rows, last)
        return written

    def _write(self, rows: list[tuple[Any, ...]], position: int) -> int:
        rows = rows + self.pending()
        self.write(rows, Tracking(self.tracking_name, position))
        self.position = position
        return len(rows)
