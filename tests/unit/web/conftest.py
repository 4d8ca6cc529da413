"""Fixtures for the web's tests: an app over a fresh SQLite store, users of each role, login."""

import re
from pathlib import Path

import pytest
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
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    return client.post(
        "/login",
        data={"name": name, "password": password, "csrf_token": token, "next": "/api/me"},
        follow_redirects=False,
    )


def csrf_of(client: TestClient) -> str:
    """Return the signed-in session's CSRF token, as a page would show it."""
    page = client.get("/login")  # any page rendered for the session carries it
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def client(app):
    return TestClient(app, base_url="http://testserver")


@pytest.fixture
def as_role(app):
    """Return a function giving a client signed in as the user of a role."""

    def signed_in(role: str) -> TestClient:
        name = next(n for n, r in USERS.items() if r == role)
        client = TestClient(app, base_url="http://testserver")
        assert login(client, name).status_code == 303
        return client

    return signed_in


@pytest.fixture(scope="module")
def shift_app(tmp_path_factory):
    """An app over a careless shift's store, every read model caught up (one per module)."""
    from tests.unit.web.shift_store import careless_store

    path = tmp_path_factory.mktemp("shift")
    store, labels = careless_store(path / "shift.sqlite")
    app = make_app(path, store=store)
    app.state.labels = labels
    return app


@pytest.fixture(scope="module")
def shift_as(shift_app):
    """Return a function giving a client of the shift's app signed in as a role."""
    clients = {}

    def signed_in(role: str) -> TestClient:
        if role not in clients:
            name = next(n for n, r in USERS.items() if r == role)
            client = TestClient(shift_app, base_url="http://testserver")
            assert login(client, name).status_code == 303
            clients[role] = client
        return clients[role]

    return signed_in
