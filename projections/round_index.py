"""The round index: where each round was played, and in which of its table's gaming days.

One row per (round, table, context) for every round fact, written with the view's
position, exactly once. A round's *context* is the notification id of its table's
last replay point at or before the fact (projections/replay_points.py: its last
``table_opened``, or a ``round_started`` every few rounds since; 0 before the table
ever opened): the point from which a replay reads the table
(``consumers/replay_cli.py``), where the findings projection keeps the table's
verification state (``replay_contexts``). A round usually has one row; one straddling
a point (its table's reopening, or a later round's start that is a point), or with a
fact recorded after it, has one per context it has facts in. A round id is only unique
at its table, so a round id may have rows at several tables; ``tablewatch replay``
then asks which table.

Every round fact is indexed, not only ``round_started``: a round recorded without
its start is found too, and the replay reads exactly the rounds of a context, so
none need be looked for by scanning the store.

State: each table's last point, and the rounds since, checkpointed (numbers per table). The rows
were once keyed by (round, table) alone, in a table ``round_index``; this one is
``round_contexts`` under its own tracking name, so an older store's index is built
anew, once, on the first catch-up (it reads every fact once), and the old table is
left as it was.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from projections.fact_projection import FactProjection
from projections.replay_points import ReplayPoints
from projections.rows_view import RowsView, open_view

TRACKING_NAME = "round_contexts<-tablewatch"
_CREATE = (
    "CREATE TABLE IF NOT EXISTS round_contexts (round_id TEXT NOT NULL, table_id TEXT NOT NULL, "
    "context BIGINT NOT NULL, PRIMARY KEY (round_id, table_id, context))"
)
_INSERT = (
    "INSERT INTO round_contexts (round_id, table_id, context) VALUES ({p}, {p}, {p}) "
    "ON CONFLICT DO NOTHING"
)


class _Rounds(RowsView):
    """What both databases' views share: the table, and the reads."""

    create_sql = _CREATE
    index_sql = (
        "CREATE INDEX IF NOT EXISTS round_contexts_table ON round_contexts (table_id, context)",
    )
    write_sql = _INSERT

    def tables_of(self, round_id: str) -> list[str]:
        """Return the tables a round of this id was recorded at."""
        rows = self.query(
            "SELECT DISTINCT table_id FROM round_contexts WHERE round_id = {p}", [round_id]
        )
        return sorted(row[0] for row in rows)

    def contexts_of(self, table_id: str, round_id: str) -> list[int]:
        """Return the contexts (openings' positions) a round has facts in, in stored order."""
        rows = self.query(
            "SELECT context FROM round_contexts WHERE round_id = {p} AND table_id = {p}",
            [round_id, table_id],
        )
        return sorted(int(row[0]) for row in rows)

    def rounds_in(self, table_id: str, first: int, last: int) -> list[str]:
        """Return the rounds with facts at a table in the contexts from ``first`` to ``last``."""
        rows = self.query(
            "SELECT DISTINCT round_id FROM round_contexts "
            "WHERE table_id = {p} AND context >= {p} AND context <= {p}",
            [table_id, first, last],
        )
        return sorted(row[0] for row in rows)


class SQLiteRoundIndexView(_Rounds, SQLiteTrackingRecorder):
    """The round index in the embedded SQLite store."""


class PostgresRoundIndexView(_Rounds, PostgresTrackingRecorder):
    """The round index in PostgreSQL."""

    placeholder = "%s"


RoundIndexView = SQLiteRoundIndexView | PostgresRoundIndexView


def open_round_index_view(store: FactStore) -> RoundIndexView:
    """Return the round index in the store's own database, creating it if need be."""
    return open_view(store, SQLiteRoundIndexView, PostgresRoundIndexView)


class RoundIndexProjection(FactProjection):
    """Keeps the round index up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("round_contexts",)
    state_names = ("openings", "points")

    def __init__(self, store: FactStore, view: RoundIndexView | None = None) -> None:
        self.openings: dict[str, int] = {}
        """Table -> the notification id of its last replay point (its context)."""
        self.points = ReplayPoints()
        self._last: dict[str, tuple[str, int]] = {}
        # Each table's last row written: a round's facts mostly come together, so one row
        # per round, not per fact, reaches the database (a repeat would be ignored there).
        super().__init__(store, view or open_round_index_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Index a round in its table's current context; note a table's replay point."""
        table_id = fact.table_id
        if self.points.is_point(fact):
            self.openings[table_id] = notification_id
        if fact.round_id is None:
            return []
        key = (fact.round_id, self.openings.get(table_id, 0))
        if self._last.get(table_id) == key:
            return []
        self._last[table_id] = key
        return [(fact.round_id, table_id, key[1])]
