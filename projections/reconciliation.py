"""The reconciliation read model: every table's shift ledger, kept current with the store.

The drop reconciliation (audit/accounting/reconcile.py) reads the stored facts in
order; at each batch's end the ledgers it changed are written, keyed by table,
gaming day and shift, with the view's position in the same transaction. Exactly
once, and a rebuild from zero writes the same ledgers. The reports read them.

State (every ledger, each table's current shift and last closer, the casino-wide slip
series) is checkpointed with every write (projections/fact_projection.py): a shift's
count arrives after its day, and a day's opener is judged against the prior closer.

A gaming day's ledgers are retired from the state a window after later days open
(:data:`~audit.accounting.reconcile.RETIRE_AFTER_DAYS`, 7 gaming days), once written:
the state and its checkpoint hold a window of days, whatever the history, and a retired
day's row stays as last written. A late count or slip for it is a fact judged
``ACC-LATE-RECORD`` by the findings projection, never folded into the closed row.

Caught up beside the findings projection (projections/together.py) at the same position,
it feeds no reconciler of its own: it borrows the one the findings' judge feeds
(:meth:`ReconciliationProjection.borrow`), so a rebuild reconciles each fact once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.accounting.reconcile import RETIRE_AFTER_DAYS, Reconciler
from audit.events.envelope import Event
from audit.store.application import FactStore
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.rows_view import RowsView, open_view

TRACKING_NAME = "reconciliation<-tablewatch"
_UPSERT = (
    "INSERT INTO shift_ledgers (table_id, gaming_day, shift, game, ledger) "
    "VALUES ({p}, {p}, {p}, {p}, {p}) "
    "ON CONFLICT (table_id, gaming_day, shift) DO UPDATE SET "
    "game = excluded.game, ledger = excluded.ledger"
)
_CREATE = (
    "CREATE TABLE IF NOT EXISTS shift_ledgers (table_id TEXT NOT NULL, gaming_day TEXT NOT NULL, "
    "shift TEXT NOT NULL, game TEXT NOT NULL, ledger TEXT NOT NULL, "
    "PRIMARY KEY (table_id, gaming_day, shift))"
)


class _Ledgers(RowsView):
    """What both databases' views share: the table, and the reads."""

    create_sql = _CREATE
    index_sql = ("CREATE INDEX IF NOT EXISTS shift_ledgers_day ON shift_ledgers (gaming_day)",)
    write_sql = _UPSERT

    def ledgers(self, gaming_day: str | None = None) -> list[dict[str, Any]]:
        """Return the stored ledgers (of one gaming day), as dicts."""
        where = "" if gaming_day is None else " WHERE gaming_day = {p}"
        rows = self.query(
            "SELECT ledger FROM shift_ledgers" + where + " ORDER BY table_id, gaming_day, shift",
            [] if gaming_day is None else [gaming_day],
        )
        return [json.loads(row[0]) for row in rows]


class SQLiteReconciliationView(_Ledgers, SQLiteTrackingRecorder):
    """The reconciliation view in the embedded SQLite store."""


class PostgresReconciliationView(_Ledgers, PostgresTrackingRecorder):
    """The reconciliation view in PostgreSQL."""

    placeholder = "%s"


ReconciliationView = SQLiteReconciliationView | PostgresReconciliationView


def open_reconciliation_view(store: FactStore) -> ReconciliationView:
    """Return the reconciliation view in the store's own database, creating it if need be."""
    return open_view(store, SQLiteReconciliationView, PostgresReconciliationView)


class ReconciliationProjection(FactProjection):
    """Keeps every shift ledger up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("shift_ledgers",)
    state_names = ("reconciler",)
    retire_after_days: int | None = RETIRE_AFTER_DAYS
    """Gaming days a day's ledgers are held after later days open (reconcile.py, "Retirement")."""

    def __init__(self, store: FactStore, view: ReconciliationView | None = None) -> None:
        self.reconciler = Reconciler(self.retire_after_days)
        self.lender: FindingsProjection | None = None
        """The findings projection whose judge's reconciler this one reads in a shared pass."""
        super().__init__(store, view or open_reconciliation_view(store))

    def warm_up(self) -> None:
        """Bring the ledgers to the view's position, then watch what changes (a checkpoint's
        reconciler watches nothing: the watch is this projection's, not the state)."""
        super().warm_up()
        self.reconciler.watch_changes()

    def borrow(self, others: Sequence[FactProjection]) -> bool:
        """Take the reconciler of a findings projection at this one's position and window.

        Its judge feeds every fact to it already; both reconcilers would hold the same state
        (the same facts in the same order, the same window), so reading its changes writes
        the ledgers this projection's own would, and the drop reconciliation runs once."""
        for other in others:
            if (
                isinstance(other, FindingsProjection)
                and other.position == self.position
                and other.verifier.accounts.retire_after_days == self.retire_after_days
            ):
                other.warm_up()
                self.reconciler, self.lender, self.warm = other.verifier.accounts, other, True
                self.reconciler.watch_changes()
                return True
        return False

    def give_back(self) -> None:
        """Stop reading the findings' reconciler: a later catch-up warms up a reconciler of its
        own from this view's checkpoint, which the shared one was written to."""
        if self.lender is None:
            return
        self.lender.verifier.accounts.watch_changes(False)
        self.reconciler, self.lender = Reconciler(self.retire_after_days), None
        self.warm = False

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact into the ledgers (the lender's judge has, if borrowed); rows are
        written at the batch's end."""
        if self.lender is None:
            self.reconciler.feed(fact)
        return []

    def pending(self) -> list[tuple[Any, ...]]:
        """Return a row for each ledger changed in this batch."""
        return [
            (k.table_id, k.gaming_day, k.shift, ledger.game, json.dumps(ledger.as_dict()))
            for ledger in self.reconciler.drain_changed()
            for k in (ledger.key,)
        ]
