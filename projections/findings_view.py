"""The findings read model: one row per finding, written with its store position in one transaction.

Built on eventsourcing's tracking recorders (one per database), so the view's
position in the store's notification log is recorded exactly as the ingest's
Kafka positions are: a position already recorded writes nothing. Rows are keyed
by the finding's stable id, so rebuilding from zero gives the same rows.

Money at stake and exposure are two columns, never summed (issue #22.2). A store made
before them gains ``exposure``, ``gaming_day`` and ``player_id`` when its view is next
created (SQLite: at open; PostgreSQL: ``tablewatch db migrate``). Its existing rows get
what can be known without the facts (:func:`_reclassify`): a procedure breach's amount,
stored then as at stake, moves to exposure, and each kind's severity is re-graded to the
default table where no rule set overrides it; their gaming day and player stay NULL
until the view is rebuilt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.findings.finding import Finding, Money, Severity
from audit.findings.severities import RULE_SET_SEVERITIES
from audit.floor.catalogue import KINDS_BY_CODE
from audit.store.rows import fetch_rows, plain_rows
from projections.checkpoint import Checkpoint, Checkpoints

_COLUMNS = (
    "finding_id", "code", "severity", "rule", "title", "table_id", "round_id", "position",
    "dealer_id", "recorded", "expected", "at_stake", "occurred_at", "event_ids",
    "notification_id", "exposure", "gaming_day", "player_id",
)  # fmt: skip
_ADDED_COLUMNS = {
    "exposure": ("TEXT NOT NULL DEFAULT '0.00'", "NUMERIC(14, 2) NOT NULL DEFAULT 0"),
    "gaming_day": ("TEXT", "TEXT"),
    "player_id": ("TEXT", "TEXT"),
}
"""Columns a store made before issue #22 lacks: (SQLite type, PostgreSQL type)."""
_SEVERITY_RANK = {s.value: s.rank for s in Severity}
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS findings_table ON findings (table_id)",
    "CREATE INDEX IF NOT EXISTS findings_table_round ON findings (table_id, round_id)",
    # a round's findings, asked for without its table (the queue's Round field; #16)
    "CREATE INDEX IF NOT EXISTS findings_round ON findings (round_id)",
    "CREATE INDEX IF NOT EXISTS findings_table_time ON findings (table_id, occurred_at)",
    "CREATE INDEX IF NOT EXISTS findings_occurred ON findings (occurred_at)",
    "CREATE INDEX IF NOT EXISTS findings_gaming_day ON findings (gaming_day)",
    # A code's, a severity's, a dealer's or a player's findings in the queue's order (the time
    # they occurred): a page of them reads that page, not every match in history sorted (#16).
    # These four replace single-column indexes of the same names less "_time", dropped below.
    "CREATE INDEX IF NOT EXISTS findings_code_time ON findings (code, occurred_at)",
    "CREATE INDEX IF NOT EXISTS findings_severity_time ON findings (severity, occurred_at)",
    "CREATE INDEX IF NOT EXISTS findings_dealer_time ON findings (dealer_id, occurred_at)",
    "CREATE INDEX IF NOT EXISTS findings_player_time ON findings (player_id, occurred_at)",
    # A day's variances, code by code (``report variance``): both terms in one index, so
    # SQLite, which keeps no statistics here, never walks every day's rows of a code.
    "CREATE INDEX IF NOT EXISTS findings_gaming_day_code ON findings (gaming_day, code)",
    # A table's day in the queue (its order is when the findings' events occurred).
    "CREATE INDEX IF NOT EXISTS findings_day_table_time ON findings "
    "(gaming_day, table_id, occurred_at)",
    # Superseded by the (column, occurred_at) ones above: an older store would go on keeping
    # them up to date on every finding written, for no read.
    *(f"DROP INDEX IF EXISTS findings_{name}" for name in ("dealer", "code", "severity", "player")),
)
"""What ``tablewatch findings`` filters on, and a shift's findings (its rounds, its hours)."""
_CONTEXTS_CREATE = (
    "CREATE TABLE IF NOT EXISTS replay_contexts (table_id TEXT NOT NULL, "
    "position BIGINT NOT NULL, game TEXT NOT NULL, gaming_day TEXT NOT NULL, "
    "state {blob} NOT NULL, PRIMARY KEY (table_id, position))"
)
_CONTEXTS_INSERT = (
    "INSERT INTO replay_contexts (table_id, position, game, gaming_day, state) "
    "VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT DO NOTHING"
)
_CONTEXTS_INDEX = (
    "CREATE INDEX IF NOT EXISTS replay_contexts_day ON replay_contexts "
    "(gaming_day, table_id, position)"
)
_CONTEXTS_PRUNE = (
    "DELETE FROM replay_contexts WHERE gaming_day >= {p} AND gaming_day < {p} AND position > "
    "(SELECT MIN(o.position) FROM replay_contexts o WHERE o.table_id = replay_contexts.table_id "
    "AND o.gaming_day = replay_contexts.gaming_day)"
)
_CONTEXTS_OPENING = (
    "SELECT MIN(position) FROM replay_contexts WHERE table_id = {p} AND gaming_day = "
    "(SELECT gaming_day FROM replay_contexts WHERE table_id = {p} AND position <= {p} "
    "ORDER BY position DESC LIMIT 1)"
)
_CONTEXTS_SELECT = (
    "SELECT table_id, position, game, gaming_day, state FROM replay_contexts "
    "WHERE table_id = {p} AND position >= {p} AND position <= {p} ORDER BY position"
)


class ReplayContext(NamedTuple):
    """A table's verification state as it stood before one of its ``table_opened`` facts.

    Written by the findings projection at each opening, so a replay can take up the
    table there (``consumers/replay_cli.py``) rather than judge its whole history again.
    """

    table_id: str
    position: int
    """The ``table_opened``'s notification id: the state is as of just before it."""
    game: str
    """The game whose verifier judges the table from this opening."""
    gaming_day: str
    """The day opened: the table's facts from here go to this day's ``Table`` aggregate."""
    state: bytes
    """The game verifier's ``table_state``, pickled as checkpoints are."""


class PrunedPoints(NamedTuple):
    """The replay points of gaming days from ``since`` to before ``before``, but each table's
    first of each day, to be dropped: those days left the retention window
    (docs/history.md, "Replay points")."""

    since: str
    """The first gaming day to prune ("" for every day before ``before``)."""
    before: str


ViewRow = tuple[Finding, int] | ReplayContext | PrunedPoints
"""What the findings projection hands its view to write."""

_ROUNDS_AT_ONCE = 500
"""Round ids asked for in one statement: well inside either database's limit on parameters."""


def _row(finding: Finding, notification_id: int) -> tuple[Any, ...]:
    return (
        finding.finding_id, finding.code, finding.severity.value, finding.rule, finding.title,
        finding.table_id, finding.round_id, finding.position, finding.dealer_id,
        finding.recorded, finding.expected, str(finding.at_stake), finding.occurred_at,
        json.dumps(list(finding.event_ids)), notification_id, str(finding.exposure),
        finding.gaming_day, finding.player_id,
    )  # fmt: skip


def _reclassify(placeholder: str, zero: str) -> list[tuple[str, list[Any]]]:
    """Return the updates that bring rows judged before issue #22 to its money and severities.

    Exact from the row alone: a procedure breach's stored amount was the action it
    touched, a kind that carries no money has none, and a kind no rule set overrides has
    one severity. Run once, as the
    columns are added. ``zero`` is the column's zero as the database stores it.
    """
    exposure = sorted(code for code, kind in KINDS_BY_CODE.items() if kind.money is Money.EXPOSURE)
    marks = ", ".join([placeholder] * len(exposure))
    moneyless = sorted(code for code, kind in KINDS_BY_CODE.items() if kind.money is Money.NONE)
    updates = [(
        f"UPDATE findings SET exposure = at_stake, at_stake = {zero} WHERE code IN ({marks})",
        list(exposure),
    ), (  # ACC-HOLD-BAND stored its deviation from the band's centre: no money went wrong
        f"UPDATE findings SET at_stake = {zero} WHERE code IN "
        f"({', '.join([placeholder] * len(moneyless))})",
        list(moneyless),
    )]  # fmt: skip
    overridden = {code for table in RULE_SET_SEVERITIES.values() for code in table}
    for code, kind in sorted(KINDS_BY_CODE.items()):
        if code in overridden or kind.money is Money.EITHER or code.startswith("ACC-"):
            continue  # judged per rule set, per amount, or by the table's thresholds
        updates.append((
            f"UPDATE findings SET severity = {placeholder} WHERE code = {placeholder}",
            [kind.severity.value, code],
        ))  # fmt: skip
    return updates


@dataclass(frozen=True)
class FindingFilter:
    """What ``tablewatch findings`` asks for; every field narrows the answer."""

    table_id: str | None = None
    dealer_id: str | None = None
    code: str | None = None
    min_severity: Severity | None = None
    since: datetime | None = None
    until: datetime | None = None
    gaming_day: str | None = None
    """The casino gaming day (ISO date), as the MGR files a round."""
    player_id: str | None = None
    by_time: bool = False
    """In the order the findings' events occurred (a person's queue), not as found (alerts)."""
    newest_first: bool = False
    """The same order reversed: what happened last first (an analyst opening the queue)."""

    def order(self) -> str:
        """Return the ORDER BY clause the filter asks for."""
        # occurred_at is UTC text of one format, so text order is time order. Reversed, every
        # term is reversed, so each index that gives the order gives it read backwards.
        terms = ("occurred_at", "row_number") if self.by_time else ("row_number",)
        return ", ".join(f"{t} DESC" if self.newest_first else t for t in terms)


def _where(query: FindingFilter, placeholder: str) -> tuple[str, list[Any]]:
    # No term on row_number that every row meets: SQLite (which keeps no statistics here)
    # would take the index pairing it with one filter, and sort every match of that filter in
    # history, rather than the index that yields the rows in order.
    clauses: list[str] = ["1 = 1"]
    params: list[Any] = []
    for column, value in (
        ("table_id", query.table_id),
        ("dealer_id", query.dealer_id),
        ("code", query.code),
        ("gaming_day", query.gaming_day),
        ("player_id", query.player_id),
    ):
        if value is not None:
            clauses.append(f"{column} = {placeholder}")
            params.append(value)
    if query.min_severity is not None:
        allowed = [s.value for s in Severity if s.rank >= query.min_severity.rank]
        # Beside another filter, the severity is checked row by row (``|| ''`` keeps SQLite
        # off its index): the other filter's index gives that table's, dealer's... findings in
        # order, where the severity's would give every critical on the floor since the store
        # began, each checked against the other filter (#16).
        severity = "severity || ''" if len(clauses) > 1 else "severity"
        clauses.append(f"{severity} IN (" + ", ".join([placeholder] * len(allowed)) + ")")
        params += allowed
    # Stored as UTC text (events are normalised to UTC): compare in UTC, whatever the offset.
    if query.since is not None:
        clauses.append(f"occurred_at >= {placeholder}")
        params.append(query.since.astimezone(UTC).isoformat())
    if query.until is not None:
        clauses.append(f"occurred_at < {placeholder}")
        params.append(query.until.astimezone(UTC).isoformat())
    return " AND ".join(clauses), params


def _shift_queries(
    table_id: str,
    round_ids: Sequence[str],
    start: str | None,
    end: str | None,
    placeholder: str,
    gaming_day: str | None = None,
) -> list[tuple[str, list[Any]]]:
    """Return the reads of a shift's findings: of its rounds, and of its table in its hours
    (a shift with no opener has no first hour: its table's findings of its gaming day, never
    every round-less finding of the table since the store began)."""
    names = ", ".join(("row_number", *_COLUMNS))
    queries = []
    rounds = sorted(set(round_ids))
    for at in range(0, len(rounds), _ROUNDS_AT_ONCE):
        chunk = rounds[at : at + _ROUNDS_AT_ONCE]
        queries.append((
            f"SELECT {names} FROM findings WHERE table_id = {placeholder} AND round_id IN "
            f"({', '.join([placeholder] * len(chunk))})", [table_id, *chunk],
        ))  # fmt: skip
    clauses, params = (
        [f"table_id = {placeholder}", "round_id IS NULL", "occurred_at > ''"],
        [table_id],
    )
    if start is not None:
        clauses.append(f"occurred_at >= {placeholder}")
        params.append(start)
    elif gaming_day is not None:
        clauses.append(f"gaming_day = {placeholder}")
        params.append(gaming_day)
    if end is not None:
        clauses.append(f"occurred_at <= {placeholder}")
        params.append(end)
    queries.append((f"SELECT {names} FROM findings WHERE {' AND '.join(clauses)}", params))
    return queries


def _split(
    rows: Sequence[ViewRow],
) -> tuple[list[tuple[Finding, int]], list[ReplayContext], list[PrunedPoints]]:
    """Return a batch's findings (each with its position), replay contexts and prunings apart."""
    found: list[tuple[Finding, int]] = []
    contexts: list[ReplayContext] = []
    pruned: list[PrunedPoints] = []
    for row in rows:
        if isinstance(row, ReplayContext):
            contexts.append(row)
        elif isinstance(row, PrunedPoints):
            pruned.append(row)
        else:
            found.append(row)
    return found, contexts, pruned


def _context(row: Sequence[Any]) -> ReplayContext:
    table_id, position, game, gaming_day, state = row
    return ReplayContext(str(table_id), int(position), str(game), str(gaming_day), bytes(state))


def _as_dict(row: Sequence[Any], names: Sequence[str]) -> dict[str, Any]:
    found = dict(zip(names, row, strict=True))
    found["event_ids"] = json.loads(found["event_ids"])
    found["at_stake"] = str(found["at_stake"])
    found["exposure"] = str(found["exposure"])
    return found


def found_after_sql(
    p: str, after_row: int, min_severity: Severity, limit: int
) -> tuple[str, list[Any]]:
    """Return the alerts' read (:meth:`_Reads.found_after`) and its parameters.

    ``severity || ''`` keeps SQLite, which keeps no statistics here, off the severity index:
    through it, every warning and critical in history would be read and sorted on every poll
    (#16); the rows after a recent position are few, and the primary key yields them in
    order."""
    alerting = [s.value for s in Severity if s.rank >= min_severity.rank]
    names = ("row_number", *_COLUMNS)
    sql = (
        f"SELECT {', '.join(names)} FROM findings WHERE row_number > {p} "
        f"AND severity || '' IN ({', '.join([p] * len(alerting))}) "
        f"ORDER BY row_number LIMIT {int(limit)}"
    )
    return sql, [after_row, *alerting]


class _Reads:
    """The view's reads, alike from either database (SQL in its placeholder)."""

    datastore: Any
    placeholder: str

    def select(self, query: FindingFilter) -> list[dict[str, Any]]:
        """Return the findings the filter asks for, as found or (``by_time``) as they occurred."""
        where, params = _where(query, self.placeholder)
        names = ("row_number", *_COLUMNS)
        sql = f"SELECT {', '.join(names)} FROM findings WHERE {where} ORDER BY {query.order()}"
        return [_as_dict(row, names) for row in fetch_rows(self.datastore, sql, params)]

    def found_after(
        self, after_row: int, min_severity: Severity, limit: int
    ) -> list[dict[str, Any]]:
        """Return up to ``limit`` findings at ``min_severity`` or above stored after row
        ``after_row``, in row order: what the alerts deliver, a batch at a time."""
        sql, params = found_after_sql(self.placeholder, after_row, min_severity, limit)
        names = ("row_number", *_COLUMNS)
        return [_as_dict(row, names) for row in fetch_rows(self.datastore, sql, params)]

    def select_shift(
        self,
        table_id: str,
        round_ids: Sequence[str],
        start: str | None,
        end: str | None,
        gaming_day: str | None = None,
    ) -> list[dict[str, Any]]:
        """Return the findings a shift may own: its rounds', and its table's from start (or,
        with no start, of ``gaming_day``) to end."""
        names = ("row_number", *_COLUMNS)
        queries = _shift_queries(table_id, round_ids, start, end, self.placeholder, gaming_day)
        found = []
        with self.datastore.transaction(commit=False) as cursor:  # one snapshot for them all
            for sql, params in queries:
                cursor.execute(sql, params)
                found += [_as_dict(row, names) for row in plain_rows(cursor.fetchall())]
        return sorted(found, key=lambda row: row["row_number"])

    def replay_contexts(self, table_id: str, first: int, last: int) -> list[ReplayContext]:
        """Return a table's replay contexts at positions from ``first`` to ``last``."""
        sql = _CONTEXTS_SELECT.format(p=self.placeholder)
        return [_context(row) for row in fetch_rows(self.datastore, sql, (table_id, first, last))]

    def day_opening(self, table_id: str, position: int) -> int | None:
        """Return the table's first replay point of the gaming day of its last point at or
        before ``position`` (None if it has none)."""
        sql = _CONTEXTS_OPENING.format(p=self.placeholder)
        rows = fetch_rows(self.datastore, sql, (table_id, table_id, position))
        return None if not rows or rows[0][0] is None else int(rows[0][0])


class SQLiteFindingsView(_Reads, Checkpoints, SQLiteTrackingRecorder):
    """The findings view in the embedded SQLite store."""

    placeholder = "?"

    def create_table(self) -> None:
        """Create the tracking table and the findings table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS findings ("
                "row_number INTEGER PRIMARY KEY AUTOINCREMENT, finding_id TEXT UNIQUE NOT NULL, "
                "code TEXT NOT NULL, severity TEXT NOT NULL, rule TEXT NOT NULL, "
                "title TEXT NOT NULL, table_id TEXT NOT NULL, round_id TEXT, position INTEGER, "
                "dealer_id TEXT, recorded TEXT NOT NULL, expected TEXT NOT NULL, "
                "at_stake TEXT NOT NULL, occurred_at TEXT, event_ids TEXT NOT NULL, "
                "notification_id INTEGER NOT NULL, exposure TEXT NOT NULL DEFAULT '0.00', "
                "gaming_day TEXT, player_id TEXT)"
            )
            cursor.execute("PRAGMA table_info(findings)")
            present = {row[1] for row in cursor.fetchall()}
            missing = [name for name in _ADDED_COLUMNS if name not in present]
            for name in missing:  # a store made before issue #22
                cursor.execute(f"ALTER TABLE findings ADD COLUMN {name} {_ADDED_COLUMNS[name][0]}")
            if "exposure" in missing:
                for sql, params in _reclassify("?", "'0.00'"):
                    cursor.execute(sql, params)
            for statement in _INDEXES:
                cursor.execute(statement)
            cursor.execute(_CONTEXTS_CREATE.format(blob="BLOB"))
            cursor.execute(_CONTEXTS_INDEX)

    def record(
        self,
        findings: Sequence[ViewRow],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write findings and replay contexts, drop pruned replay points, and write the view's
        position and checkpoint, in one transaction."""
        found, contexts, pruned = _split(findings)
        with self.datastore.transaction(commit=True) as cursor:
            cursor.executemany(
                f"INSERT OR IGNORE INTO findings ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                [_row(finding, position) for finding, position in found],
            )
            if contexts:
                cursor.executemany(_CONTEXTS_INSERT.format(p="?"), contexts)
            for prune in pruned:
                cursor.execute(_CONTEXTS_PRUNE.format(p="?"), prune)
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


class PostgresFindingsView(_Reads, Checkpoints, PostgresTrackingRecorder):
    """The findings view in PostgreSQL."""

    placeholder = "%s"

    def create_table(self) -> None:
        """Create the tracking table and the findings table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS findings ("
                "row_number BIGSERIAL PRIMARY KEY, finding_id TEXT UNIQUE NOT NULL, "
                "code TEXT NOT NULL, severity TEXT NOT NULL, rule TEXT NOT NULL, "
                "title TEXT NOT NULL, table_id TEXT NOT NULL, round_id TEXT, position INTEGER, "
                "dealer_id TEXT, recorded TEXT NOT NULL, expected TEXT NOT NULL, "
                "at_stake NUMERIC(14, 2) NOT NULL, occurred_at TEXT, event_ids TEXT NOT NULL, "
                "notification_id BIGINT NOT NULL, exposure NUMERIC(14, 2) NOT NULL DEFAULT 0, "
                "gaming_day TEXT, player_id TEXT)"
            )
            cursor.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = 'findings'"
            )
            present = {row["column_name"] for row in cursor.fetchall()}
            missing = [name for name in _ADDED_COLUMNS if name not in present]
            for name in missing:  # a store made before issue #22, under the migration lock
                cursor.execute(f"ALTER TABLE findings ADD COLUMN {name} {_ADDED_COLUMNS[name][1]}")
            if "exposure" in missing:
                for sql, params in _reclassify("%s", "0"):
                    cursor.execute(sql, params)
            for statement in _INDEXES:
                cursor.execute(statement)
            cursor.execute(_CONTEXTS_CREATE.format(blob="BYTEA"))
            cursor.execute(_CONTEXTS_INDEX)

    def record(
        self,
        findings: Sequence[ViewRow],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write findings and replay contexts, drop pruned replay points, and write the view's
        position and checkpoint, in one transaction."""
        found, contexts, pruned = _split(findings)
        with self.datastore.transaction(commit=True) as cursor:
            if found:
                cursor.executemany(
                    f"INSERT INTO findings ({', '.join(_COLUMNS)}) "
                    f"VALUES ({', '.join(['%s'] * len(_COLUMNS))}) "
                    "ON CONFLICT (finding_id) DO NOTHING",
                    [_row(finding, position) for finding, position in found],
                )
            if contexts:
                cursor.executemany(_CONTEXTS_INSERT.format(p="%s"), contexts)
            for prune in pruned:
                cursor.execute(_CONTEXTS_PRUNE.format(p="%s"), prune)
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


FindingsView = SQLiteFindingsView | PostgresFindingsView
