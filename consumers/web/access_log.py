"""The append-only access log: who viewed which round, finding, case or report, and when.

Surveillance rules expect a record of who looked at what (Kansas K.A.R. 112-106-6, a
surveillance log of activities). Every page or API response that shows a round, a
finding, a case or a report calls :func:`record_access` before it answers. The log has
no UPDATE or DELETE path in this code, and the database refuses both by trigger
(``consumers/web/db.py``); on PostgreSQL the writer and reader roles are granted
INSERT and SELECT on it only (``tablewatch db migrate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from audit.store.application import FactStore
from consumers.web.auth import User
from consumers.web.db import ACCESS_LOG, WebDB

KINDS = (
    "round",
    "finding",
    "findings",
    "case",
    "cases",
    "report",
    "table",
    "floor",
    "stats",
    "chain",
    "hands",
)
"""What can be viewed: one item (a round, a finding, a case) or a list or report of them."""


class AccessKindError(ValueError):
    """Raised for a kind of view the log does not know (a defect in the calling route)."""


@dataclass(frozen=True)
class Access:
    """One recorded view."""

    id: int
    at: str
    user: str
    role: str
    kind: str
    ref: str


def record_access(store_or_db: FactStore | WebDB, user: User, kind: str, ref: str) -> None:
    """Append that ``user`` viewed ``kind`` ``ref`` now (UTC)."""
    if kind not in KINDS:
        raise AccessKindError(f"unknown kind of view {kind!r}: one of {', '.join(KINDS)}")
    db = store_or_db if isinstance(store_or_db, WebDB) else WebDB(store_or_db)
    db.execute(
        f"INSERT INTO {ACCESS_LOG} (at, user_name, role, kind, ref) VALUES ({{p}}, {{p}}, {{p}}, "
        "{p}, {p})",
        [datetime.now(UTC).isoformat(), user.name, user.role, kind, ref],
    )


def read_access(
    db: WebDB,
    *,
    user: str | None = None,
    kind: str | None = None,
    ref: str | None = None,
    limit: int = 1000,
) -> list[Access]:
    """Return recorded views, newest first, narrowed by user, kind and reference."""
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("user_name", user), ("kind", kind), ("ref", ref)):
        if value is not None:
            clauses.append(f"{column} = {{p}}")
            params.append(value)
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    rows = db.query(
        f"SELECT id, at, user_name, role, kind, ref FROM {ACCESS_LOG}{where} "
        f"ORDER BY id DESC LIMIT {int(limit)}",
        params,
    )
    return [Access(int(i), at, u, r, k, ref_) for i, at, u, r, k, ref_ in rows]
