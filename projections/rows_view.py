"""A read model's table of rows, written with the view's position in one transaction, in
SQLite or PostgreSQL alike.

Built on eventsourcing's tracking recorders, so a position already recorded writes
nothing. A view says its table (``create_sql``) and how a row is written
(``write_sql``, with ``{p}`` for each placeholder); the two databases differ only in
the placeholder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from eventsourcing.persistence import Tracking

from audit.store.application import FactStore
from audit.store.rows import fetch_rows
from projections.checkpoint import Checkpoint, Checkpoints


class RowsView(Checkpoints):
    """Mixed in before a tracking recorder: creates the view's table, writes and reads rows."""

    create_sql: ClassVar[str]
    index_sql: ClassVar[tuple[str, ...]] = ()
    """Indexes on what the view's reads filter by, each ``CREATE INDEX IF NOT EXISTS``."""
    write_sql: ClassVar[str]
    placeholder: ClassVar[str] = "?"

    def create_table(self) -> None:
        """Create the tracking table and the view's own table."""
        super().create_table()  # type: ignore[misc]
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(self.create_sql)
            for statement in self.index_sql:
                cursor.execute(statement)

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write rows and the view's position and checkpoint in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            if rows:
                cursor.executemany(self.write_sql.format(p=self.placeholder), list(rows))
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Return the rows of a read (``{p}`` for each placeholder) as plain tuples."""
        datastore = self.datastore  # type: ignore[attr-defined]
        return fetch_rows(datastore, sql.format(p=self.placeholder), params)


def open_view(store: FactStore, sqlite_class: type[Any], postgres_class: type[Any]) -> Any:
    """Return a view in the store's own database, creating its tables if need be."""
    view_class = postgres_class if store.is_postgres else sqlite_class
    return store.factory.tracking_recorder(view_class)
