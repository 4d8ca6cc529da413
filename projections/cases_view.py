"""The cases view: each analyst's case as the casebook's facts left it, in the store's database.

The casebook (``audit/store/casebook.py``) is one stream of case facts, years of them. This
view keeps one row per case (its state as JSON, and the columns a list filters and sorts
by), a row per table a case concerns (its finding's, and each linked round's), and the
casebook's head: the version and chain link the view has folded in. Reading or recording
a case catches the view up with the facts since its head and then reads rows by index, so a
request costs the facts recorded since the last one, by any writer, and the rows it asks
for: not the casebook's history, and nothing held in memory between requests (#16).

Several processes may catch the view up at once (the console's workers, a second host).
Each row carries the casebook version it was folded to, and a row, the head and a
table's link are only ever moved forward (an upsert that keeps the later version), so two
catch-ups from the same head, or one from a head another has passed, write the same
rows or nothing: a fact is never folded into a case twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.facts.chain import GENESIS
from audit.store.application import FactStore
from audit.store.casebook import Casebook, casebook_id
from projections.rows_view import RowsView, open_view

_BATCH = 500
"""Case facts folded per transaction: a view built from zero holds at most this many."""
_LOOKUP = 200
"""Case ids per ``IN`` list when reading the rows a batch of facts touches."""
_HEAD = "casebook"

_CREATE = (
    "CREATE TABLE IF NOT EXISTS case_view (case_id TEXT PRIMARY KEY, number BIGINT NOT NULL, "
    "status TEXT NOT NULL, disposition TEXT, finding_id TEXT NOT NULL, opened_by TEXT NOT NULL, "
    "at_version BIGINT NOT NULL, body TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS case_view_tables (table_id TEXT NOT NULL, case_id TEXT NOT NULL, "
    "number BIGINT NOT NULL, PRIMARY KEY (table_id, case_id))",
    "CREATE TABLE IF NOT EXISTS case_view_head (name TEXT PRIMARY KEY, "
    "version BIGINT NOT NULL, chain_head TEXT NOT NULL)",
    # what a list filters on, newest first; the number alone for the next case's
    "CREATE INDEX IF NOT EXISTS case_view_number ON case_view (number)",
    "CREATE INDEX IF NOT EXISTS case_view_status ON case_view (status, number)",
    "CREATE INDEX IF NOT EXISTS case_view_disposition ON case_view (disposition, number)",
    "CREATE INDEX IF NOT EXISTS case_view_opened_by ON case_view (opened_by, number)",
    "CREATE INDEX IF NOT EXISTS case_view_finding ON case_view (finding_id)",
    "CREATE INDEX IF NOT EXISTS case_view_tables_number ON case_view_tables (table_id, number)",
)
_UPSERT_CASE = (
    "INSERT INTO case_view (case_id, number, status, disposition, finding_id, opened_by, "
    "at_version, body) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}) "
    "ON CONFLICT (case_id) DO UPDATE SET number = excluded.number, status = excluded.status, "
    "disposition = excluded.disposition, finding_id = excluded.finding_id, "
    "opened_by = excluded.opened_by, at_version = excluded.at_version, body = excluded.body "
    "WHERE case_view.at_version < excluded.at_version"
)
_INSERT_TABLE = (
    "INSERT INTO case_view_tables (table_id, case_id, number) VALUES ({p}, {p}, {p}) "
    "ON CONFLICT DO NOTHING"
)
_UPSERT_HEAD = (
    "INSERT INTO case_view_head (name, version, chain_head) VALUES ({p}, {p}, {p}) "
    "ON CONFLICT (name) DO UPDATE SET version = excluded.version, "
    "chain_head = excluded.chain_head WHERE case_view_head.version < excluded.version"
)


def case_number(case_id: str) -> int:
    """Return a case id's number (``C-00042`` is 42): cases sort by it, past C-99999 too.

    An id not of that form (never made by the console) is numbered -1: listed last, and
    never a reason for the view to stop."""
    digits = case_id.removeprefix("C-")
    return int(digits) if digits.isdigit() else -1


def apply_case_fact(cases: dict[str, dict[str, Any]], fact: dict[str, Any]) -> None:
    """Fold one case fact into the state of the cases it may touch (a new dict for the case)."""
    kind, case_id = fact["type"], fact["case_id"]
    if kind == "case_opened":
        cases[case_id] = {**{k: v for k, v in fact.items() if k != "type"}, "status": "open",
                          "notes": [], "rounds": [], "closed": None}  # fmt: skip
        return
    case = cases.get(case_id)
    if case is None:
        return  # a fact about a case never opened: kept in the stream, shown by verification
    if kind == "case_note_added":
        note = {"at": fact["at"], "by": fact["by"], "text": fact["text"]}
        cases[case_id] = {**case, "notes": [*case["notes"], note]}
    elif kind == "case_round_linked":
        linked = {"at": fact["at"], "by": fact["by"], "table_id": fact["table_id"],
                  "round_id": fact["round_id"]}  # fmt: skip
        cases[case_id] = {**case, "rounds": [*case["rounds"], linked]}
    elif kind == "case_closed":
        closed = {"at": fact["at"], "by": fact["by"], "disposition": fact["disposition"],
                  "note": fact["note"]}  # fmt: skip
        cases[case_id] = {**case, "status": "closed", "closed": closed}


@dataclass(frozen=True)
class CaseHead:
    """The casebook as a view has folded it: its version (0 before any fact) and chain head."""

    version: int = 0
    chain_head: str = GENESIS

    @property
    def facts(self) -> int:
        """How many case facts the casebook holds to this version (its version 1 is its
        creation)."""
        return max(self.version - 1, 0)


@dataclass(frozen=True)
class CaseFilter:
    """What a list of cases is narrowed by; every field narrows."""

    status: Literal["open", "closed"] | None = None
    disposition: str | None = None
    table_id: str | None = None
    """A case's finding's table, or a table one of its linked rounds was played at."""
    finding_id: str | None = None
    opened_by: str | None = None

    def source(self, p: str) -> tuple[str, str, list[Any]]:
        """Return the rows to read (``FROM ...``), their condition and its parameters (``p``
        each placeholder), and the number column to order by: a table's cases are read from
        its links in number order, so a table's page is an index walk, not a sort."""
        clauses, params = ["1 = 1"], []
        rows, number = "case_view v", "v.number"
        if self.table_id is not None:
            rows = "case_view_tables t JOIN case_view v ON v.case_id = t.case_id"
            number = "t.number"
            clauses.append(f"t.table_id = {p}")
            params.append(self.table_id)
        columns = {"status": self.status, "disposition": self.disposition,
                   "finding_id": self.finding_id, "opened_by": self.opened_by}  # fmt: skip
        for column, value in columns.items():
            if value is not None:
                clauses.append(f"v.{column} = {p}")
                params.append(value)
        return f"{rows} WHERE {' AND '.join(clauses)}", number, params


@dataclass(frozen=True)
class CasePage:
    """Cases, newest first, and how many the filter keeps in all."""

    cases: list[dict[str, Any]]
    total: int
    more: bool
    """Older cases the filter keeps follow the last one shown."""


class _CasesView(RowsView):
    """What both databases' views share: the view's tables (made by :class:`RowsView`, the
    first statement as its table, the rest after it) and the reads."""

    create_sql = _CREATE[0]
    index_sql = _CREATE[1:]

    def head(self) -> CaseHead:
        """Return the casebook's head as far as the view has folded it."""
        rows = self.query(
            "SELECT version, chain_head FROM case_view_head WHERE name = {p}", [_HEAD]
        )
        return CaseHead(int(rows[0][0]), str(rows[0][1])) if rows else CaseHead()

    def versioned(self, case_ids: Iterable[str]) -> dict[str, tuple[int, dict[str, Any]]]:
        """Return each stored case of ``case_ids`` with the casebook version it was folded to."""
        ids, found = sorted(set(case_ids)), {}
        for start in range(0, len(ids), _LOOKUP):
            chunk = ids[start : start + _LOOKUP]
            rows = self.query(
                "SELECT case_id, at_version, body FROM case_view "
                f"WHERE case_id IN ({', '.join(['{p}'] * len(chunk))})",
                chunk,
            )
            found.update({row[0]: (int(row[1]), json.loads(row[2])) for row in rows})
        return found

    def write(self, cases: dict[str, tuple[int, dict[str, Any]]], head: CaseHead) -> None:
        """Write folded cases (each with its version), their tables and the head, in one
        transaction; a row or head already at a later version is left as it is."""
        rows, links = [], set()
        for case_id, (version, case) in cases.items():
            closed = case["closed"] or {}
            number = case_number(case_id)
            rows.append((case_id, number, case["status"], closed.get("disposition"),
                         case["finding_id"], case["by"], version, json.dumps(case)))  # fmt: skip
            links.add((case["table_id"], case_id, number))
            links.update((linked["table_id"], case_id, number) for linked in case["rounds"])
        p = self.placeholder
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            if rows:
                cursor.executemany(_UPSERT_CASE.format(p=p), rows)
            if links:
                cursor.executemany(_INSERT_TABLE.format(p=p), sorted(links))
            cursor.execute(_UPSERT_HEAD.format(p=p), (_HEAD, head.version, head.chain_head))

    def case(self, case_id: str) -> dict[str, Any] | None:
        """Return one case, or None."""
        rows = self.query("SELECT body FROM case_view WHERE case_id = {p}", [case_id])
        return json.loads(rows[0][0]) if rows else None

    def last_number(self) -> int:
        """Return the highest case number stored (0 before the first case)."""
        rows = self.query("SELECT max(number) FROM case_view")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    def select(
        self, query: CaseFilter, *, limit: int | None = None, before: str | None = None
    ) -> CasePage:
        """Return the cases the filter keeps, newest first: at most ``limit`` of them, older
        than case ``before`` if given, with how many the filter keeps in all."""
        source, number, params = query.source("{p}")
        total = int(self.query(f"SELECT count(*) FROM {source}", params)[0][0])
        if before is not None:
            source, params = f"{source} AND {number} < {{p}}", [*params, case_number(before)]
        page = "" if limit is None else f" LIMIT {int(limit) + 1}"
        rows = self.query(f"SELECT v.body FROM {source} ORDER BY {number} DESC{page}", params)
        shown = rows if limit is None else rows[:limit]
        return CasePage([json.loads(row[0]) for row in shown], total, len(rows) > len(shown))


class SQLiteCasesView(_CasesView, SQLiteTrackingRecorder):
    """The cases view in the embedded SQLite store."""


class PostgresCasesView(_CasesView, PostgresTrackingRecorder):
    """The cases view in PostgreSQL."""

    placeholder = "%s"


CasesView = SQLiteCasesView | PostgresCasesView


def open_cases_view(store: FactStore) -> CasesView:
    """Return the cases view in the store's own database, creating it if need be."""
    return open_view(store, SQLiteCasesView, PostgresCasesView)


def catch_up_cases(store: FactStore, view: CasesView) -> tuple[CaseHead, int]:
    """Fold the case facts recorded since the view's head into it; return the head reached and
    how many case facts were read."""
    head, read = view.head(), 0
    while True:
        events = list(store.events.get(casebook_id(), gt=head.version, limit=_BATCH))
        if not events:
            return head, read
        facts = []
        for event in events:
            if isinstance(event, Casebook.CaseRecorded):
                facts.append((event.originator_version, json.loads(event.fact_json)))
                head = CaseHead(event.originator_version, event.chain_hash)
            elif isinstance(event, Casebook.Created):
                head = CaseHead(event.originator_version, GENESIS)
            else:
                raise TypeError(f"the casebook holds a {type(event).__name__}")
        read += len(facts)
        stored = view.versioned(fact["case_id"] for _, fact in facts)
        folded: dict[str, dict[str, Any]] = {k: case for k, (_, case) in stored.items()}
        changed: dict[str, tuple[int, dict[str, Any]]] = {}
        for version, fact in facts:
            case_id = fact["case_id"]
            if case_id in stored and stored[case_id][0] >= version:
                continue  # another catch-up folded this fact in already
            apply_case_fact(folded, fact)
            if case_id in folded:
                changed[case_id] = (version, folded[case_id])
        view.write(changed, head)
        if len(events) < _BATCH:
            return head, read
