"""A case's page beside its finding as the findings view holds it now: judged again since the
case was opened, the finding may be gone or under another severity, and the page says so."""

from tests.builders.web_app import csrf_of


def _open_case(client, finding_id):
    opened = client.post("/api/cases", json={"finding_id": finding_id},
                         headers={"X-CSRF-Token": csrf_of(client)})  # fmt: skip
    assert opened.status_code == 201, opened.text
    return opened.json()["case_id"]


def _set(app, sql, params):
    with app.state.views.findings.datastore.transaction(commit=True) as cursor:
        cursor.execute(sql, params)


def test_a_case_says_when_its_finding_is_judged_otherwise_now(shift_app, shift_as):
    client = shift_as("analyst")
    first, second = client.get("/api/findings", params={"per_page": 2}).json()["findings"]
    kept, changed = (
        _open_case(client, first["finding_id"]),
        _open_case(client, second["finding_id"]),
    )
    page = client.get(f"/cases/{kept}").text
    assert 'id="finding-now"' not in page  # as the view holds it: nothing to say

    _set(shift_app, "DELETE FROM findings WHERE finding_id = ?", [first["finding_id"]])
    page = client.get(f"/cases/{kept}").text
    assert "Not in the findings view now" in page
    assert first["code"] in page  # the case keeps what it recorded

    severity = "info" if second["severity"] != "info" else "critical"
    _set(shift_app, "UPDATE findings SET severity = ? WHERE finding_id = ?",
         [severity, second["finding_id"]])  # fmt: skip
    page = client.get(f"/cases/{changed}").text
    assert "Judged again since this case was opened: now" in page
    assert f'class="sev-{severity}">{severity}</span>' in page
