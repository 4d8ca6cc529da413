"""One page of the findings view, filtered and in the order the findings' events occurred.

The filter is the view's own :class:`FindingFilter` (its WHERE clause is the view's, so
every filter the view learns reaches the API unchanged); what the view's ``select`` does
not yet do, a page (LIMIT/OFFSET with the total), a round and a code prefix, is added
here as further clauses over columns the view already has.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from audit.findings.finding import Severity
from projections import findings_view
from projections.findings_view import FindingFilter, FindingsView

NAMES = ("row_number", *findings_view._COLUMNS)


COUNT_CAP = 10_000
"""The most matches a page counts: past it the total reads "10,000 or more", so opening the
queue costs the page, not every finding in history (#16)."""


@dataclass(frozen=True)
class Page:
    """One page of findings, and how many match in all (at most :data:`COUNT_CAP`)."""

    rows: list[dict[str, Any]]
    total: int
    total_exact: bool = True
    """False: more than ``total`` match; counting stopped there."""


def _placeholder(view: FindingsView) -> str:
    return "%s" if isinstance(view, findings_view.PostgresFindingsView) else "?"


def _clauses(
    query: FindingFilter, round_id: str | None, code_prefix: str | None, p: str
) -> tuple[str, list[Any]]:
    where, params = findings_view._where(query, p)
    if round_id is not None:
        where += f" AND round_id = {p}"
        params.append(round_id)
    if code_prefix is not None:
        # Codes are letters, digits and '-': no LIKE wildcard can be in the prefix.
        where += f" AND code LIKE {p}"
        params.append(code_prefix + "%")
    return where, params


def _run(view: FindingsView, sql: str, params: list[Any]) -> list[Any]:
    with view.datastore.transaction(commit=False) as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _as_dict(row: Any) -> dict[str, Any]:
    values = [row[name] for name in NAMES] if isinstance(row, dict) else list(row)
    return findings_view._as_dict(values, NAMES)


def select_page(
    view: FindingsView,
    query: FindingFilter,
    *,
    round_id: str | None = None,
    code_prefix: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> Page:
    """Return the findings the filter matches, ``limit`` from ``offset``, as they occurred."""
    p = _placeholder(view)
    where, params = _clauses(query, round_id, code_prefix, p)
    cap = COUNT_CAP
    total_rows = _run(
        view,
        f"SELECT COUNT(*) AS n FROM (SELECT 1 FROM findings WHERE {where} LIMIT {cap + 1}) AS m",
        params,
    )
    first = total_rows[0]
    counted = int(first["n"] if isinstance(first, dict) else first[0])
    rows = _run(view, *_page_sql(query, round_id, code_prefix, p, int(limit), int(offset)))
    return Page([_as_dict(row) for row in rows], min(counted, cap), counted <= cap)


def _page_sql(
    query: FindingFilter,
    round_id: str | None,
    code_prefix: str | None,
    p: str,
    limit: int,
    offset: int,
) -> tuple[str, list[Any]]:
    """Return the page's SELECT. "This severity and above" is two or three severities: an
    ``IN`` over them cannot come from the ``(severity, occurred_at)`` index in time order, so
    every match in history would be sorted for one page. Instead each severity's first
    ``offset + limit`` come in order from that index, and the few are merged (#16)."""
    columns, order = ", ".join(NAMES), query.order()
    severities = [] if query.min_severity is None else [
        s.value for s in Severity if s.rank >= query.min_severity.rank
    ]  # fmt: skip
    if not query.by_time or len(severities) < 2:
        where, params = _clauses(query, round_id, code_prefix, p)
        return (
            f"SELECT {columns} FROM findings WHERE {where} ORDER BY {order} "
            f"LIMIT {limit} OFFSET {offset}",
            params,
        )
    where, base = _clauses(replace(query, min_severity=None), round_id, code_prefix, p)
    arms, params = [], []
    for number, severity in enumerate(severities):
        arms.append(
            f"SELECT * FROM (SELECT {columns} FROM findings WHERE {where} AND severity = {p} "
            f"ORDER BY {order} LIMIT {offset + limit}) AS s{number}"
        )
        params += [*base, severity]
    return (
        f"{' UNION ALL '.join(arms)} ORDER BY {order} LIMIT {limit} OFFSET {offset}",
        params,
    )


def select_one(view: FindingsView, finding_id: str) -> dict[str, Any] | None:
    """Return one finding by its stable id, or None."""
    p = _placeholder(view)
    rows = _run(
        view, f"SELECT {', '.join(NAMES)} FROM findings WHERE finding_id = {p}", [finding_id]
    )
    return _as_dict(rows[0]) if rows else None
