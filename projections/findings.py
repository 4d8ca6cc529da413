"""The findings projection: stored facts in, judged round by round, findings out, exactly once.

The shared machinery (projections/fact_projection.py) reads the store's facts after
the view's position. The judge's state (each table's context, rounds still open, the
shift ledgers and the casino-wide slip series) is checkpointed whole with every write:
it does not start afresh with a gaming day (a table's tile set and bank rotation carry
over, an opener is judged against the prior day's closer, a slip is reused across
tables and days), so a restart loads it rather than replaying any day, and a restart,
or a rebuild from zero, gives the same findings.

The accounts it judges retire a gaming day's ledgers and slips a window after later days
open (:data:`~audit.accounting.reconcile.RETIRE_AFTER_DAYS`), so the state, and its
checkpoint, hold a window of days, not the history; a late record for a retired day is
judged ``ACC-LATE-RECORD`` (docs/history.md).

At each ``table_opened``, and at every :data:`~projections.replay_points.ROUNDS_BETWEEN`
th ``round_started`` of the table since, it also writes the table's state in its game's
verifier as it stood just before (``replay_contexts``, projections/replay_points.py): a
replay takes the table up at the last such point before its round and reads only the
facts since, so it costs a few rounds, not the table's day or history, and judges as
this projection did (``consumers/replay_cli.py``). The points of a gaming day leave with
the day when the accounts retire it, all but each table's first of the day, from which
an old round's replay reads its table's day (docs/history.md, "Replay points").
"""

from __future__ import annotations

from typing import Any

from audit.accounting.reconcile import RETIRE_AFTER_DAYS
from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.floor.verify import FloorVerifier
from audit.store.application import FactStore
from projections.checkpoint import dumps
from projections.fact_projection import FactProjection
from projections.findings_view import (
    FindingsView,
    PostgresFindingsView,
    PrunedPoints,
    ReplayContext,
    SQLiteFindingsView,
)
from projections.replay_points import ReplayPoints
from projections.rows_view import open_view

TRACKING_NAME = "findings<-tablewatch"
"""The view's name in the tracking table it shares with the store."""


def open_findings_view(store: FactStore) -> FindingsView:
    """Return the findings view in the store's own database, creating its table if need be."""
    return open_view(store, SQLiteFindingsView, PostgresFindingsView)


class FindingsProjection(FactProjection):
    """Keeps the findings view up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("findings", "replay_contexts")
    state_names = ("verifier", "points")
    retire_after_days: int | None = RETIRE_AFTER_DAYS
    """The accounts' retirement window (audit/accounting/reconcile.py, "Retirement")."""

    def __init__(self, store: FactStore, view: FindingsView | None = None) -> None:
        self.verifier = FloorVerifier(self.retire_after_days)
        self.points = ReplayPoints()
        super().__init__(store, view or open_findings_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Judge one fact; return the findings it completes, each with its position, and at a
        table's opening or a replay point its state before it (a :class:`ReplayContext`)."""
        rows: list[tuple[Any, ...]] = []
        if self.points.is_point(fact):
            game = self.verifier.game_after(fact)
            state = dumps({"table": self.verifier.table_state(fact.table_id, game)})
            day = self.points.days[fact.table_id]
            rows.append(ReplayContext(fact.table_id, notification_id, game, day, state))
        if not isinstance(fact, TableOpened):
            rows += [(finding, notification_id) for finding in self.verifier.feed(fact)]
            return rows
        accounts = self.verifier.accounts
        retired = accounts.retired_before
        rows += [(finding, notification_id) for finding in self.verifier.feed(fact)]
        cutoff = accounts.retired_before
        if cutoff is not None and cutoff != retired:  # days left the window: so do their points
            rows.append(PrunedPoints(retired or "", cutoff))
        return rows
