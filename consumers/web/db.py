"""The web's own tables in the store's database: users, sessions and the access log.

They live beside the facts so that one backup, one set of grants and one
``tablewatch db migrate`` cover them. Users and sessions are working state
(a password changes, a session ends); the access log is evidence and refuses
UPDATE and DELETE by trigger, as the stored events do, in both databases.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from audit.store.application import FactStore
from audit.store.rows import fetch_rows

USERS = "web_users"
SESSIONS = "web_sessions"
ACCESS_LOG = "web_access_log"
ACCESS_LOG_SEQUENCE = f"{ACCESS_LOG}_id_seq"
WEB_TABLES = (USERS, SESSIONS, ACCESS_LOG)

_COMMON = (
    f"CREATE TABLE IF NOT EXISTS {USERS} (name TEXT PRIMARY KEY, role TEXT NOT NULL, "
    "password_hash TEXT NOT NULL, created_at TEXT NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {SESSIONS} (token_hash TEXT PRIMARY KEY, "
    "user_name TEXT NOT NULL, csrf_token TEXT NOT NULL, created_at TEXT NOT NULL, "
    "expires_at TEXT NOT NULL)",
    # expired sessions are swept at each sign-in and sign-out by this index (#16)
    f"CREATE INDEX IF NOT EXISTS {SESSIONS}_expires ON {SESSIONS} (expires_at)",
)
_ACCESS_INDEXES = (
    # "Who looked at this round", "what did this user see": the newest first, read from the
    # index in order, not by walking the whole log back from its newest row (#16).
    f"CREATE INDEX IF NOT EXISTS {ACCESS_LOG}_user ON {ACCESS_LOG} (user_name, id)",
    f"CREATE INDEX IF NOT EXISTS {ACCESS_LOG}_kind ON {ACCESS_LOG} (kind, id)",
    f"CREATE INDEX IF NOT EXISTS {ACCESS_LOG}_ref ON {ACCESS_LOG} (ref, id)",
    # a user's views of one kind ("what floors did bob open"), not every view of the kind
    f"CREATE INDEX IF NOT EXISTS {ACCESS_LOG}_user_kind ON {ACCESS_LOG} (user_name, kind, id)",
)
_SQLITE = (
    *_COMMON,
    f"CREATE TABLE IF NOT EXISTS {ACCESS_LOG} (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "at TEXT NOT NULL, user_name TEXT NOT NULL, role TEXT NOT NULL, kind TEXT NOT NULL, "
    "ref TEXT NOT NULL)",
    f"CREATE TRIGGER IF NOT EXISTS {ACCESS_LOG}_no_update BEFORE UPDATE ON {ACCESS_LOG}"
    " BEGIN SELECT RAISE(ABORT, 'tablewatch: the access log is append-only'); END",
    f"CREATE TRIGGER IF NOT EXISTS {ACCESS_LOG}_no_delete BEFORE DELETE ON {ACCESS_LOG}"
    " BEGIN SELECT RAISE(ABORT, 'tablewatch: the access log is append-only'); END",
    *_ACCESS_INDEXES,
)
_POSTGRES = (
    *_COMMON,
    f"CREATE TABLE IF NOT EXISTS {ACCESS_LOG} (id BIGSERIAL PRIMARY KEY, at TEXT NOT NULL, "
    "user_name TEXT NOT NULL, role TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL)",
    "CREATE OR REPLACE FUNCTION tablewatch_access_log_refuse() RETURNS trigger"
    " LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION"
    " 'tablewatch: the access log is append-only (% refused)', TG_OP; END $$",
    f"CREATE OR REPLACE TRIGGER {ACCESS_LOG}_immutable BEFORE UPDATE OR DELETE ON {ACCESS_LOG}"
    " FOR EACH ROW EXECUTE FUNCTION tablewatch_access_log_refuse()",
    f"CREATE OR REPLACE TRIGGER {ACCESS_LOG}_no_truncate BEFORE TRUNCATE ON {ACCESS_LOG}"
    " FOR EACH STATEMENT EXECUTE FUNCTION tablewatch_access_log_refuse()",
    *_ACCESS_INDEXES,
)


class WebDB:
    """Run the web's statements in the store's database, ``{p}`` for each placeholder."""

    def __init__(self, store: FactStore) -> None:
        self.store = store  # held: a store collected closes its connections
        self.datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self.is_postgres = store.is_postgres
        self.placeholder = "%s" if store.is_postgres else "?"

    def missing_tables(self) -> list[str]:
        """Return the web's tables not yet in the database."""
        if self.is_postgres:
            found = {t for t in WEB_TABLES if self.query("SELECT to_regclass({p})", [t])[0][0]}
        else:
            rows = self.query("SELECT name FROM sqlite_master WHERE type = 'table'")
            found = {row[0] for row in rows}
        return [t for t in WEB_TABLES if t not in found]

    def ensure_tables(self) -> None:
        """Create the web's tables when any is missing; run no DDL when all are there.

        A PostgreSQL store is migrated by its owner (``tablewatch db migrate``), and the
        roles the services run as may not run DDL: they find the tables made.
        """
        if self.missing_tables():
            self.create_tables()

    def create_tables(self) -> None:
        """Create the web's tables and the access log's guard (idempotent)."""
        with self.datastore.transaction(commit=True) as cursor:
            for statement in _POSTGRES if self.is_postgres else _SQLITE:
                cursor.execute(statement)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one write in its own transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(sql.format(p=self.placeholder), list(params))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Return a read's rows as plain tuples."""
        return fetch_rows(self.datastore, sql.format(p=self.placeholder), params)
