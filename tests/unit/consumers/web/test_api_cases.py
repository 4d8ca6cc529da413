"""Cases: opened from a finding, noted, rounds linked, closed; facts in the store, chained."""

import sqlite3

import pytest
from fastapi.testclient import TestClient

from audit.store.verify import verify_chain
from consumers.serve import Service
from consumers.web.access_log import read_access
from consumers.web.cases import CaseFilter
from projections.findings_view import FindingFilter
from tests.builders.shift_store import careless_store
from tests.builders.web_app import csrf_of, login, make_app


@pytest.fixture
def case_app(tmp_path):
    store, _ = careless_store(tmp_path / "cases.sqlite")
    return make_app(tmp_path, store=store)


@pytest.fixture
def analyst(case_app):
    client = TestClient(case_app)
    assert login(client, "ann").status_code == 303
    client.headers["X-CSRF-Token"] = csrf_of(client)
    return client


def a_finding(app, with_round=True):
    rows = app.state.views.findings.select(FindingFilter(by_time=True))
    return next(r for r in rows if bool(r["round_id"]) == with_round)


def test_a_case_goes_from_a_finding_through_notes_and_rounds_to_its_disposition(case_app, analyst):
    finding = a_finding(case_app)
    opened = analyst.post(
        "/api/cases", json={"finding_id": finding["finding_id"], "note": "watch the dealer's hands"}
    )
    assert opened.status_code == 201
    case = opened.json()
    assert case["case_id"] == "C-00001"
    assert (case["status"], case["finding_id"], case["rule"]) == (
        "open",
        finding["finding_id"],
        finding["rule"],
    )
    assert case["at_stake"] == finding["at_stake"]
    assert [n["text"] for n in case["notes"]] == ["watch the dealer's hands"]
    noted = analyst.post("/api/cases/C-00001/notes", json={"text": "reviewed camera 4"}).json()
    assert [n["text"] for n in noted["notes"]][-1] == "reviewed camera 4"
    linked = analyst.post("/api/cases/C-00001/rounds", json={"round_id": finding["round_id"]})
    assert linked.status_code == 200
    assert linked.json()["rounds"][0]["table_id"] == finding["table_id"]
    closed = analyst.post(
        "/api/cases/C-00001/close", json={"disposition": "procedure_violation", "note": "retrained"}
    )
    assert closed.json()["status"] == "closed"
    assert closed.json()["closed"]["disposition"] == "procedure_violation"
    assert analyst.get("/api/cases/C-00001").json() == closed.json()


def test_a_closed_case_takes_nothing_more(case_app, analyst):
    analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    analyst.post("/api/cases/C-00001/close", json={"disposition": "cleared"})
    for path, body in (("notes", {"text": "late"}), ("close", {"disposition": "referred"})):
        response = analyst.post(f"/api/cases/C-00001/{path}", json=body)
        assert response.status_code == 409
        assert response.json() == {"detail": "case C-00001 is closed (cleared)"}


def test_unknown_cases_findings_and_rounds_are_404_and_bad_input_422(case_app, analyst):
    assert analyst.get("/api/cases/C-00009").status_code == 404
    assert analyst.post("/api/cases", json={"finding_id": "nope"}).json() == {
        "detail": "no finding 'nope'"
    }
    analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    missing = analyst.post("/api/cases/C-00001/rounds", json={"round_id": "R-NEVER"})
    assert missing.status_code == 404
    assert missing.json()["detail"] == "no round 'R-NEVER'"
    bad = analyst.post("/api/cases/C-00001/close", json={"disposition": "forgiven"})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "disposition"
    assert analyst.get("/api/cases/not-a-case").status_code == 422


def test_changing_a_case_needs_the_csrf_token(case_app, analyst):
    del analyst.headers["X-CSRF-Token"]
    refused = analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    assert refused.status_code == 403
    assert analyst.get("/api/cases").json() == []


def test_cases_are_listed_filtered_and_exported(case_app, analyst):
    first, second = a_finding(case_app), a_finding(case_app, with_round=False)
    analyst.post("/api/cases", json={"finding_id": first["finding_id"]})
    analyst.post("/api/cases", json={"finding_id": second["finding_id"]})
    analyst.post("/api/cases/C-00002/close", json={"disposition": "referred"})
    assert [c["case_id"] for c in analyst.get("/api/cases").json()] == ["C-00002", "C-00001"]
    assert [c["case_id"] for c in analyst.get("/api/cases", params={"status": "open"}).json()] == [
        "C-00001"
    ]
    assert [
        c["case_id"] for c in analyst.get("/api/cases", params={"disposition": "referred"}).json()
    ] == ["C-00002"]
    assert [
        c["case_id"]
        for c in analyst.get("/api/cases", params={"finding": first["finding_id"]}).json()
    ] == ["C-00001"]
    exported = analyst.get("/api/cases", params={"format": "csv"})
    lines = exported.text.splitlines()
    assert lines[0].startswith("case_id,status,opened_at,opened_by,finding_id")
    assert lines[1].startswith("C-00002,closed,")
    assert ",referred," in lines[1]
    facts = analyst.get("/api/cases/facts").json()
    assert [f["type"] for f in facts] == ["case_opened", "case_opened", "case_closed"]
    assert [f["chain_prev"] for f in facts[1:]] == [f["chain_hash"] for f in facts[:-1]]


def test_case_facts_are_chained_verified_and_tampering_is_caught(case_app, analyst, tmp_path):
    analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    analyst.post("/api/cases/C-00001/notes", json={"text": "first look"})
    store = case_app.state.store
    report = verify_chain(store)
    assert report.ok, report.problems
    assert report.case_facts == 2
    heads = analyst.get("/api/chain/heads").json()
    assert (heads["casebook_head"], heads["case_facts"]) == (report.case_head, 2)
    Service(store).run_pass()  # the read models pass over case facts
    with sqlite3.connect(tmp_path / "cases.sqlite") as db:
        db.execute("DROP TRIGGER stored_events_no_update")
        db.execute(
            "UPDATE stored_events SET state = "
            "CAST(replace(CAST(state AS TEXT), 'first look', 'final look') AS BLOB) "
            "WHERE topic = 'tablewatch:Casebook.CaseRecorded'"
        )
    tampered = verify_chain(store)
    assert any("casebook" in p and "altered" in p for p in tampered.problems)


def test_every_view_of_a_case_is_in_the_access_log(case_app, analyst):
    analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    analyst.get("/api/cases/C-00001")
    analyst.get("/api/cases", params={"status": "open"})
    kinds = [(a.kind, a.ref) for a in read_access(case_app.state.db, user="ann", limit=3)]
    assert kinds == [("cases", "status=open"), ("case", "C-00001"), ("case", "C-00001")]


@pytest.mark.parametrize("role", ["auditor", "admin"])
def test_cases_are_the_analysts(case_app, role):
    client = TestClient(case_app)
    login(client, {"auditor": "aud", "admin": "adm"}[role])
    assert client.get("/api/cases").status_code == 403


def test_a_read_costs_the_case_facts_since_the_view_last_folded_any_writers(case_app, analyst):
    """#16: cases are read from the cases view; a request reads only the case facts recorded
    since the view's head, and a fact another process recorded and folded is read by no one
    else; a restart reads none, and a view built from zero reads each fact once."""
    from audit.store.application import FactStore
    from consumers.web.auth import User
    from consumers.web.cases import Cases

    cases = case_app.state.cases
    finding = a_finding(case_app)
    for n in range(6):
        asked = {"finding_id": finding["finding_id"], "note": f"n{n}"}
        opened = analyst.post("/api/cases", json=asked)
        assert opened.status_code == 201, opened.text
    case_id = opened.json()["case_id"]
    assert cases.facts_read == 12  # six openings and six notes, each read once, after its save
    assert analyst.get("/api/cases").status_code == 200
    assert cases.facts_read == 12  # nothing new: nothing read
    other = Cases(FactStore(case_app.state.store.config))  # another process's app, say
    other.note(User("ann", "analyst"), case_id, "from elsewhere")
    assert other.facts_read == 1  # its own fact; the rest were in the view already
    body = analyst.get(f"/api/cases/{case_id}").json()
    assert body["notes"][-1]["text"] == "from elsewhere"
    assert cases.facts_read == 12  # the other writer folded its fact into the view
    restarted = Cases(FactStore(case_app.state.store.config))
    assert restarted.select(CaseFilter()) == cases.select(CaseFilter())
    assert restarted.chain_head() == cases.chain_head() == (cases.chain_head()[0], 13)
    assert restarted.facts_read == 0
    with sqlite3.connect(case_app.state.store.config.sqlite_path) as db:
        db.executescript("DELETE FROM case_view; DELETE FROM case_view_tables;"
                         " DELETE FROM case_view_head;")  # fmt: skip
    rebuilt = Cases(FactStore(case_app.state.store.config))
    assert rebuilt.select(CaseFilter()) == cases.select(CaseFilter())
    assert rebuilt.facts_read == 13
    assert len(rebuilt.select(CaseFilter()).cases) == 6


def test_readers_and_a_writer_at_once_see_whole_cases(case_app):
    """The kept casebook is brought up to date in place: readers on other threads copy it
    under the lock, so none sees a case half-applied or a dict changing as it reads."""
    import threading

    from consumers.web.auth import User

    cases, user = case_app.state.cases, User("ann", "analyst")
    finding = a_finding(case_app)
    first = cases.open(user, finding)["case_id"]
    failures: list[BaseException] = []
    done = threading.Event()

    def read() -> None:
        try:
            while not done.is_set():
                listed = cases.select(CaseFilter()).cases
                assert all(c["status"] == "open" for c in listed)
                cases.get(first)
        except BaseException as error:  # reported by the test below
            failures.append(error)

    readers = [threading.Thread(target=read) for _ in range(3)]
    for reader in readers:
        reader.start()
    try:
        for n in range(30):
            cases.open(user, {**finding, "finding_id": f"{finding['finding_id']}-{n}"})
            cases.note(user, first, f"note {n}")
    finally:
        done.set()
        for reader in readers:
            reader.join()
    assert failures == []
    assert len(cases.get(first)["notes"]) == 30
    assert cases.select(CaseFilter()).total == 31


def test_a_write_that_collides_with_another_writer_is_judged_again_and_recorded_once(case_app):
    """Another process records between this app's read and its save: the save collides, the
    fork is dropped, and the retry records on the casebook with the other's fact in it."""
    from audit.store.application import FactStore
    from consumers.web.auth import User
    from consumers.web.cases import Cases

    cases, user = case_app.state.cases, User("ann", "analyst")
    case_id = cases.open(user, a_finding(case_app))["case_id"]
    other = Cases(FactStore(case_app.state.store.config))
    save, collided = cases.store.save, []

    def save_after_the_other(*aggregates):
        if not collided:
            collided.append(other.note(user, case_id, "theirs"))
        return save(*aggregates)

    cases.store.save = save_after_the_other
    assert [n["text"] for n in cases.note(user, case_id, "ours")["notes"]] == ["theirs", "ours"]
    assert collided
    fresh = Cases(FactStore(case_app.state.store.config))
    assert fresh.get(case_id) == cases.get(case_id) == other.get(case_id)
    assert [n["text"] for n in fresh.get(case_id)["notes"]] == ["theirs", "ours"]


def test_a_write_that_collides_every_time_is_refused_in_one_line_and_records_nothing(
    case_app, analyst, monkeypatch
):
    """Other writers first on every attempt: the analyst is told to try again (409), not
    shown a server error, and nothing is recorded."""
    from eventsourcing.persistence import IntegrityError

    import consumers.web.cases as cases_module

    cases = case_app.state.cases
    opened = analyst.post("/api/cases", json={"finding_id": a_finding(case_app)["finding_id"]})
    case_id = opened.json()["case_id"]
    head = cases.chain_head()
    monkeypatch.setattr(cases_module, "_BACKOFF_S", 0.0)

    def collide(*_):
        raise IntegrityError("duplicate key")

    monkeypatch.setattr(cases.store, "save", collide)
    answer = analyst.post(f"/api/cases/{case_id}/notes", json={"text": "lost?"})
    assert answer.status_code == 409
    assert "try again" in answer.text
    monkeypatch.undo()
    assert cases.chain_head() == head
    assert cases.get(case_id)["notes"] == []


def test_the_list_is_a_page_newest_first_and_older_pages_follow(case_app, analyst):
    """#16: a list answers a page (100 unless asked), copying only what it shows; older cases
    follow with ``before``; the export is every case."""
    finding = a_finding(case_app)
    for _ in range(7):
        analyst.post("/api/cases", json={"finding_id": finding["finding_id"]})
    ids = [f"C-{n:05d}" for n in range(7, 0, -1)]
    assert [c["case_id"] for c in analyst.get("/api/cases").json()] == ids
    seen, before = [], None
    while True:
        page = analyst.get(
            "/api/cases", params={"limit": 3} | ({"before": before} if before else {})
        )
        found = [c["case_id"] for c in page.json()]
        if not found:
            break
        seen, before = seen + found, found[-1]
    assert seen == ids
    exported = analyst.get("/api/cases", params={"format": "csv", "limit": 1}).text
    assert len(exported.splitlines()) == 1 + 7  # the export ignores the page
    for bad in ({"limit": 0}, {"limit": 1001}, {"before": "7"}):
        assert analyst.get("/api/cases", params=bad).status_code == 422
    page = case_app.state.cases.select(CaseFilter(), limit=2, before="C-00005")
    assert ([c["case_id"] for c in page.cases], page.total, page.more) == (
        ["C-00004", "C-00003"],
        7,
        True,
    )


def test_cases_sort_by_their_number_past_c_99999(case_app):
    import json

    from audit.store.casebook import CASEBOOK, Casebook

    book = Casebook(CASEBOOK)
    for case_id in ("C-99998", "C-100000", "C-99999", "C-100001"):
        book.record("case_opened", json.dumps({
            "type": "case_opened", "case_id": case_id, "at": "t", "by": "ann", "role": "analyst",
            "finding_id": "F", "code": "PG-X", "severity": "warning", "rule": "r", "title": "t",
            "table_id": "PG-1", "round_id": None, "at_stake": "1.00"}))  # fmt: skip
    case_app.state.store.save(book)
    found = case_app.state.cases.select(CaseFilter(), limit=3)
    assert [c["case_id"] for c in found.cases] == ["C-100001", "C-100000", "C-99999"]
