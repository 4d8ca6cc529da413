"""The findings projection: stored facts in, judged round by round, findings out, exactly once.

The shared machinery (projections/fact_projection.py) reads the store's facts after
the view's position. The judge's state (each table's context, rounds still open, the
shift ledgers and the casino-wide slip series) is checkpointed whole with every write:
it does not start afresh with a gaming day (a table's tile set and bank rotation carry
over, an opener is judged against the prior day's closer, a slip is reused across
tables and days), so a restart loads it rather than replaying any day, and a restart,
or a rebuild from zero, gives the same findings.
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
    state_names = ("verifier",)

    def __init__(self, store: FactStore, view: FindingsView | None = None) -> None:
        self.verifier = FloorVerifier()
        super().__init__(store, view or open_findings_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Judge one fact; return the findings it completes, each with its position."""
        return [(finding, notification_id) for finding in self.verifier.feed(fact)]
