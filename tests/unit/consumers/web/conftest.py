"""Fixtures for the web's tests: an app over a fresh SQLite store, users of each role, login."""

import pytest
from fastapi.testclient import TestClient

from tests.builders.web_app import USERS, login, make_app


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
    from tests.builders.shift_store import careless_store

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
