"""The round index: which table each round was played at, so a replay finds its round at once.

One row per (round, table) from each ``round_started``, written with the view's
position, exactly once. A round id is only unique at its table, so a round id may
have several rows; ``tablewatch replay`` then asks which table. A round recorded
without its ``round_started`` is not indexed, and the replay falls back to reading
the store.

Stateless, so never checkpointed: a restart reads only the facts after its position.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from projections.fact_projection import FactProjection
from projections.rows_view import RowsView, open_view

TRACKING_NAME = "round_index<-tablewatch"
_CREATE = (
    "CREATE TABLE IF NOT EXISTS round_index (round_id TEXT NOT NULL, table_id TEXT NOT NULL, "
    "PRIMARY KEY (round_id, table_id))"
)
_INSERT = "INSERT INTO round_index (round_id, table_id) VALUES ({p}, {p}) ON CONFLICT DO NOTHING"


class _Rounds(RowsView):
    """What both databases' views share: the table, and the read."""

    create_sql = _CREATE
    write_sql = _INSERT

    def tables_of(self, round_id: str) -> list[str]:
        """Return the tables a round of this id was started at."""
        rows = self.query("SELECT table_id FROM round_index WHERE round_id = {p}", [round_id])
        return sorted(row[0] for row in rows)


class SQLiteRoundIndexView(_Rounds, SQLiteTrackingRecorder):
    """The round index in the embedded SQLite store."""


class PostgresRoundIndexView(_Rounds, PostgresTrackingRecorder):
    """The round index in PostgreSQL."""

    placeholder = "%s"


RoundIndexView = SQLiteRoundIndexView | PostgresRoundIndexView


def open_round_index_view(store: FactStore) -> RoundIndexView:
    """Return the round index in the store's own database, creating it if need be."""
    return open_view(store, SQLiteRoundIndexView, PostgresRoundIndexView)  # type: ignore[no-any-return]


class RoundIndexProjection(FactProjection):
    """Keeps the round index up to date with the store."""

    tracking_name = TRACKING_NAME  # no state: a round's row needs only its own round_started

    def __init__(self, store: FactStore, view: RoundIndexView | None = None) -> None:
        super().__init__(store, view or open_round_index_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Index a round as it starts."""
        if fact.round_id is not None and fact.type_name() == "round_started":
            return [(fact.round_id, fact.table_id)]
        return []
