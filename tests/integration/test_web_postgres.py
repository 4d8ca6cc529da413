"""The web on PostgreSQL as the roles run it: tables from the owner's migration, the access
log append-only by grant and by trigger, cases appended and chained by the serving role."""

import random

import psycopg
import pytest
from fastapi.testclient import TestClient

from audit.findings.finding import Severity
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from audit.store.verify import verify_chain
from consumers.serve import Service
from consumers.settings import SecretUrl, Settings
from consumers.web.access_log import read_access
from consumers.web.app import create_app
from consumers.web.auth import add_user
from projections.findings_view import FindingFilter
from tests.builders.db_roles import migrate_with_roles
from tests.builders.web_app import PASSWORD, csrf_of, login


def test_the_serving_role_keeps_cases_and_the_access_log_but_cannot_alter_it(
    monkeypatch,
    roles,
    tmp_path,
    capsys,
):
    migrate_with_roles(monkeypatch, roles, tmp_path, capsys)
    writer = roles["writer"]
    store = FactStore(StoreConfig.postgres(writer), create=False)
    events, _ = careless_shift(ShiftConfig(tables=2, rounds_per_table=10), random.Random(2033), 0.3)
    events = list(events)
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    Service(store).run_pass()
    app = create_app(Settings(database_url=SecretUrl(writer)), store=store)
    add_user(app.state.db, "ann", "analyst", PASSWORD)
    client = TestClient(app)
    assert login(client, "ann").status_code == 303
    finding = app.state.views.findings.select(FindingFilter())[0]
    assert client.get(f"/api/findings/{finding['finding_id']}").status_code == 200
    opened = client.post("/api/cases", json={"finding_id": finding["finding_id"]},
                         headers={"X-CSRF-Token": csrf_of(client)})  # fmt: skip
    assert opened.status_code == 201, opened.text
    report = verify_chain(store)
    assert report.ok, report.problems
    assert report.case_facts == 1
    assert [a.kind for a in read_access(app.state.db, user="ann")] == ["case", "finding"]
    for url in (writer, roles["reader"]):
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM web_access_log").fetchone()[0] == 2
            for statement in ("UPDATE web_access_log SET user_name = 'x'",
                              "DELETE FROM web_access_log", "TRUNCATE web_access_log"):  # fmt: skip
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
    owner = psycopg.connect(roles["owner"], autocommit=True)
    with owner, pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        owner.execute("DELETE FROM web_access_log")  # even the owner, by trigger

    # The floor's alert counts, grouped in SQL, read from PostgreSQL's rows as from SQLite's.
    alerts = app.state.views.findings.select(FindingFilter(min_severity=Severity.WARNING))
    floor = client.get("/api/floor").json()
    assert floor["alerts"] == len(alerts) > 0
    for table in floor["tables"]:
        mine = [a for a in alerts if a["table_id"] == table["table_id"]]
        assert (table["alerts"], table["critical"]) == (
            len(mine),
            sum(a["severity"] == "critical" for a in mine),
        )
