"""The dice and equipment read model: every screened window as it closed, and every tenure.

:class:`~audit.verification.equipment.EquipmentScreens` reads the store's facts; each
window it closes (a dice set, a table's gaming day, a dealer's gaming day, a shoe) is
written once with its counts, each cell's expected count, and its pooled chi-squared
test, and each tile set, dice set or shoe taken out of play with its tenure. The rows
are the evidence behind the ``STAT-*`` findings (which the findings view holds, judged
at the default confidence) and what ``tablewatch equipment`` reads at any confidence.
Windows still open are not here: they are judged when they close.

State (the open windows' counts and each table's equipment in play) is checkpointed
with every write (projections/fact_projection.py): flat in history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from audit.verification.equipment import EquipmentScreens, Tenure, Window, WindowResult
from projections.checkpoint import Checkpoint
from projections.fact_projection import FactProjection
from projections.rows_view import RowsView, open_view

TRACKING_NAME = "equipment-stats<-tablewatch"
"""The view's name in the tracking table it shares with the store."""

WINDOW_COLUMNS = (
    "screen", "subject", "table_id", "dealer_id", "gaming_day", "rule", "labels", "counts",
    "expected", "first_event", "last_event", "opened_at", "closed_at", "notification_id",
)  # fmt: skip
TENURE_COLUMNS = (
    "equipment", "table_id", "item", "gaming_day", "since", "until", "rounds", "minutes",
    "ended_by", "notification_id",
)  # fmt: skip
_CREATE_WINDOWS = (
    "CREATE TABLE IF NOT EXISTS equipment_windows (screen TEXT NOT NULL, subject TEXT NOT NULL, "
    "table_id TEXT NOT NULL, dealer_id TEXT, gaming_day TEXT, rule TEXT NOT NULL, "
    "labels TEXT NOT NULL, counts TEXT NOT NULL, expected TEXT NOT NULL, "
    "first_event TEXT NOT NULL, last_event TEXT NOT NULL, opened_at TEXT, closed_at TEXT, "
    "notification_id BIGINT NOT NULL, PRIMARY KEY (screen, first_event))"
)
_CREATE_TENURE = (
    "CREATE TABLE IF NOT EXISTS equipment_tenure (equipment TEXT NOT NULL, "
    "table_id TEXT NOT NULL, item TEXT NOT NULL, gaming_day TEXT, since TEXT NOT NULL, "
    "until TEXT NOT NULL, rounds INTEGER NOT NULL, minutes DOUBLE PRECISION NOT NULL, "
    "ended_by TEXT NOT NULL, notification_id BIGINT NOT NULL, "
    "PRIMARY KEY (equipment, table_id, item, since))"
)


def _insert(table: str, columns: Sequence[str], key: str) -> str:
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['{p}'] * len(columns))}) "
        f"ON CONFLICT ({key}) DO NOTHING"
    )


_WRITE_WINDOW = _insert("equipment_windows", WINDOW_COLUMNS, "screen, first_event")
_WRITE_TENURE = _insert("equipment_tenure", TENURE_COLUMNS, "equipment, table_id, item, since")


def window_row(result: WindowResult, notification_id: int) -> tuple[Any, ...]:
    """Return a closed window as a row (the cells as JSON)."""
    w = result.window
    return ("window", w.screen, w.subject, w.table_id, w.dealer_id, w.gaming_day, w.rule,
            json.dumps(w.labels), json.dumps(w.counts), json.dumps(w.expected), w.first_event,
            w.last_event, w.opened_at, w.closed_at, notification_id)  # fmt: skip


def tenure_row(tenure: Tenure, notification_id: int) -> tuple[Any, ...]:
    """Return a tenure as a row."""
    t = tenure
    return ("tenure", t.equipment, t.table_id, t.item, t.gaming_day, t.since, t.until,
            t.rounds, t.minutes, t.ended_by, notification_id)  # fmt: skip


def window_of(row: Sequence[Any]) -> Window:
    """Return a stored window row (``WINDOW_COLUMNS``) as the screen's window."""
    found = dict(zip(WINDOW_COLUMNS, row, strict=True))
    return Window(
        found["screen"], found["subject"], found["table_id"], found["dealer_id"],
        found["gaming_day"], found["rule"], tuple(json.loads(found["labels"])),
        json.loads(found["counts"]), json.loads(found["expected"]), found["first_event"],
        found["last_event"], found["opened_at"], found["closed_at"],
    )  # fmt: skip


class _EquipmentTables(RowsView):
    """What both databases' views share: two tables, written and read."""

    create_sql = _CREATE_WINDOWS
    index_sql = (
        # A gaming day's windows and tenures (#16: the day asked for, not every day stored).
        "CREATE INDEX IF NOT EXISTS equipment_windows_day ON equipment_windows "
        "(gaming_day, notification_id)",
        "CREATE INDEX IF NOT EXISTS equipment_windows_table ON equipment_windows "
        "(table_id, notification_id)",
    )
    write_sql = _WRITE_WINDOW

    def create_table(self) -> None:
        """Create the tracking table, the windows' table and the tenures' table."""
        super().create_table()
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(_CREATE_TENURE)
            cursor.execute(
                "CREATE INDEX IF NOT EXISTS equipment_tenure_day ON equipment_tenure "
                "(gaming_day, table_id, since)"
            )

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write window and tenure rows, the position and the checkpoint in one transaction."""
        p = self.placeholder
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            for kind, sql in (("window", _WRITE_WINDOW), ("tenure", _WRITE_TENURE)):
                mine = [row[1:] for row in rows if row[0] == kind]
                if mine:
                    cursor.executemany(sql.format(p=p), mine)
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)

    def windows(
        self, confidence: float, *, gaming_day: str | None = None, table_id: str | None = None
    ) -> list[WindowResult]:
        """Return the closed windows (of a gaming day, of a table, if given) with their tests
        at ``confidence``, in the order closed."""
        where, params = _narrowed(gaming_day, table_id)
        rows = self.query(
            f"SELECT {', '.join(WINDOW_COLUMNS[:-1])} FROM equipment_windows{where} "
            "ORDER BY notification_id, screen, subject",
            params,
        )
        results = []
        for row in rows:
            window = window_of((*row, 0))
            results.append(WindowResult(window, window.test(), confidence))
        return results

    def tenures(
        self, *, gaming_day: str | None = None, table_id: str | None = None
    ) -> list[Tenure]:
        """Return the tenures (of a gaming day, of a table, if given), by table and start."""
        where, params = _narrowed(gaming_day, table_id)
        rows = self.query(
            f"SELECT {', '.join(TENURE_COLUMNS[:-1])} FROM equipment_tenure{where} "
            "ORDER BY table_id, since, equipment",
            params,
        )
        return [Tenure(*row) for row in rows]


def _narrowed(gaming_day: str | None, table_id: str | None) -> tuple[str, list[str]]:
    """Return a WHERE clause (``{p}`` placeholders) for a gaming day and a table, each if given:
    a window and a tenure belong to the gaming day they began in."""
    given = [(c, v) for c, v in (("gaming_day", gaming_day), ("table_id", table_id)) if v]
    if not given:
        return "", []
    return " WHERE " + " AND ".join(f"{c} = {{p}}" for c, _ in given), [v for _, v in given]


class SQLiteEquipmentView(_EquipmentTables, SQLiteTrackingRecorder):
    """The equipment view in the embedded SQLite store."""


class PostgresEquipmentView(_EquipmentTables, PostgresTrackingRecorder):
    """The equipment view in PostgreSQL."""

    placeholder = "%s"


EquipmentView = SQLiteEquipmentView | PostgresEquipmentView


def open_equipment_view(store: FactStore) -> EquipmentView:
    """Return the equipment view in the store's own database, creating its tables if need be."""
    return open_view(store, SQLiteEquipmentView, PostgresEquipmentView)


class EquipmentStatsProjection(FactProjection):
    """Keeps the equipment view up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("equipment_windows", "equipment_tenure")
    state_names = ("screens",)

    def __init__(self, store: FactStore, view: EquipmentView | None = None) -> None:
        self.screens = EquipmentScreens()
        super().__init__(store, view or open_equipment_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact; return the windows and tenures it closes, as rows."""
        results, tenures = self.screens.feed(fact)
        return [window_row(r, notification_id) for r in results] + [
            tenure_row(t, notification_id) for t in tenures
        ]
