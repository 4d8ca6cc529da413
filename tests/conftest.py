"""Fixtures shared by every tier: real PostgreSQL databases and store configurations.

Each PostgreSQL test gets a database of its own, created with a unique name and
dropped afterwards. ``TABLEWATCH_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``) names the server's
maintenance database.
"""

import os
import threading
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from audit.store.application import StoreConfig
from tests.builders.alerts import Hook

ADMIN_URL = os.environ.get(
    "TABLEWATCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)


def _admin() -> psycopg.Connection:
    return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """Create a fresh database, yield its URL, then drop it."""
    name = f"tw_test_{uuid.uuid4().hex[:12]}"
    with _admin() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with _admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def store_config(request, tmp_path) -> StoreConfig:
    """Yield a store location in each database: one test suite, both back ends."""
    if request.param == "sqlite":
        return StoreConfig.sqlite(tmp_path / "store.sqlite")
    return StoreConfig.postgres(request.getfixturevalue("pg_url"))


@pytest.fixture
def hook():
    """Yield a local webhook receiver, serving on a thread until the test ends."""
    receiver = Hook()
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()
