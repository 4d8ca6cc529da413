"""One ``tablewatch serve`` per store (#16): the lease, on SQLite and PostgreSQL, and two real
services on one store, the second waiting for the first."""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
from prometheus_client import generate_latest

from audit.store.application import FactStore, StoreConfig
from consumers import store_lease
from consumers.serve import Service
from consumers.store_lease import LEASE_KEY, SERVE, StoreLease
from projections.read_models import READ_MODELS
from tests.builders.alerts import ingest
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def test_one_lease_a_store_until_it_is_let_go(store_config):
    store = FactStore(store_config)
    first, second = StoreLease(store), StoreLease(FactStore(store_config))
    assert first.try_acquire()
    assert first.try_acquire()  # held already: still this one's
    assert not second.try_acquire()
    first.release()
    assert not first.held()
    assert second.try_acquire()
    assert not first.try_acquire()
    second.release()


def test_a_postgres_lease_ends_with_its_connection_and_a_service_then_waits(pg_url, shift):
    store = FactStore(StoreConfig.postgres(pg_url))
    ingest(store, shift)
    lease, other = StoreLease(store), StoreLease(FactStore(StoreConfig.postgres(pg_url)))
    assert lease.try_acquire()
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:  # the server drops its session
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
            "AND ((classid::bigint << 32) | objid::bigint) = %s "
            "AND database = (SELECT oid FROM pg_database WHERE datname = %s)",
            (LEASE_KEY, pg_url.rsplit("/", 1)[1]),
        )
    assert not lease.held()
    assert other.try_acquire()  # another service took the store meanwhile
    service = Service(store, lease=lease)
    polls = iter(range(3))
    service.run(lambda: next(polls, None) is None, poll_s=0.01)
    assert [kind(store).position for kind in READ_MODELS] == [0] * len(READ_MODELS)  # no pass
    assert service.health.reason == f"{SERVE.holder} holds this store"
    assert "tablewatch_serve_lease_held 0.0" in generate_latest(service.registry).decode()
    other.release()
    polls = iter(range(2))
    service.run(lambda: next(polls, None) is None, poll_s=0.01)
    assert service.health.reason == "caught up"  # held again, and the pass ran
    assert "tablewatch_serve_lease_held 1.0" in generate_latest(service.registry).decode()
    last = store.last_notification_id()
    assert [kind(store).position for kind in READ_MODELS] == [last] * len(READ_MODELS)
    lease.release()


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def _ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
            return answer.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def test_a_second_serve_on_a_store_stands_by_until_the_first_stops(tmp_path, shift):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "d")}
    env.pop("DATABASE_URL", None)  # both on the store where the service's default puts it
    store = FactStore(StoreConfig.sqlite(tmp_path / "d" / "tablewatch.sqlite"))
    ingest(store, shift)
    ports = [free_port(), free_port()]

    def serve(port: int) -> subprocess.Popen:
        command = [sys.executable, "-m", "consumers.cli", "serve", "--no-alerts", "--port"]
        return subprocess.Popen(
            [*command, str(port)], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True
        )

    started = [serve(ports[0])]
    try:
        deadline = time.monotonic() + 60
        while not _ready(ports[0]):
            assert started[0].poll() is None, started[0].stderr.read()
            assert time.monotonic() < deadline, "the first service never became ready"
            time.sleep(0.1)
        started.append(serve(ports[1]))
        second = started[1]
        assert second.stderr is not None
        said = [second.stderr.readline(), second.stderr.readline()]
        assert said[1].startswith(f"waiting: {SERVE.holder} holds this store"), said
        deadline = time.monotonic() + 60
        while _get(ports[1], "/healthz")[0] != 200:  # a standby: it serves, it does not judge
            assert second.poll() is None
            assert time.monotonic() < deadline, "the standby never served"
            time.sleep(0.1)
        assert _get(ports[1], "/readyz") == (503, f"{SERVE.holder} holds this store\n")
        started[0].send_signal(signal.SIGKILL)  # the first dies: its lease goes with it
        started[0].wait(timeout=30)
        deadline = time.monotonic() + 60
        while not _ready(ports[1]):
            assert second.poll() is None
            assert time.monotonic() < deadline, "the second service never took over"
            time.sleep(0.1)
    finally:
        for service in started:
            if service.poll() is None:
                service.send_signal(signal.SIGTERM)
                service.wait(timeout=30)


def test_a_lease_that_cannot_be_taken_again_for_a_database_fault_stops_passes_not_the_service(
    tmp_path, shift, monkeypatch
):
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    ingest(store, shift)
    lease = StoreLease(store)
    service = Service(store, lease=lease)  # taken by nobody yet: the loop takes it

    def away() -> bool:
        raise psycopg.OperationalError("the database went away")

    monkeypatch.setattr(lease, "try_acquire", away)
    polls = iter(range(3))
    service.run(lambda: next(polls, None) is None, poll_s=0.01)  # returns: the loop lived on
    assert service.health.reason == "database: the database went away"
    assert [kind(store).position for kind in READ_MODELS] == [0] * len(READ_MODELS)


def test_a_standby_asking_for_the_lease_keeps_one_connection(pg_url, monkeypatch):
    store = FactStore(StoreConfig.postgres(pg_url))
    holder, standby = StoreLease(store), StoreLease(store)
    assert holder.try_acquire()
    opened: list[str] = []
    connect = psycopg.connect

    def counted(url, **kwargs):  # the real connection, counted
        opened.append(url)
        return connect(url, **kwargs)

    monkeypatch.setattr(store_lease.psycopg, "connect", counted)
    for _ in range(5):  # a poll a second, standing by
        assert not standby.try_acquire()
    assert len(opened) == 1
    holder.release()
    assert standby.try_acquire()
    assert standby.held()
    assert len(opened) == 1  # the lock taken on the connection it kept
    standby.release()
