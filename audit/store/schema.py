"""The store's schema on PostgreSQL: made once by its owner, under a lock; checked by everyone else.

Opening a store used to run its DDL every time, as whichever role opened it: two
ingests started together on a fresh database raced on ``CREATE TABLE IF NOT
EXISTS`` (one died on a unique violation in the catalogue), and the ingest had
to own the tables it should only append to. Now:

- the owner runs the DDL (``tablewatch db migrate``), every statement
  idempotent, inside a session-level advisory lock so concurrent migrations
  (or library opens that create) queue instead of racing;
- the store's DDL ends by writing :data:`SCHEMA_VERSION` into :data:`SCHEMA_TABLE`
  (``tablewatch db migrate`` then adds the projections' views and the grants);
- every other open runs no DDL, and refuses, in one line, a store whose
  recorded version is missing or older.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql

SCHEMA_TABLE = "tablewatch_schema"
SCHEMA_VERSION = 7
"""Raise it whenever the DDL changes: a store migrated before is refused until migrated again.

2: ``tablewatch_received``, the bytes each fact arrived as; the replay's
``replay_contexts`` and ``round_contexts`` views; the findings view's exposure,
gaming_day and player_id (issue #22).
3: the hand history's ``game`` and 21 Baccarat columns, and the table state's ``game`` and
shoe columns (issue #19).
4: indexes (issue #16): the replay points' ``replay_contexts_day``, by which a gaming day's
points are pruned; the findings' ``findings_gaming_day_code``, by which a day's variance
report reads that day's findings only, and ``findings_day_table_time``, a table's day in the
queue's order, and ``findings_code_time``, ``findings_severity_time``, ``findings_dealer_time`` and
``findings_player_time``, a code's, a severity's, a dealer's or a player's findings in that
order; the hand history's ``hand_history_dealer_order`` and
``hand_history_player_order``, a dealer's or a player's hands in the queries' order; the
web access log's by user, kind and reference, newest first. Each is
made by every open that creates tables; a store at 3 ran without them.
5: the equipment view's ``equipment_windows_day``, ``equipment_windows_table`` and
``equipment_tenure_day`` (issue #16): ``tablewatch equipment --gaming-day``/``--table`` read
that day's or that table's windows and tenures, not every one stored; and the single-column
indexes version 4's replaced (``findings_dealer``, ``_code``, ``_severity``, ``_player``,
``hand_history_dealer``, ``_player``) dropped: they were kept up to date for no read.
6: the cases view (issue #16): ``case_view``, ``case_view_tables`` and ``case_view_head``,
from which the console reads and judges cases instead of loading the whole casebook; the
web's ``web_sessions_expires`` (expired sessions swept at each sign-in) and
``web_access_log_user_kind`` (a user's views of one kind); the findings' ``findings_round``
(a round's findings asked for without its table).
7: the tracking table's row policies admit the alert legs' horizons (``alerts<-findings:horizon``,
``webhook<-findings:horizon``), and the views' tables are granted TRUNCATE, both for ``serve
--rebuild-views`` run as the views' role (issue #16); no table changed.
"""
_LOCK_KEY = 0x7461_626C_6577_6174  # any fixed bigint: "tablewat", as bytes
_MARK_SQL = [
    f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1),"
    " version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    f"INSERT INTO {SCHEMA_TABLE} (id, version) VALUES (1, %s) ON CONFLICT (id) DO UPDATE"
    " SET version = excluded.version, migrated_at = now()",
]


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """Hold the store's migration lock (on a connection of its own) for the block's duration."""
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))


def mark_migrated(url: str) -> None:
    """Record that the schema is at :data:`SCHEMA_VERSION` (the migration's last step)."""
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(_MARK_SQL[0])
        conn.execute(_MARK_SQL[1], (SCHEMA_VERSION,))


def migrated_version(url: str) -> int | None:
    """Return the schema version recorded in the database (None if it was never migrated)."""
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        found = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (SCHEMA_TABLE,)).fetchone()
        if not found or not found[0]:
            return None
        row = conn.execute(f"SELECT version FROM {SCHEMA_TABLE} WHERE id = 1").fetchone()
        return None if row is None else int(row[0])


STORE_TABLES = ("tablewatch_events", "tablewatch_tracking", "tablewatch_event_ids",
                "tablewatch_table_heads", "tablewatch_received", SCHEMA_TABLE)  # fmt: skip
"""The store's own tables; every other table in its schema is a projection's view."""
_EVENTS_SEQUENCE = "tablewatch_events_notification_id_seq"
_TRACKING = "tablewatch_tracking"


def grant_statements(
    writer: str | None,
    reader: str | None,
    views: tuple[list[str], list[str]],
    view_positions: list[str],
) -> list[sql.Composed]:
    """Return the GRANTs (and row policies) that give the two roles what each needs, no more.

    The writer (the ingest) appends stored events, moves source positions and the
    ingest's state; it may not UPDATE or DELETE stored events, and not being their
    owner it cannot ALTER the table or DISABLE its triggers. TRUNCATE is granted
    only because eventsourcing serialises writers with ``LOCK TABLE ... IN
    EXCLUSIVE MODE``, which PostgreSQL allows to a role with UPDATE, DELETE or
    TRUNCATE: of the three, TRUNCATE is the one the trigger refuses whole.

    The reader reads everything, and keeps the projections' views (derived data,
    rebuilt from the facts) up to date: it writes their tables, and its rows of the
    shared tracking table only, by row-level security on ``view_positions``.
    """
    statements: list[sql.Composed] = []
    table = sql.Identifier
    views_tables, view_sequences = views
    if writer is not None:
        role = sql.Identifier(writer)
        for privileges, name in (
            ("SELECT, INSERT, TRUNCATE", "tablewatch_events"),
            ("SELECT, INSERT, UPDATE", _TRACKING),
            ("SELECT, INSERT", "tablewatch_event_ids"),
            ("SELECT, INSERT, UPDATE", "tablewatch_table_heads"),
            ("SELECT, INSERT", "tablewatch_received"),  # append-only, as the bytes arrived
            ("SELECT", SCHEMA_TABLE),
        ):
            statements.append(
                sql.SQL("GRANT {} ON {} TO {}").format(sql.SQL(privileges), table(name), role)
            )
        statements.append(
            sql.SQL("GRANT USAGE, SELECT ON SEQUENCE {} TO {}").format(
                table(_EVENTS_SEQUENCE), role
            )
        )
    if reader is not None:
        role = sql.Identifier(reader)
        statements.append(
            sql.SQL("GRANT SELECT ON {} TO {}").format(
                sql.SQL(", ").join(map(table, STORE_TABLES)), role
            )
        )
        statements.append(
            sql.SQL("GRANT INSERT, UPDATE ON {} TO {}").format(table(_TRACKING), role)
        )
    view_grant = sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON {} TO {}")
    sequence_grant = sql.SQL("GRANT USAGE, SELECT ON SEQUENCE {} TO {}")
    for grantee in (writer, reader):
        if grantee is None:
            continue
        role = sql.Identifier(grantee)
        statements.extend(view_grant.format(table(view), role) for view in views_tables)
        statements.extend(sequence_grant.format(table(each), role) for each in view_sequences)
    statements.extend(_tracking_policies(writer, reader, view_positions))
    return statements


def _tracking_policies(
    writer: str | None, reader: str | None, view_positions: list[str]
) -> list[sql.Composed]:
    tracking = sql.Identifier(_TRACKING)
    listed = sql.SQL(", ").join(map(sql.Literal, view_positions))
    names = sql.SQL("ARRAY[{}]::text[]").format(listed)
    statements: list[sql.Composed] = [
        sql.SQL("ALTER TABLE {} ENABLE ROW LEVEL SECURITY").format(tracking)
    ]
    policies: list[tuple[str, str | None, str, str]] = [
        ("tablewatch_writer_positions", writer, "ALL", "USING (true) WITH CHECK (true)"),
        ("tablewatch_reader_reads", reader, "SELECT", "USING (true)"),
        ("tablewatch_reader_inserts", reader, "INSERT", "WITH CHECK (application_name = ANY({n}))"),
        ("tablewatch_reader_updates", reader, "UPDATE",
         "USING (application_name = ANY({n})) WITH CHECK (application_name = ANY({n}))"),
    ]  # fmt: skip
    for name, role, command, clause in policies:
        if role is None:
            continue
        statements.append(
            sql.SQL("DROP POLICY IF EXISTS {} ON {}").format(sql.Identifier(name), tracking)
        )
        statements.append(
            sql.SQL("CREATE POLICY {} ON {} FOR {} TO {} " + clause).format(
                sql.Identifier(name), tracking, sql.SQL(command), sql.Identifier(role),
                n=names,
            )
        )  # fmt: skip
    return statements


def view_objects(url: str) -> tuple[list[str], list[str]]:
    """Return the tables and sequences in the store's schema that are not the store's own."""
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT relname, relkind FROM pg_class"
            " WHERE relnamespace = current_schema()::regnamespace"
            " AND relkind IN ('r', 'S') ORDER BY relname"
        ).fetchall()
    tables = [name for name, kind in rows if kind == "r" and name not in STORE_TABLES]
    sequences = [name for name, kind in rows if kind == "S" and name != _EVENTS_SEQUENCE]
    return tables, sequences


def apply_grants(url: str, statements: list[sql.Composed]) -> None:
    """Run the grants in one transaction."""
    with psycopg.connect(url, connect_timeout=5) as conn, conn.transaction():
        for statement in statements:
            conn.execute(statement)
