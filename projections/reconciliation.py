"""The reconciliation read model: every table's shift ledger, kept current with the store.

The drop reconciliation (audit/accounting/reconcile.py) reads the stored facts in
order; at each batch's end the ledgers it changed are written, keyed by table,
gaming day and shift, with the view's position in the same transaction. Exactly
once, and a rebuild from zero writes the same ledgers. The reports read them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.accounting.reconcile import Reconciler
from audit.events.envelope import Event
from audit.store.application import FactStore
from projections.fact_projection import FactProjection

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
Row = tuple[str, str, str, str, str]


class _Ledgers:
    """What both databases' views share: the rows and the reads."""

    placeholder = "?"

    def record(self, rows: Sequence[Row], tracking: Tracking) -> None:
        """Upsert changed ledgers and write the view's position in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            if rows:
                cursor.executemany(_UPSERT.format(p=self.placeholder), list(rows))
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]

    def ledgers(self, gaming_day: str | None = None) -> list[dict[str, Any]]:
        """Return the stored ledgers (of one gaming day), as dicts."""
        query, params = "SELECT ledger FROM shift_ledgers", []
        if gaming_day is not None:
            query += f" WHERE gaming_day = {self.placeholder}"
            params.append(gaming_day)
        with self.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(query + " ORDER BY table_id, gaming_day, shift", params)
            rows = cursor.fetchall()
        return [json.loads(row["ledger"] if isinstance(row, dict) else row[0]) for row in rows]


class SQLiteReconciliationView(_Ledgers, SQLiteTrackingRecorder):
    """The reconciliation view in the embedded SQLite store."""

    def create_table(self) -> None:
        """Create the tracking table and the ledgers table."""
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_CREATE)


class PostgresReconciliationView(_Ledgers, PostgresTrackingRecorder):
    """The reconciliation view in PostgreSQL."""

    placeholder = "%s"

    def create_table(self) -> None:
        """Create the tracking table and the ledgers table."""
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_CREATE)


ReconciliationView = SQLiteReconciliationView | PostgresReconciliationView


def open_reconciliation_view(store: FactStore) -> ReconciliationView:
    """Return the reconciliation view in the store's own database, creating it if need be."""
    view_class = PostgresReconciliationView if store.is_postgres else SQLiteReconciliationView
    return store.factory.tracking_recorder(view_class)  # type: ignore[arg-type,return-value]


class ReconciliationProjection(FactProjection):
    """Keeps every shift ledger up to date with the store."""

    tracking_name = TRACKING_NAME

    def __init__(self, store: FactStore, view: ReconciliationView | None = None) -> None:
        self.reconciler = Reconciler()  # before the warm-up, which feeds it
        super().__init__(store, view or open_reconciliation_view(store))
        self.reconciler.drain_changed()  # warmed-up ledgers are already stored

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact into the ledgers; rows are written at the batch's end."""
        self.reconciler.feed(fact)
        return []

    def pending(self) -> list[tuple[Any, ...]]:
        """Return a row for each ledger changed in this batch."""
        return [
            (k.table_id, k.gaming_day, k.shift, ledger.game, json.dumps(ledger.as_dict()))
            for ledger in self.reconciler.drain_changed()
            for k in (ledger.key,)
        ]
