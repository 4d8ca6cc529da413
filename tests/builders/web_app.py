"""Build the web app for tests: an app over a fresh SQLite store with one user per role,
and a browser's login and CSRF token."""

import re
from pathlib import Path

from fastapi.testclient import TestClient

from audit.store.application import FactStore, StoreConfig
from consumers.settings import Settings
from consumers.web.app import create_app
from consumers.web.auth import add_user

PASSWORD = "correct horse battery staple"
USERS = {"ann": "analyst", "aud": "auditor", "adm": "admin"}


def make_app(tmp_path: Path, store: FactStore | None = None, **settings):
    """Return an app over ``store`` (a fresh SQLite store by default) with one user per role."""
    store = store or FactStore(StoreConfig.sqlite(tmp_path / "web.sqlite"))
    app = create_app(Settings(data_dir=tmp_path, **settings), store=store)
    for name, role in USERS.items():
        add_user(app.state.db, name, role, PASSWORD)
    return app


def login(client: TestClient, name: str, password: str = PASSWORD):
    """Sign in through the login form, as a browser would; return the POST's response."""
    page = client.get("/login")
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found is not None, "no CSRF token on the page"
    token = found.group(1)
    return client.post(
        "/login",
        data={"name": name, "password": password, "csrf_token": token, "next": "/api/me"},
        follow_redirects=False,
    )


def csrf_of(client: TestClient) -> str:
    """Return the signed-in session's CSRF token, as a page would show it."""
    page = client.get("/login")  # any page rendered for the session carries it
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)
