"""The round index: which table each round was played at, so a replay finds its round at once.

One row per (round, table) from each ``round_started``, written with the view's
position, exactly once. A round id is only unique at its table, so a round id may
have several rows; ``tablewatch replay`` then asks which table. A round recorded
without its ``round_started`` is not indexed, and the replay falls back to reading
the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from projections.fact_projection import FactProjection

TRACKING_NAME = "round_index<-tablewatch"
_CREATE = (
    "CREATE TABLE IF NOT EXISTS round_index (round_id TEXT NOT NULL, table_id TEXT NOT NULL, "
    "PRIMARY KEY (round_id, table_id))"
)
_INSERT = "INSERT INTO round_index (round_id, table_id) VALUES ({p}, {p}) ON CONFLICT DO NOTHING"


class _Rounds:
    """What both databases' views share."""

    placeholder = "?"

    def record(self, rows: Sequence[tuple[Any, ...]], tracking: Tracking) -> None:
        """Write the rounds started and the view's position in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            if rows:
                cursor.executemany(_INSERT.format(p=self.placeholder), list(rows))
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]

    def tables_of(self, round_id: str) -> list[str]:
        """Return the tables a round of this id was started at."""
        query = f"SELECT table_id FROM round_index WHERE round_id = {self.placeholder}"
        with self.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(query, [round_id])
            rows = cursor.fetchall()
        return sorted(row["table_id"] if isinstance(row, dict) else row[0] for row in rows)


class SQLiteRoundIndexView(_Rounds, SQLiteTrackingRecorder):
    """The round index in the embedded SQLite store."""

    def create_table(self) -> None:
        """Create the tracking table and the index."""
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_CREATE)


class PostgresRoundIndexView(_Rounds, PostgresTrackingRecorder):
    """The round index in PostgreSQL."""

    placeholder = "%s"

    def create_table(self) -> None:
        """Create the tracking table and the index."""
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_CREATE)


RoundIndexView = SQLiteRoundIndexView | PostgresRoundIndexView


def open_round_index_view(store: FactStore) -> RoundIndexView:
    """Return the round index in the store's own database, creating it if need be."""
    view_class = PostgresRoundIndexView if store.is_postgres else SQLiteRoundIndexView
    return store.factory.tracking_recorder(view_class)  # type: ignore[arg-type,return-value]


class RoundIndexProjection(FactProjection):
    """Keeps the round index up to date with the store."""

    tracking_name = TRACKING_NAME
    keeps_state = False  # a round's row needs only its own round_started

    def __init__(self, store: FactStore, view: RoundIndexView | None = None) -> None:
        super().__init__(store, view or open_round_index_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Index a round as it starts."""
        if fact.round_id is not None and fact.type_name() == "round_started":
            return [(fact.round_id, fact.table_id)]
        return []
