"""The floor, the MGR and variance pages, and the admin's users page: each role's own pages,
each rendered from the API's answer, each report view in the access log."""

import re

import pytest
from fastapi.testclient import TestClient

from consumers.web.access_log import read_access
from tests.builders.web_app import csrf_of, login, make_app
from tests.builders.web_floor import build_floor


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    return build_floor(tmp_path_factory.mktemp("floor"))


@pytest.fixture(scope="module")
def app(floor):
    return make_app(floor["root"], floor["store"])


def signed_in(app, name):
    client = TestClient(app, base_url="http://testserver")
    assert login(client, name).status_code == 303
    return client


@pytest.fixture(scope="module")
def auditor(app):
    return signed_in(app, "aud")


def test_each_role_lands_on_its_own_page(app):
    for name, home in (("ann", "/findings"), ("aud", "/reports/mgr"), ("adm", "/admin/users")):
        answer = signed_in(app, name).get("/", follow_redirects=False)
        assert answer.headers["location"] == home


def test_the_mgr_page_charts_each_shift_and_links_its_csv(app, auditor):
    day = auditor.get("/api/reports/gaming-days").json()["gaming_days"][-1]
    html = auditor.get("/reports/mgr").text  # the newest day by default
    report = auditor.get("/api/reports/mgr", params={"gaming_day": day}).json()
    assert f"gaming day {day}" in html
    assert html.count('<tr class="shift">') == len(report["rows"])
    dots = re.findall(r'<circle class="hold (inside|outside)"', html)
    assert len(dots) == sum(1 for r in report["rows"] if r["hold_pct"] is not None)
    assert f"/api/reports/mgr?gaming_day={day}&amp;format=csv" in html
    csv = auditor.get("/api/reports/mgr", params={"gaming_day": day, "format": "csv"})
    assert csv.headers["content-type"].startswith("text/csv")
    assert read_access(app.state.db, user="aud", kind="report")[0].ref == f"mgr/{day}"


def test_the_variance_page_lists_the_api_variances(auditor):
    day = auditor.get("/api/reports/gaming-days").json()["gaming_days"][-1]
    html = auditor.get(f"/reports/variance?gaming_day={day}").text
    api = auditor.get("/api/reports/variance", params={"gaming_day": day}).json()
    shown = re.findall(r'<article class="finding \w+ variance" data-code="([^"]+)"', html)
    assert shown == [v["code"] for v in api["variances"]]
    assert ("No variance on this gaming day." in html) == (not shown)


def test_a_bad_gaming_day_is_named(auditor):
    answer = auditor.get("/reports/mgr?gaming_day=21/11/2026")
    assert answer.status_code == 422
    assert "gaming_day" in answer.text


def test_an_analyst_reaches_neither_reports_nor_users(app):
    analyst = signed_in(app, "ann")
    for path in ("/reports/mgr", "/reports/variance", "/admin/users"):
        assert analyst.get(path).status_code == 403


def test_the_floor_shows_every_table_and_listens_for_alerts(floor, app):
    html = signed_in(app, "ann").get("/floor").text
    tables = {e["table_id"] for e in floor["events"] if e["type"] == "table_opened"}
    assert set(re.findall(r'<tr id="table-[^"]+" data-table="([^"]+)"', html)) == tables
    assert "/static/floor.js" in html


def test_an_admin_adds_a_user_whose_generated_password_is_shown_once(app):
    admin = signed_in(app, "adm")
    form = {"name": "new.analyst", "role": "analyst", "password": "", "csrf_token": csrf_of(admin)}
    page = admin.post("/admin/users", data=form)
    assert page.status_code == 201
    password = re.search(r'<code id="new-password">([^<]+)</code>', page.text).group(1)
    fresh = TestClient(app, base_url="http://testserver")
    assert login(fresh, "new.analyst", password).status_code == 303
    assert password not in admin.get("/admin/users").text


def test_a_user_form_without_the_csrf_token_is_refused(app):
    admin = signed_in(app, "adm")
    answer = admin.post("/admin/users", data={"name": "x", "role": "analyst"})
    assert answer.status_code == 403
    form = {"name": "ann", "role": "analyst", "password": "", "csrf_token": csrf_of(admin)}
    taken = admin.post("/admin/users", data=form)
    assert taken.status_code == 400
    assert "exists already" in taken.text
