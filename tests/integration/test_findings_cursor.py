"""The findings queue paged by cursor (``/api/findings?after=``), on both databases: every
finding once, in the view's own order, past the count's cap, the timeless ones included."""

import random

import pytest

from audit.findings.finding import Severity
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from consumers.web.api import findings_query
from consumers.web.api.findings_query import After, select_page
from projections import findings_view
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter

TIMELESS = 3
"""Findings with no event time added to the judged shift (as a finding of no event has)."""


@pytest.fixture
def view(store_config):
    store = FactStore(store_config)
    events, _ = careless_shift(ShiftConfig(tables=3, rounds_per_table=20), random.Random(7), 0.3)
    events = list(events)
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    projection = FindingsProjection(store)
    projection.catch_up()
    found = projection.view
    columns = ", ".join(findings_view._COLUMNS)
    copied = ", ".join(
        "finding_id || '-timeless'" if c == "finding_id" else "NULL" if c == "occurred_at" else c
        for c in findings_view._COLUMNS
    )
    with found.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            f"INSERT INTO findings ({columns}) SELECT {copied} FROM findings "
            f"WHERE row_number IN (SELECT row_number FROM findings ORDER BY row_number "
            f"LIMIT {TIMELESS})"
        )
    yield found  # with the store kept open: its pool is the view's
    store.close()


def _paged(view, query, code_prefix=None):
    seen, after, pages = [], None, 0
    while True:
        page = select_page(view, query, code_prefix=code_prefix, limit=4, after=after)
        seen += [row["finding_id"] for row in page.rows]
        pages += 1
        assert pages < 100, "the cursor went round"
        if page.after is None:
            return seen
        after = After.read(page.after.token())  # as a client carries it


@pytest.mark.parametrize("newest_first", [False, True], ids=["oldest", "newest"])
@pytest.mark.parametrize(
    "filters",
    [{}, {"min_severity": Severity.WARNING}, {"table_id": "PG-51"}, {"code_prefix": "PG-"}],
    ids=["everything", "warning and above", "a table", "a code prefix"],
)
def test_a_cursor_pages_every_finding_once_in_order_past_the_count_s_cap(
    view, newest_first, filters, monkeypatch
):
    monkeypatch.setattr(findings_query, "COUNT_CAP", 5)  # offsets stop at 5; cursors do not
    prefix = filters.pop("code_prefix", None)
    query = FindingFilter(by_time=True, newest_first=newest_first, **filters)
    expected = [
        row["finding_id"]
        for row in view.select(query)
        if prefix is None or row["code"].startswith(prefix)
    ]
    assert len(expected) > 5
    if not filters and prefix is None:
        assert sum(id_.endswith("-timeless") for id_ in expected) == TIMELESS
    assert _paged(view, query, prefix) == expected


def test_a_page_by_number_also_gives_the_cursor_of_the_next(view):
    query = FindingFilter(by_time=True)
    every = [row["finding_id"] for row in view.select(query)]
    second = select_page(view, query, limit=4, offset=4)
    assert [row["finding_id"] for row in second.rows] == every[4:8]
    assert second.after is not None
    third = select_page(view, query, limit=4, after=second.after)
    assert [row["finding_id"] for row in third.rows] == every[8:12]
    last = select_page(view, query, limit=len(every))
    assert last.after is None


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "query",
    [
        FindingFilter(by_time=True),
        FindingFilter(by_time=True, newest_first=True),
        FindingFilter(table_id="PG-51", by_time=True),
        FindingFilter(code="PG-DEAL-SEQUENCE", by_time=True, newest_first=True),
    ],
    ids=["everything", "newest first", "a table", "a code, newest first"],
)
def test_a_page_after_a_cursor_starts_at_its_key_in_an_index_never_sorted(view, query):
    """A page deep in years of findings costs the page: the run's clause is a range of the
    index the order comes from (SQLite keeps no statistics here, so the plan is the rule's)."""
    after = After("2026-11-21T22:00:00+00:00", 40)
    for run in findings_query._runs_after(query, after, "?", postgres=False):
        sql, params = findings_query._page_sql(query, None, None, "?", 51, 0, run)
        with view.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row[3]) for row in cursor.fetchall())
        assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan
        assert "TEMP B-TREE" not in plan, plan
        if "occurred_at IS NULL" not in sql:
            assert "occurred_at>?" in plan.replace(" ", "") or "occurred_at<?" in plan.replace(
                " ", ""
            ), plan
