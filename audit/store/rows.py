"""A read's rows as plain tuples, from SQLite or PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def plain_rows(rows: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return fetched rows as tuples in the statement's column order: PostgreSQL's come as
    dicts (eventsourcing's row factory, in the SELECT's order), SQLite's as sqlite3 rows."""
    return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in rows]


def fetch_rows(datastore: Any, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Run one read in its own transaction and return its rows as plain tuples."""
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, list(params))
        return plain_rows(cursor.fetchall())
