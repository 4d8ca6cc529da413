"""The cases pages: a case opened from a finding's page, noted, a round linked, closed with a
disposition, listed and filtered; each change a CSRF-checked form, each read in the access log."""

import re

import pytest
from fastapi.testclient import TestClient

from consumers.web.access_log import read_access
from tests.builders.web_app import csrf_of, login, make_app
from tests.builders.web_floor import TWIN_ROUND, build_floor


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    return build_floor(tmp_path_factory.mktemp("floor"))


@pytest.fixture(scope="module")
def app(floor):
    return make_app(floor["root"], floor["store"])


@pytest.fixture(scope="module")
def analyst(app):
    client = TestClient(app, base_url="http://testserver")
    assert login(client, "ann").status_code == 303
    return client


@pytest.fixture(scope="module")
def finding(analyst):
    return analyst.get("/api/findings", params={"code": "PG-SETTLE-PAYOUT"}).json()["findings"][0]


def post(client, path, **form):
    return client.post(path, data={**form, "csrf_token": csrf_of(client)}, follow_redirects=False)


def test_a_case_is_opened_noted_linked_and_closed_from_forms(app, floor, analyst, finding):
    opened = post(analyst, "/cases", finding_id=finding["finding_id"], note="paid $5 over")
    assert opened.status_code == 303
    case_url = opened.headers["location"]
    case_id = case_url.rsplit("/", 1)[1]
    assert re.fullmatch(r"C-\d{5}", case_id)
    page = analyst.get(case_url).text
    assert finding["rule"] in page
    assert "paid $5 over" in page
    assert 'id="close-form"' in page

    assert post(analyst, f"{case_url}/notes", text="dealer spoken to").status_code == 303
    other = next(e for e in floor["events"] if e["type"] == "round_started"
                 and e["round_id"] != finding["round_id"])  # fmt: skip
    assert post(analyst, f"{case_url}/rounds", round_id=other["round_id"]).status_code == 303
    closed = post(analyst, f"{case_url}/close", disposition="procedure_violation", note="retrain")
    assert closed.status_code == 303

    case = analyst.get(f"/api/cases/{case_id}").json()
    assert case["status"] == "closed"
    assert case["closed"]["disposition"] == "procedure_violation"
    assert [n["text"] for n in case["notes"]] == ["paid $5 over", "dealer spoken to"]
    assert [r["round_id"] for r in case["rounds"]] == [other["round_id"]]
    page = analyst.get(case_url).text
    assert 'id="close-form"' not in page  # a closed case takes nothing more
    assert ("case", case_id) in [(a.kind, a.ref) for a in read_access(app.state.db, user="ann")]

    on_finding = analyst.get(f"/findings/{finding['finding_id']}").text
    assert f'<a href="/cases/{case_id}">{case_id}</a> (closed, procedure_violation)' in on_finding
    listed = analyst.get("/cases?status=closed&disposition=procedure_violation").text
    assert f'data-case="{case_id}"' in listed
    assert f'data-case="{case_id}"' not in analyst.get("/cases?status=open").text
    export = re.search(r'<a href="([^"]+)" download>Export CSV', listed).group(1)
    csv = analyst.get(export.replace("&amp;", "&"))
    assert csv.headers["content-type"].startswith("text/csv")
    assert case_id in csv.text


def test_a_closed_case_refuses_a_note_and_bad_fields_are_named(analyst, finding):
    case_url = post(analyst, "/cases", finding_id=finding["finding_id"]).headers["location"]
    empty = post(analyst, f"{case_url}/notes", text="")
    assert empty.status_code == 422
    assert "text" in empty.text
    wrong = post(analyst, f"{case_url}/close", disposition="shrugged")
    assert wrong.status_code == 422
    assert "disposition" in wrong.text
    ambiguous = post(analyst, f"{case_url}/rounds", round_id=TWIN_ROUND)
    assert ambiguous.status_code == 422
    assert post(analyst, f"{case_url}/close", disposition="cleared").status_code == 303
    late = post(analyst, f"{case_url}/notes", text="too late")
    assert late.status_code == 409
    assert "closed" in late.text
    assert "Traceback" not in empty.text + wrong.text + late.text


def test_a_form_without_its_csrf_token_changes_nothing(analyst, finding):
    before = len(analyst.get("/api/cases").json())
    refused = analyst.post("/cases", data={"finding_id": finding["finding_id"]},
                           follow_redirects=False)  # fmt: skip
    assert refused.status_code == 403
    assert len(analyst.get("/api/cases").json()) == before


def test_an_unknown_finding_or_case_is_404(analyst):
    assert post(analyst, "/cases", finding_id="nothing").status_code == 404
    assert analyst.get("/cases/C-99999").status_code == 404


def test_the_list_shows_a_page_and_links_the_older_cases(analyst, finding, monkeypatch):
    from consumers.web.console import cases as console

    for _ in range(3):
        post(analyst, "/cases", finding_id=finding["finding_id"])
    every = re.findall(r'data-case="(C-\d+)"', analyst.get("/cases?status=open").text)
    assert len(every) >= 3
    monkeypatch.setattr(console, "PER_PAGE", 2)
    seen, url = [], "/cases?status=open"
    while url:
        html = analyst.get(url).text
        assert f"{len(every)} cases" in html  # the count is every match, not the page
        seen += re.findall(r'data-case="(C-\d+)"', html)
        older = re.search(r'<a href="([^"]+)">Older cases</a>', html)
        url = older.group(1).replace("&amp;", "&") if older else None
        if url:
            assert "status=open" in url
    assert seen == every
    assert 'href="/cases?status=open">Newest cases' in html
    bad = analyst.get("/cases?before=yesterday")
    assert bad.status_code == 422
    assert "before" in bad.text
