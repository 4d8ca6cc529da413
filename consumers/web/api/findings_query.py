"""One page of the findings view, filtered and in the order the findings' events occurred.

The filter is the view's own :class:`FindingFilter` (its WHERE clause is the view's, so
every filter the view learns reaches the API unchanged); what the view's ``select`` does
not yet do, a page (LIMIT/OFFSET with the total), a round and a code prefix, is added
here as further clauses over columns the view already has.

A page may also start after a cursor (:class:`After`: the sort key of the last finding a page
showed), so a client pages through any number of findings, each page read from an index at
the cost of the page, where an offset reads every row before it and stops at the count's cap.
The findings with no event time sit together at one end of the order (first ascending on
SQLite, last on PostgreSQL), so the order is two runs, read one after the other: the
cursor's run from its key, then the run after it from its start.

A code prefix is read as the codes stored under it (:func:`stored_codes`, a seek each down
the code index), not as ``LIKE``: neither database can take a case-insensitive (SQLite) or
collated (PostgreSQL) ``LIKE`` from the index, so a rare prefix walked every finding stored
(#16).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from audit.findings.finding import Severity
from audit.store.rows import fetch_rows
from projections import findings_view
from projections.findings_view import FindingFilter, FindingsView

NAMES = ("row_number", *findings_view._COLUMNS)


COUNT_CAP = 10_000
"""The most matches a page counts: past it the total reads "10,000 or more", so opening the
queue costs the page, not every finding in history (#16)."""


@dataclass(frozen=True)
class After:
    """A page's start: just after the finding of this sort key, in the page's order."""

    occurred_at: str | None
    row_number: int

    def token(self) -> str:
        """Return the cursor as a client carries it: opaque, URL-safe."""
        raw = json.dumps([self.occurred_at, self.row_number], separators=(",", ":"))
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @classmethod
    def read(cls, token: str) -> After:
        """Return the cursor a token carries; raise ValueError for one this API did not give."""
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            occurred_at, row_number = json.loads(raw)
        except (binascii.Error, UnicodeDecodeError, ValueError, TypeError):
            raise ValueError(f"not a cursor a page gave: {token!r}") from None
        well_formed = isinstance(occurred_at, str | None) and type(row_number) is int
        if not well_formed or row_number < 0:
            raise ValueError(f"not a cursor a page gave: {token!r}")
        return cls(occurred_at, row_number)


@dataclass(frozen=True)
class Page:
    """One page of findings, and how many match in all (at most :data:`COUNT_CAP`)."""

    rows: list[dict[str, Any]]
    total: int
    total_exact: bool = True
    """False: more than ``total`` match; counting stopped there."""
    after: After | None = None
    """Where the next page starts, or None when this one is the last."""


Run = tuple[str, list[Any]]
"""A further clause (and its parameters) that keeps one run of the order."""


def _clauses(
    query: FindingFilter,
    round_id: str | None,
    codes: Sequence[str] | None,
    p: str,
    run: Run = ("", []),
) -> tuple[str, list[Any]]:
    where, params = findings_view._where(query, p)
    where, params = where + run[0], params + run[1]
    if round_id is not None:
        where += f" AND round_id = {p}"
        params.append(round_id)
    if codes is not None:
        where += f" AND code IN ({', '.join([p] * len(codes))})" if codes else " AND 1 = 0"
        params += list(codes)
    return where, params


def stored_codes(view: FindingsView, prefix: str) -> list[str]:
    """Return the codes stored that start with ``prefix``, in order: one seek down the code
    index per code (the catalogue has under a hundred), so a stored code the catalogue no
    longer names is found too."""
    p, found = view.placeholder, list[str]()
    rows = _run(view, f"SELECT min(code) AS c FROM findings WHERE code >= {p}", [prefix])
    while True:
        code = rows[0][0]
        if code is None or not str(code).startswith(prefix):
            return found
        found.append(str(code))
        rows = _run(view, f"SELECT min(code) AS c FROM findings WHERE code > {p}", [code])


def _run(view: FindingsView, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    return fetch_rows(view.datastore, sql, params)


def _as_dict(row: tuple[Any, ...]) -> dict[str, Any]:
    return findings_view._as_dict(row, NAMES)


def select_page(
    view: FindingsView,
    query: FindingFilter,
    *,
    round_id: str | None = None,
    code_prefix: str | None = None,
    limit: int = 50,
    offset: int = 0,
    after: After | None = None,
) -> Page:
    """Return the findings the filter matches, ``limit`` from ``offset`` or after ``after``,
    as they occurred, with where the next page starts."""
    p = view.placeholder
    codes = None if code_prefix is None else stored_codes(view, code_prefix)
    where, params = _clauses(query, round_id, codes, p)
    cap = COUNT_CAP
    total_rows = _run(
        view,
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM findings WHERE {where} LIMIT {cap + 1}) AS m",
        params,
    )
    counted = int(total_rows[0][0])
    wanted = int(limit) + 1  # one more than shown: whether a next page starts after it
    if after is None:
        rows = _run(view, *_page_sql(query, round_id, codes, p, wanted, int(offset)))
    else:
        rows = []
        for run in _runs_after(query, after, p, postgres=p == "%s"):
            rows += _run(view, *_page_sql(query, round_id, codes, p, wanted - len(rows), 0, run))
            if len(rows) >= wanted:
                break
    found = [_as_dict(row) for row in rows[:limit]]
    last = found[-1] if len(rows) > limit else None
    start = None if last is None else After(last["occurred_at"], int(last["row_number"]))
    return Page(found, min(counted, cap), counted <= cap, start)


def _runs_after(query: FindingFilter, after: After, p: str, *, postgres: bool) -> list[Run]:
    """Return the clauses that read the order after ``after``, run by run: the rest of its run
    from its key, then the run after it, if any, whole. Each clause is a range of the index
    the page is read from, so a page costs the page wherever it starts (#16)."""
    beyond = "<" if query.newest_first else ">"
    if not query.by_time:
        return [(f" AND row_number {beyond} {p}", [after.row_number])]  # as found
    # Where the findings with no event time sort: first ascending on SQLite, last on PostgreSQL.
    timeless_first = postgres == query.newest_first
    at = "<=" if query.newest_first else ">="
    if after.occurred_at is None:
        rest = (f" AND occurred_at IS NULL AND row_number {beyond} {p}", [after.row_number])
        return [rest, (" AND occurred_at IS NOT NULL", [])] if timeless_first else [rest]
    key: list[Any] = [after.occurred_at, after.occurred_at, after.row_number]
    rest = (f" AND occurred_at {at} {p} AND (occurred_at {beyond} {p} OR row_number {beyond} {p})",
            key)  # fmt: skip
    return [rest] if timeless_first else [rest, (" AND occurred_at IS NULL", [])]


def _page_sql(
    query: FindingFilter,
    round_id: str | None,
    codes: Sequence[str] | None,
    p: str,
    limit: int,
    offset: int,
    run: Run = ("", []),
) -> tuple[str, list[Any]]:
    """Return the page's SELECT, within ``run`` (a cursor's part of the order). Several codes
    (a prefix's), or "this severity and above" (two or three severities) with no other
    filter, cannot come in time order from one index, so every match in history would be
    sorted for one page. Instead each code's, or
    each severity's, first ``offset + limit`` come in order from its own index, and the few
    are merged (#16)."""
    columns, order = ", ".join(NAMES), query.order()
    severities = [] if query.min_severity is None else [
        s.value for s in Severity if s.rank >= query.min_severity.rank
    ]  # fmt: skip
    alone = not any((query.table_id, query.dealer_id, query.player_id, query.gaming_day,
                     query.code, round_id))  # fmt: skip
    if query.by_time and codes is not None and len(codes) > 1:
        where, base = _clauses(replace(query, min_severity=None), round_id, None, p, run)
        if severities:  # checked row by row: each arm comes from its code's index
            where += f" AND severity || '' IN ({', '.join([p] * len(severities))})"
            base += severities
        arms = [(f"{where} AND code = {p}", [*base, code]) for code in codes]
    elif query.by_time and len(severities) > 1 and alone and codes is None:
        where, base = _clauses(replace(query, min_severity=None), round_id, None, p, run)
        arms = [(f"{where} AND severity = {p}", [*base, each]) for each in severities]
    else:
        where, params = _clauses(query, round_id, codes, p, run)
        return (
            f"SELECT {columns} FROM findings WHERE {where} ORDER BY {order} "
            f"LIMIT {limit} OFFSET {offset}",
            params,
        )
    selects, params = [], []
    for number, (condition, arm_params) in enumerate(arms):
        selects.append(
            f"SELECT * FROM (SELECT {columns} FROM findings WHERE {condition} "
            f"ORDER BY {order} LIMIT {offset + limit}) AS s{number}"
        )
        params += arm_params
    return (
        f"{' UNION ALL '.join(selects)} ORDER BY {order} LIMIT {limit} OFFSET {offset}",
        params,
    )


def select_one(view: FindingsView, finding_id: str) -> dict[str, Any] | None:
    """Return one finding by its stable id, or None."""
    p = view.placeholder
    rows = _run(
        view, f"SELECT {', '.join(NAMES)} FROM findings WHERE finding_id = {p}", [finding_id]
    )
    return _as_dict(rows[0]) if rows else None
