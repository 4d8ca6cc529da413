"""Live alerts as Server-Sent Events; the admin's users; the access log's reader."""

import json

from audit.findings.finding import Severity
from consumers.web.access_log import read_access
from projections.findings_view import FindingFilter
from tests.builders.web_app import csrf_of, login


def alerts_of(shift_app):
    return shift_app.state.views.findings.select(FindingFilter(min_severity=Severity.WARNING))


def events(text):
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields.get("event") == "finding":
            found.append((int(fields["id"]), json.loads(fields["data"])))
    return found


def test_the_stream_sends_each_alert_in_order_with_its_row_as_id(shift_app, shift_as):
    expected = alerts_of(shift_app)
    with shift_as("analyst").stream(
        "GET", "/api/alerts/stream", params={"after": 0, "limit": 3}
    ) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        got = events(r.read().decode())
    assert [row_id for row_id, _ in got] == [row["row_number"] for row in expected[:3]]
    assert [body["finding_id"] for _, body in got] == [row["finding_id"] for row in expected[:3]]
    assert all(body["severity"] in ("warning", "critical") for _, body in got)


def test_a_reconnection_resumes_after_the_last_event_id(shift_app, shift_as):
    expected = alerts_of(shift_app)
    resume_after = expected[1]["row_number"]
    with shift_as("analyst").stream(
        "GET",
        "/api/alerts/stream",
        params={"limit": 1},
        headers={"Last-Event-ID": str(resume_after)},
    ) as r:
        ((_, body),) = events(r.read().decode())
    assert body["finding_id"] == expected[2]["finding_id"]
    bad = shift_as("analyst").get("/api/alerts/stream", headers={"Last-Event-ID": "x1"})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "Last-Event-ID"


def test_the_stream_is_refused_without_a_session_or_to_an_auditor(shift_app, shift_as):
    from fastapi.testclient import TestClient

    assert TestClient(shift_app).get("/api/alerts/stream").status_code == 401
    assert shift_as("auditor").get("/api/alerts/stream").status_code == 403


def test_an_admin_adds_a_user_who_can_then_sign_in(app, as_role):
    admin = as_role("admin")
    refused = admin.post("/api/users", json={"name": "eve", "role": "analyst"})
    assert refused.status_code == 403  # no CSRF token
    made = admin.post(
        "/api/users",
        json={"name": "eve", "role": "analyst"},
        headers={"X-CSRF-Token": csrf_of(admin)},
    )
    assert made.status_code == 201
    password = made.json()["password"]
    assert len(password) >= 16
    assert [u["name"] for u in admin.get("/api/users").json()] == ["adm", "ann", "aud", "eve"]
    from fastapi.testclient import TestClient

    eve = TestClient(app)
    assert login(eve, "eve", password).status_code == 303
    assert eve.get("/api/me").json() == {"name": "eve", "role": "analyst"}
    again = admin.post(
        "/api/users",
        json={"name": "eve", "role": "auditor"},
        headers={"X-CSRF-Token": csrf_of(admin)},
    )
    assert again.status_code == 400
    assert again.json() == {"detail": "user 'eve' exists already"}


def test_an_analyst_cannot_reach_the_admins_users_or_the_access_log(as_role):
    analyst = as_role("analyst")
    assert analyst.get("/api/users").status_code == 403
    assert analyst.get("/api/access-log").status_code == 403
    token = csrf_of(analyst)
    attempt = analyst.post(
        "/api/users", json={"name": "x", "role": "admin"}, headers={"X-CSRF-Token": token}
    )
    assert attempt.status_code == 403


def test_an_auditor_reads_who_viewed_what(shift_app, shift_as):
    finding = alerts_of(shift_app)[0]
    shift_as("analyst").get(f"/api/findings/{finding['finding_id']}")
    rows = (
        shift_as("auditor").get("/api/access-log", params={"user": "ann", "kind": "finding"}).json()
    )
    assert rows[0]["ref"] == finding["finding_id"]
    assert rows[0]["role"] == "analyst"
    (newest,) = read_access(shift_app.state.db, user="ann", kind="finding", limit=1)
    assert newest.id == rows[0]["id"]
