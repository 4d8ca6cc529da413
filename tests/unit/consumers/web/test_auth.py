"""Access: sessions, cookies, CSRF and roles, through HTTP as a browser or API client sends it."""

import pytest
from fastapi.testclient import TestClient

from consumers.web.auth import UserError, add_user, authenticate
from tests.builders.web_app import PASSWORD, csrf_of, login, make_app


def test_an_api_request_without_a_session_is_refused_with_401(client):
    response = client.get("/api/me")
    assert response.status_code == 401
    assert response.json() == {"detail": "sign in first: no session"}


def test_a_page_request_without_a_session_goes_to_the_login_form(client):
    response = client.get("/?table=T1", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/login?next=/%3Ftable%3DT1"


def test_signing_in_opens_a_session_with_a_hardened_cookie(client):
    response = login(client, "ann")
    assert response.status_code == 303
    assert response.headers["location"] == "/api/me"
    cookie = next(
        c for c in response.headers.get_list("set-cookie") if c.startswith("tablewatch_session=")
    )
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain HTTP without TABLEWATCH_SECURE_COOKIES
    assert client.get("/api/me").json() == {"name": "ann", "role": "analyst"}


def test_the_cookie_is_secure_when_the_setting_says_tls(tmp_path):
    client = TestClient(make_app(tmp_path, secure_cookies=True))
    cookie = login(client, "ann").headers["set-cookie"]
    assert "Secure" in cookie


def test_a_wrong_password_or_name_is_refused_alike(client):
    wrong_password = login(client, "ann", "not the password at all")
    unknown = login(client, "nobody", PASSWORD)
    for response in (wrong_password, unknown):
        assert response.status_code == 401
        assert "wrong user name or password" in response.text
    assert client.get("/api/me").status_code == 401


def test_a_login_without_its_form_token_is_refused(client):
    response = client.post(
        "/login",
        data={"name": "ann", "password": PASSWORD, "csrf_token": "forged"},
        follow_redirects=False,
    )
    assert response.status_code == 403
    assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil"])
def test_login_never_sends_the_user_to_another_site(client, target):
    page = client.get("/login")
    token = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(
        "/login",
        data={"name": "ann", "password": PASSWORD, "csrf_token": token, "next": target},
        follow_redirects=False,
    )
    assert response.headers["location"] == "/"


def test_logout_needs_the_sessions_csrf_token_and_then_ends_the_session(as_role):
    client = as_role("analyst")
    refused = client.post("/logout", follow_redirects=False)
    assert refused.status_code == 403
    assert "CSRF" in refused.text
    assert client.get("/api/me").status_code == 200
    done = client.post("/logout", data={"csrf_token": csrf_of(client)}, follow_redirects=False)
    assert done.status_code == 303
    assert client.get("/api/me").status_code == 401


def test_the_csrf_token_is_accepted_in_the_header(as_role):
    client = as_role("auditor")
    response = client.post(
        "/logout", headers={"X-CSRF-Token": csrf_of(client)}, follow_redirects=False
    )
    assert response.status_code == 303


def test_a_stolen_session_token_is_not_stored_in_the_clear(app, client):
    login(client, "ann")
    token = client.cookies["tablewatch_session"]
    stored = [row[0] for row in app.state.db.query("SELECT token_hash FROM web_sessions")]
    assert token not in stored
    assert len(stored) == 1


def test_passwords_are_stored_as_argon2_hashes(app):
    (stored,) = app.state.db.query("SELECT password_hash FROM web_users WHERE name = {p}", ["ann"])
    assert stored[0].startswith("$argon2")
    assert PASSWORD not in stored[0]
    assert authenticate(app.state.db, "ann", PASSWORD).role == "analyst"


@pytest.mark.parametrize(
    ("name", "role", "password", "message"),
    [
        ("ann", "analyst", PASSWORD, "user 'ann' exists already"),
        ("bob", "boss", PASSWORD, "role must be one of analyst, auditor, admin, not 'boss'"),
        ("Bob Smith", "analyst", PASSWORD, "a user name is 1 to 64"),
        ("bob", "analyst", "short", "at least 12 characters"),
    ],
)
def test_a_user_that_cannot_be_made_is_refused_by_name(app, name, role, password, message):
    with pytest.raises(UserError, match=message.replace("(", r"\(")):
        add_user(app.state.db, name, role, password)


def test_sessions_left_to_expire_are_swept_at_the_next_sign_in(app, client):
    """#16: a browser closed without signing out leaves its session behind; the next sign-in
    deletes every expired one, so the table holds live sessions, not every one ever opened."""
    for n in range(3):
        app.state.db.execute(
            "INSERT INTO web_sessions (token_hash, user_name, csrf_token, created_at, expires_at) "
            "VALUES ({p}, {p}, {p}, {p}, {p})",
            [f"old-{n}", "ann", "c", "2020-01-01T00:00:00+00:00", "2020-01-01T12:00:00+00:00"],
        )
    login(client, "ann")
    stored = [row[0] for row in app.state.db.query("SELECT token_hash FROM web_sessions")]
    assert len(stored) == 1
    assert not any(token.startswith("old-") for token in stored)
