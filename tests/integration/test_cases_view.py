"""The cases view on both databases: filters by index, folds each case fact once whatever
catches it up, and equals a view rebuilt from the casebook."""

import json
import threading

import pytest

from audit.store.application import FactStore
from audit.store.casebook import CASEBOOK, Casebook
from consumers.web.auth import User
from consumers.web.cases import CaseError, CaseFilter, Cases
from projections.cases_view import catch_up_cases

ANN, BOB = User("ann", "analyst"), User("bob", "analyst")


def _finding(n: int, table: str = "PG-1") -> dict:
    return {"finding_id": f"F{n}", "code": "PG-SETTING", "severity": "warning",
            "rule": "PA 621a.6(c)", "title": "t", "table_id": table, "round_id": f"R{n}",
            "at_stake": "25.00"}  # fmt: skip


def _clear(store: FactStore) -> None:
    with store.factory.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
        for table in ("case_view", "case_view_tables", "case_view_head"):
            cursor.execute(f"DELETE FROM {table}")


def _everything(cases: Cases) -> list[dict]:
    return cases.select(CaseFilter()).cases


def test_a_list_is_filtered_and_paged_by_the_views_indexes(store_config):
    cases = Cases(FactStore(store_config))
    first = cases.open(ANN, _finding(1, "PG-1"))["case_id"]
    second = cases.open(BOB, _finding(2, "PG-2"))["case_id"]
    third = cases.open(ANN, _finding(3, "PG-3"))["case_id"]
    cases.link_round(ANN, first, "PG-9", "R77")
    cases.close(BOB, second, "referred", "to the board")
    with pytest.raises(CaseError, match="closed"):
        cases.note(ANN, second, "too late")

    def ids(query: CaseFilter) -> list[str]:
        return [c["case_id"] for c in cases.select(query).cases]

    assert ids(CaseFilter()) == [third, second, first]
    assert ids(CaseFilter(table_id="PG-9")) == [first]  # by a linked round's table
    assert ids(CaseFilter(table_id="PG-2")) == [second]  # by its finding's table
    assert ids(CaseFilter(status="open")) == [third, first]
    assert ids(CaseFilter(disposition="referred")) == [second]
    assert ids(CaseFilter(opened_by="ann")) == [third, first]
    assert ids(CaseFilter(finding_id="F2", status="closed")) == [second]
    page = cases.select(CaseFilter(status="open"), limit=1)
    assert ([c["case_id"] for c in page.cases], page.total, page.more) == ([third], 2, True)
    page = cases.select(CaseFilter(), limit=2, before=third)
    assert ([c["case_id"] for c in page.cases], page.total, page.more) == (
        [second, first],
        3,
        False,
    )
    assert cases.get(first)["rounds"][0] == {**cases.get(first)["rounds"][0], "round_id": "R77"}


def test_a_catch_up_from_a_head_another_has_passed_folds_no_fact_twice(store_config):
    """Two catch-ups from one head (two processes at once): the later one reads the facts
    again, finds each case's row already folded to them, and leaves it as it is."""
    store = FactStore(store_config)
    cases = Cases(store)
    case_id = cases.open(ANN, _finding(1))["case_id"]
    for n in range(3):
        cases.note(ANN, case_id, f"note {n}")
    before = _everything(cases)
    with store.factory.datastore.transaction(commit=True) as cursor:
        cursor.execute("UPDATE case_view_head SET version = 2")  # as a catch-up read it
    head, read = catch_up_cases(store, cases.view)
    assert read == 3  # the three notes, read again
    assert (head.version, head.facts) == (5, 4)
    assert _everything(cases) == before
    assert [n["text"] for n in cases.get(case_id)["notes"]] == ["note 0", "note 1", "note 2"]


def test_writers_at_once_collide_judge_again_and_leave_the_view_a_rebuild_gives(store_config):
    """Two apps on two connections record at once: every fact is stored once, case numbers
    run without a gap or a repeat, and the view equals one rebuilt from zero."""
    apps = [Cases(FactStore(store_config)) for _ in range(2)]
    failures: list[BaseException] = []

    def work(app: Cases, user: User, base: int) -> None:
        try:
            for n in range(8):
                case_id = app.open(user, _finding(base + n))["case_id"]
                app.note(user, case_id, f"{user.name} {n}")
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(app, user, base))
               for app, user, base in ((apps[0], ANN, 0), (apps[1], BOB, 100))]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    listed = _everything(apps[0])
    assert [c["case_id"] for c in listed] == [f"C-{n:05d}" for n in range(16, 0, -1)]
    assert all(len(c["notes"]) == 1 for c in listed)
    assert _everything(apps[1]) == listed
    _clear(apps[0].store)
    rebuilt = Cases(FactStore(store_config))
    assert _everything(rebuilt) == listed
    assert rebuilt.facts_read == 32
    assert rebuilt.chain_head() == apps[0].chain_head()


def test_a_fact_the_console_would_not_record_never_stops_the_view(store_config):
    """A note on a case never opened, or a case id not of the console's form, is kept in the
    casebook (verification shows it) and passed over or listed last by the view."""
    store = FactStore(store_config)
    book = Casebook(CASEBOOK)
    opened = {"type": "case_opened", "at": "t", "by": "ann", "role": "analyst",
              **_finding(1)}  # fmt: skip
    book.record("case_opened", json.dumps({**opened, "case_id": "C-00001"}))
    book.record("case_note_added", json.dumps({"type": "case_note_added", "case_id": "C-00404",
                                               "at": "t", "by": "ann", "text": "x"}))  # fmt: skip
    book.record("case_opened", json.dumps({**opened, "case_id": "odd"}))
    store.save(book)
    cases = Cases(store)
    assert [c["case_id"] for c in _everything(cases)] == ["C-00001", "odd"]
    assert cases.open(ANN, _finding(2))["case_id"] == "C-00002"


def test_a_page_is_read_in_its_order_from_an_index_never_sorted_whole(tmp_path):
    """#16: a list page walks an index newest first and stops at the page, whatever the
    filter the console offers (SQLite's plans: no sort of every match)."""
    import sqlite3

    from audit.store.application import StoreConfig

    config = StoreConfig.sqlite(tmp_path / "cases.sqlite")
    cases = Cases(FactStore(config))
    cases.open(ANN, _finding(1))
    for query in (CaseFilter(), CaseFilter(table_id="PG-1"), CaseFilter(status="open"),
                  CaseFilter(disposition="cleared"), CaseFilter(opened_by="ann"),
                  CaseFilter(table_id="PG-1", status="open")):  # fmt: skip
        source, number, params = query.source("?")
        with sqlite3.connect(config.sqlite_path) as db:
            plan = db.execute(
                f"EXPLAIN QUERY PLAN SELECT v.body FROM {source} ORDER BY {number} DESC LIMIT 51",
                params,
            ).fetchall()
        steps = " / ".join(row[-1] for row in plan)
        assert "TEMP B-TREE" not in steps, (query, steps)
        assert "INDEX" in steps, (query, steps)
