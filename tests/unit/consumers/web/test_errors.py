"""No response carries a stack trace: a failure is one message, JSON or page."""

from fastapi.testclient import TestClient


def test_an_unforeseen_failure_is_a_message_with_a_reference_not_a_traceback(app, as_role):
    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("secret internals /etc/passwd")

    client = as_role("analyst")
    quiet = TestClient(app, raise_server_exceptions=False, cookies=client.cookies)
    response = quiet.get("/api/boom")
    assert response.status_code == 500
    detail = response.json()["detail"]
    assert detail.startswith("the server failed to answer (reference ")
    assert "secret internals" not in response.text
    assert "Traceback" not in response.text


def test_an_unknown_path_is_404_as_json_for_the_api_and_a_page_elsewhere(as_role):
    client = as_role("analyst")
    api = client.get("/api/nothing-here")
    assert api.status_code == 404
    assert api.json() == {"detail": "no such page: /api/nothing-here"}
    page = client.get("/nothing-here")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "no such page: /nothing-here" in page.text


def test_the_openapi_document_lists_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/findings",
        "/api/findings/{finding_id}",
        "/api/floor",
        "/api/tables",
        "/api/reports/mgr",
        "/api/reports/variance",
        "/api/stats",
        "/api/chain/heads",
        "/api/chain/status",
        "/api/alerts/stream",
    ):
        assert path in paths
