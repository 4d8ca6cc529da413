"""``/api/reports``: the MGR and the variance report as JSON and CSV, for auditors only."""

import csv
import io
from decimal import Decimal

import pytest

from consumers.report_cli import mgr_report, variance_rows
from consumers.web.access_log import read_access


def day_of(shift_app):
    (day,) = {
        ledger["key"]["gaming_day"] for ledger in shift_app.state.views.reconciliation.ledgers()
    }
    return day


def test_the_gaming_days_are_listed(shift_app, shift_as):
    body = shift_as("auditor").get("/api/reports/gaming-days").json()
    assert body == {"gaming_days": [day_of(shift_app)]}


def test_the_mgr_csv_is_the_commands_csv(shift_app, shift_as):
    day = day_of(shift_app)
    response = shift_as("auditor").get(
        "/api/reports/mgr", params={"gaming_day": day, "format": "csv"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert f'filename="mgr-{day}.csv"' in response.headers["content-disposition"]
    assert response.text == mgr_report(shift_app.state.store, day, "csv")


def test_the_mgr_json_has_each_shift_with_money_and_its_hold_band(shift_app, shift_as):
    day = day_of(shift_app)
    body = shift_as("auditor").get("/api/reports/mgr", params={"gaming_day": day}).json()
    rows = list(csv.DictReader(io.StringIO(mgr_report(shift_app.state.store, day, "csv"))))
    shifts = [r for r in rows if r["row_type"] == "shift"]
    assert len(body["rows"]) == len(shifts) == 8
    for got, expected in zip(body["rows"], shifts, strict=True):
        assert (got["table"], got["shift"]) == (expected["table"], expected["shift"])
        assert Decimal(got["replayed_win"]) == Decimal(expected["replayed_win"])
        assert got["findings"] == int(expected["findings"])
        if expected["hold_band"]:
            low, high = expected["hold_band"].split("..")
            assert (Decimal(got["hold_band_low_pct"]), Decimal(got["hold_band_high_pct"])) == (
                Decimal(low),
                Decimal(high),
            )
    assert [t["row_type"] for t in body["totals"]] == ["total"] * len(body["totals"])
    assert set(body["rows"][0]) == {"row_type", *rows[0]} | {
        "hold_band_low_pct",
        "hold_band_high_pct",
    }


def test_the_variance_report_carries_each_variance_with_its_evidence(shift_app, shift_as):
    day = day_of(shift_app)
    body = shift_as("auditor").get("/api/reports/variance", params={"gaming_day": day}).json()
    expected = variance_rows(shift_app.state.store, day)
    assert expected  # seed 2033 has accounting variances
    assert [v["code"] for v in body["variances"]] == [r["code"] for r in expected]
    assert all(v["code"].startswith("ACC-") and v["rule"] for v in body["variances"])
    assert body["variances"][0]["evidence"] == expected[0]["evidence"]
    text = (
        shift_as("auditor")
        .get("/api/reports/variance", params={"gaming_day": day, "format": "csv"})
        .text
    )
    header = "code,severity,rule,table_id,recorded,expected,at_stake,exposure,evidence"
    assert text.splitlines()[0] == header
    assert len(text.splitlines()) == len(expected) + 1


def test_a_day_without_ledgers_is_404_and_a_bad_day_422(shift_as):
    client = shift_as("auditor")
    missing = client.get("/api/reports/mgr", params={"gaming_day": "1999-01-01"})
    assert missing.status_code == 404
    assert missing.json()["detail"] == "no shift ledgers for gaming day '1999-01-01'"
    bad = client.get("/api/reports/variance", params={"gaming_day": "21/11/2026"})
    assert bad.status_code == 422
    assert bad.json()["detail"] == "gaming_day: not a date (YYYY-MM-DD): '21/11/2026'"
    assert client.get("/api/reports/mgr", params={"format": "pdf"}).status_code == 422


@pytest.mark.parametrize("role", ["analyst", "admin"])
def test_reports_are_for_auditors_only(shift_as, role):
    for path in ("/api/reports/mgr", "/api/reports/variance", "/api/reports/gaming-days"):
        response = shift_as(role).get(path)
        assert response.status_code == 403
        assert "needs auditor" in response.json()["detail"]


def test_each_report_read_is_in_the_access_log(shift_app, shift_as):
    day = day_of(shift_app)
    shift_as("auditor").get("/api/reports/mgr", params={"gaming_day": day, "format": "csv"})
    (newest,) = read_access(shift_app.state.db, user="aud", limit=1)
    assert (newest.role, newest.kind, newest.ref) == ("auditor", "report", f"mgr/{day}")


def test_the_newest_days_are_listed_and_the_console_links_only_those(tmp_path, monkeypatch):
    """#16: the report pages list the newest days, read from the newest end of the day index;
    an older day is still one date away."""
    from fastapi.testclient import TestClient

    from audit.store.application import FactStore, StoreConfig
    from consumers.serve import Service
    from consumers.web.console import reports as console_reports
    from tests.builders.gaming_days import Feed, gaming_day
    from tests.builders.web_app import login, make_app

    store = FactStore(StoreConfig.sqlite(tmp_path / "days.sqlite"))
    feed = Feed(store)
    for day in range(3):
        feed(gaming_day(day, seed=40 + day))
    Service(store).run_pass()
    client = TestClient(make_app(tmp_path, store=store), base_url="http://testserver")
    assert login(client, "aud").status_code == 303
    every = client.get("/api/reports/gaming-days").json()["gaming_days"]
    assert len(every) == 3
    assert every == sorted(every)
    newest = client.get("/api/reports/gaming-days", params={"limit": 2}).json()["gaming_days"]
    assert newest == every[1:]
    assert client.get("/api/reports/gaming-days", params={"limit": 0}).status_code == 422
    monkeypatch.setattr(console_reports, "RECENT_DAYS", 2)
    page = client.get("/reports/mgr").text
    assert f"<strong>{every[-1]}</strong>" in page  # the newest, shown
    assert f"?gaming_day={every[1]}" in page
    assert f"?gaming_day={every[0]}" not in page  # older than the picker's days
    assert 'name="gaming_day" type="date"' in page
    older = client.get("/reports/mgr", params={"gaming_day": every[0]}).text
    assert f"<strong>{every[0]}</strong>" not in older  # not a picker day, yet reported
    assert f"Master Game Report, gaming day {every[0]}</h1>" in older
