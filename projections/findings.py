"""The findings projection: stored facts in, judged round by round, findings out, exactly once.

The shared machinery (projections/fact_projection.py) reads the store's facts after
the view's position and, on start, replays those already judged without writing, so
the judge's state (each table's context, rounds still open) is rebuilt and a
restart, or a rebuild from zero, gives the same findings.
"""

from __future__ import annotations

from typing import Any

from audit.events.envelope import Event
from audit.store.application import FactStore
from audit.verification.floor import FloorVerifier
from projections.fact_projection import FactProjection
from projections.findings_view import FindingsView, PostgresFindingsView, SQLiteFindingsView
from projections.rows_view import open_view

TRACKING_NAME = "findings<-tablewatch"
"""The view's name in the tracking table it shares with the store."""


def open_findings_view(store: FactStore) -> FindingsView:
    """Return the findings view in the store's own database, creating its table if need be."""
    return open_view(store, SQLiteFindingsView, PostgresFindingsView)  # type: ignore[no-any-return]


class FindingsProjection(FactProjection):
    """Keeps the findings view up to date with the store."""

    tracking_name = TRACKING_NAME

    def __init__(self, store: FactStore, view: FindingsView | None = None) -> None:
        self.verifier = FloorVerifier()  # before the warm-up, which feeds it
        super().__init__(store, view or open_findings_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Judge one fact; return the findings it completes, each with its position."""
        return [(finding, notification_id) for finding in self.verifier.feed(fact)]
