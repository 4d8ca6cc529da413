"""The findings projection: stored facts in, judged round by round, findings out, exactly once.

It reads the store's notification log after the view's recorded position. The
judge's state (each table's context, rounds still open) is rebuilt on start by
replaying the facts up to that position without writing, so a restart, or a
rebuild from zero, gives the same findings.
"""

from __future__ import annotations

from collections.abc import Iterator

from eventsourcing.persistence import Tracking

from audit.events.catalogue import parse_event
from audit.events.envelope import Event
from audit.store.aggregates import FactRecorded
from audit.store.application import FactStore
from audit.verification.findings import Finding
from audit.verification.paigow.verify import StreamVerifier
from projections.findings_view import FindingsView, PostgresFindingsView, SQLiteFindingsView

TRACKING_NAME = "findings<-tablewatch"
"""The view's name in the tracking table it shares with the store."""


def open_findings_view(store: FactStore) -> FindingsView:
    """Return the findings view in the store's own database, creating its table if need be."""
    view_class = PostgresFindingsView if store.is_postgres else SQLiteFindingsView
    return store.factory.tracking_recorder(view_class)  # type: ignore[arg-type,return-value]


class FindingsProjection:
    """Keeps the findings view up to date with the store."""

    def __init__(self, store: FactStore, view: FindingsView | None = None) -> None:
        self.store = store
        self.view = view or open_findings_view(store)
        self.verifier = StreamVerifier()
        self.position = 0
        self._warm_up()

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

    def _warm_up(self) -> None:
        """Replay what the view already holds, so the judge's state is as it was."""
        recorded = self.view.max_tracking_id(TRACKING_NAME) or 0
        if recorded:
            for _, fact in self._facts(1, stop=recorded):
                if fact is not None:
                    self.verifier.feed(fact)
        self.position = recorded

    def catch_up(self, batch: int = 2_000) -> int:
        """Judge every fact stored since the view's position; return how many findings it wrote."""
        written = 0
        found: list[tuple[Finding, int]] = []
        last = self.position
        for notification_id, fact in self._facts(self.position + 1):
            if fact is not None:
                found += [(f, notification_id) for f in self.verifier.feed(fact)]
            last = notification_id
            if notification_id - self.position >= batch:
                written += self._write(found, last)
                found = []
        if last > self.position:
            written += self._write(found, last)
        return written

    def _write(self, found: list[tuple[Finding, int]], position: int) -> int:
        self.view.record(found, Tracking(TRACKING_NAME, position))
        self.position = position
        return len(found)
