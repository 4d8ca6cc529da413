"""The access log: every view recorded, and no way to change or remove a record."""

import pytest
from eventsourcing.persistence import IntegrityError

from consumers.web.access_log import AccessKindError, read_access, record_access
from consumers.web.auth import User


def test_a_view_is_recorded_with_who_what_and_when(app):
    record_access(app.state.store, User("ann", "analyst"), "round", "T01/R0007")
    record_access(app.state.db, User("aud", "auditor"), "report", "mgr/2026-11-21")
    newest, first = read_access(app.state.db)
    assert (first.user, first.role, first.kind, first.ref) == (
        "ann",
        "analyst",
        "round",
        "T01/R0007",
    )
    assert first.at.endswith("+00:00")
    assert (newest.user, newest.kind) == ("aud", "report")
    assert [a.ref for a in read_access(app.state.db, user="ann")] == ["T01/R0007"]


def test_an_unknown_kind_of_view_is_a_defect_not_a_record(app):
    with pytest.raises(AccessKindError, match="unknown kind of view 'thing'"):
        record_access(app.state.db, User("ann", "analyst"), "thing", "x")
    assert read_access(app.state.db) == []


@pytest.mark.parametrize(
    "statement", ["UPDATE web_access_log SET user_name = 'nobody'", "DELETE FROM web_access_log"]
)
def test_the_database_refuses_to_change_or_remove_a_record(app, statement):
    record_access(app.state.db, User("ann", "analyst"), "finding", "f-1")
    with pytest.raises(IntegrityError, match="append-only"):
        app.state.db.execute(statement)
    assert [a.user for a in read_access(app.state.db)] == ["ann"]


@pytest.mark.parametrize("column", ["user_name", "kind", "ref"])
def test_a_filtered_read_of_the_log_is_an_index_seek_newest_first(app, column):
    """#16: the log gains a row on nearly every request; "who saw this round" must not walk it
    all back from its newest row until enough rows match (SQLite, the embedded default)."""
    if app.state.db.is_postgres:
        pytest.skip("the plan is SQLite's")
    plan = app.state.db.query(
        f"EXPLAIN QUERY PLAN SELECT id FROM web_access_log WHERE {column} = {{p}} "
        "ORDER BY id DESC LIMIT 1000",
        ["x"],
    )
    text = " ".join(str(row[3]) for row in plan)
    assert f"USING COVERING INDEX web_access_log_{column.split('_')[0]}" in text or (
        f"USING INDEX web_access_log_{column.split('_')[0]}" in text
    ), text
    assert "TEMP B-TREE" not in text, text


def test_a_users_views_of_one_kind_are_an_index_seek_newest_first(app):
    """#16: "which floors did bob open" reads bob's views of that kind, not every view of
    the kind (or of the user) back from the newest."""
    if app.state.db.is_postgres:
        pytest.skip("the plan is SQLite's")
    plan = app.state.db.query(
        "EXPLAIN QUERY PLAN SELECT id FROM web_access_log WHERE user_name = {p} AND kind = {p} "
        "ORDER BY id DESC LIMIT 1000",
        ["bob", "floor"],
    )
    text = " ".join(str(row[3]) for row in plan)
    assert "web_access_log_user_kind (user_name=? AND kind=?)" in text, text
    assert "TEMP B-TREE" not in text, text
