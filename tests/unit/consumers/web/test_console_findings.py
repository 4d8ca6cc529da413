"""The findings queue and a finding's page: the API's filters from a form, the rule and money
shown, the replay one click away, each view in the access log, bad input named on the page."""

import re

import pytest
from fastapi.testclient import TestClient

from consumers.web.access_log import read_access
from tests.builders.web_app import login, make_app
from tests.builders.web_floor import build_floor


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    return build_floor(tmp_path_factory.mktemp("floor"))


@pytest.fixture(scope="module")
def app(floor):
    return make_app(floor["root"], floor["store"], timezone="America/New_York")


@pytest.fixture(scope="module")
def analyst(app):
    client = TestClient(app, base_url="http://testserver")
    assert login(client, "ann").status_code == 303
    return client


def rows(html):
    return re.findall(r'<tr class="finding-row" data-code="([^"]+)"', html)


def test_the_queue_lists_what_the_api_lists(analyst):
    html = analyst.get("/findings").text
    api = analyst.get("/api/findings", params={"per_page": 50, "order": "newest"}).json()
    assert rows(html) == [f["code"] for f in api["findings"]]
    assert "PG-SETTLE-PAYOUT" in rows(html)
    assert f"{api['total']} finding" in html


def test_the_queue_opens_newest_first_and_asks_for_oldest_on_every_page(shift_as, monkeypatch):
    from consumers.web.console import findings as console

    client = shift_as("analyst")
    monkeypatch.setattr(console, "PER_PAGE", 3)
    oldest = client.get("/api/findings", params={"per_page": 500}).json()["findings"]
    codes = [f["code"] for f in oldest]
    assert len(set(codes)) > 3  # the two orders' first pages differ
    html = client.get("/findings").text
    assert rows(html) == codes[::-1][:3]  # what just happened opens the queue
    assert '<option value="newest" selected>' in html
    html = client.get("/findings?order=oldest").text
    assert rows(html) == codes[:3]
    assert '<option value="oldest" selected>' in html
    next_link = html.split(">Next page<")[0].rsplit("href=", 1)[1]
    assert next_link == '"/findings?order=oldest&amp;page=2"'
    assert rows(client.get("/findings?order=oldest&page=2").text) == codes[3:6]
    bad = client.get("/findings?order=sideways")
    assert bad.status_code == 422
    assert "order:" in bad.text


def test_the_form_filters_by_code_prefix_and_leaves_empty_fields_out(analyst):
    html = analyst.get("/findings?table=&dealer=&code=&code_prefix=PG-SETTLE&severity=").text
    assert rows(html)
    assert all(code.startswith("PG-SETTLE") for code in rows(html))
    assert 'value="PG-SETTLE"' in html  # the form keeps what was asked


def test_a_bad_filter_is_named_on_the_page(analyst):
    bad = analyst.get("/findings?code=pg%25settle")
    assert bad.status_code == 422
    assert "code:" in bad.text
    late = analyst.get("/findings?since=yesterday")
    assert late.status_code == 422
    assert "since:" in late.text
    assert "Traceback" not in bad.text + late.text


def test_the_form_filters_by_gaming_day_and_player(analyst):
    every = rows(analyst.get("/findings").text)
    assert rows(analyst.get("/findings?gaming_day=2026-11-21").text) == every
    assert rows(analyst.get("/findings?gaming_day=2026-11-22").text) == []
    bad = analyst.get("/findings?gaming_day=21.11.2026")
    assert bad.status_code == 422
    assert "gaming_day" in bad.text
    payout = analyst.get("/api/findings", params={"code": "PG-SETTLE-PAYOUT"}).json()
    player = payout["findings"][0]["player_id"]
    assert player
    assert "PG-SETTLE-PAYOUT" in rows(analyst.get(f"/findings?player={player}").text)
    assert rows(analyst.get("/findings?player=nobody-at-all").text) == []


def test_a_local_time_without_offset_is_the_casinos(analyst):
    every = rows(analyst.get("/findings").text)
    # The simulated shift is in the evening of 2026-11-21 UTC; in New York, before 17:00 that
    # day is before all of it, and after midnight the next day (05:00 UTC) is after none of it.
    assert rows(analyst.get("/findings?since=2026-11-21T10:00").text) == every
    assert rows(analyst.get("/findings?since=2026-11-23T00:00").text) == []


def test_a_finding_shows_its_rule_money_and_a_link_to_its_step(app, floor, analyst):
    api = analyst.get("/api/findings", params={"code": "PG-SETTLE-PAYOUT"}).json()
    finding = api["findings"][0]
    html = analyst.get(f"/findings/{finding['finding_id']}").text
    assert finding["rule"] in html
    assert "$5.00" in html
    replay = f"/rounds/{finding['round_id']}?table={finding['table_id']}"
    assert f"{replay}#finding-{finding['finding_id']}" in html
    assert 'name="csrf_token"' in html
    assert read_access(app.state.db, user="ann", kind="finding")[0].ref == finding["finding_id"]


def test_an_unknown_finding_is_a_404_page(analyst):
    answer = analyst.get("/findings/not-a-finding")
    assert answer.status_code == 404
    assert "not-a-finding" in answer.text


def test_an_auditor_cannot_open_the_queue(app):
    client = TestClient(app, base_url="http://testserver")
    login(client, "aud")
    assert client.get("/findings").status_code == 403
