"""The Kafka ingest against lost connections and a recreated topic, on real parts.

PostgreSQL and a dedicated Tansu broker are reached through a TCP proxy
(``tcp_proxy.py``) that a helper thread cuts mid-ingest and restores. Each test
checks the warning comes within 10 s, that retries are logged, and either that
every produced event is stored exactly once after the restore, or that a cut
past the deadline ends ``tablewatch ingest`` with one line and exit status 2.
"""

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from audit.store.verify import verify_chain
from consumers.cli import main
from consumers.devbroker import DevBroker
from consumers.kafka_ingest import consume
from consumers.kafka_io import ensure_topics
from consumers.readiness import Readiness
from tests.builders.kafka_feed import (
    count_facts,
    events_for,
    produce,
    settings_for,
    stored_event_ids,
)
from tests.builders.tcp_proxy import TcpProxy

pytestmark = pytest.mark.slow

WARNING_WITHIN_S = 10.0


def _through(url: str, port: int) -> str:
    """Return ``url`` with its port replaced, the short connect timeout the tests wait with."""
    head, _, database = url.rpartition("/")
    return f"{head.rsplit(':', 1)[0]}:{port}/{database}?connect_timeout=1"


def _produce_events(bootstrap: str, topic: str, tables: int, per_table: int) -> list[dict]:
    ensure_topics(bootstrap, {topic: 3, f"{topic}.dlq": 3})
    events = events_for(tables=tables, per_table=per_table)
    produce(bootstrap, topic, [(e["table_id"].encode(), json.dumps(e).encode()) for e in events])
    return events


class _Cutter(threading.Thread):
    """Cut the proxy once the store holds some facts; restore it ``for_s`` later (None: never)."""

    def __init__(self, proxy: TcpProxy, stored: Callable[[], int], for_s: float | None) -> None:
        super().__init__(daemon=True)
        self.proxy, self.stored, self.for_s = proxy, stored, for_s
        self.cut_at: float | None = None
        self.at_cut = 0

    def run(self) -> None:
        deadline = time.monotonic() + 60
        while self.stored() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        self.proxy.cut()
        self.cut_at = time.monotonic()
        self.at_cut = self.stored()
        if self.for_s is not None:
            time.sleep(self.for_s)
            self.proxy.restore()


class _Timed(logging.Handler):
    """Keep each warning's arrival time and message."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[tuple[float, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("consumers."):
            self.records.append((time.monotonic(), record.getMessage()))


@pytest.fixture
def warnings() -> Iterator[_Timed]:
    handler = _Timed()
    logger = logging.getLogger("consumers")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _check_warned(warnings: _Timed, cutter: _Cutter) -> None:
    assert cutter.cut_at is not None, "the proxy was never cut"
    after = [(t - cutter.cut_at, m) for t, m in warnings.records if t >= cutter.cut_at]
    assert after, "no warning after the cut"
    assert after[0][0] < WARNING_WITHIN_S, f"first warning after {after[0][0]:.1f}s: {after[0]}"
    assert any("retry 1 in" in m for _, m in after), f"no retry logged: {after}"


def _check_exactly_once(store: FactStore, events: list[dict]) -> None:
    ids = stored_event_ids(store)
    assert len(ids) == len(set(ids)), "an event was stored twice"
    assert sorted(ids) == sorted(e["event_id"] for e in events), "an event was lost"
    assert verify_chain(store).ok


def test_a_database_cut_mid_ingest_is_retried_and_everything_stored_once(
    kafka_bootstrap, pg_url, warnings
):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    events = _produce_events(kafka_bootstrap, topic, tables=6, per_table=300)
    FactStore(StoreConfig.postgres(pg_url))  # the tables exist before the proxy is cut
    readiness = Readiness()
    with TcpProxy(int(pg_url.rsplit(":", 1)[1].split("/")[0])) as proxy:
        store = FactStore(StoreConfig.postgres(_through(pg_url, proxy.port)))
        cutter = _Cutter(proxy, lambda: count_facts(pg_url), for_s=15.0)
        cutter.start()
        settings = replace(settings_for(topic), batch_size=20)
        consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True,
                readiness=readiness)  # fmt: skip
        cutter.join()
    assert 0 < cutter.at_cut < len(events), "cut the database while the ingest works"
    _check_warned(warnings, cutter)
    assert any("database" in m for _, m in warnings.records)
    assert readiness.state.ready
    assert readiness.state.last_error is not None
    _check_exactly_once(FactStore(StoreConfig.postgres(pg_url)), events)


def test_a_database_cut_past_the_deadline_ends_the_ingest_in_one_line(
    kafka_bootstrap, pg_url, warnings, monkeypatch, capfd
):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    events = _produce_events(kafka_bootstrap, topic, tables=6, per_table=300)
    FactStore(StoreConfig.postgres(pg_url))
    with TcpProxy(int(pg_url.rsplit(":", 1)[1].split("/")[0])) as proxy:
        for name, value in {
            "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
            "DATABASE_URL": _through(pg_url, proxy.port),
            "TABLEWATCH_EVENTS_TOPIC": topic,
            "TABLEWATCH_PARTITIONS": "3",
            "TABLEWATCH_BATCH_SIZE": "20",
            "TABLEWATCH_POLL_TIMEOUT_MS": "200",
            "TABLEWATCH_FAULT_DEADLINE_S": "3",
        }.items():
            monkeypatch.setenv(name, value)
        cutter = _Cutter(proxy, lambda: count_facts(pg_url), for_s=None)
        cutter.start()
        status = main(["ingest", "--until-caught-up"])
        ended = time.monotonic()
    assert status == 2
    assert cutter.cut_at is not None
    assert ended - cutter.cut_at < 30
    err = capfd.readouterr().err.strip().splitlines()
    assert err[-1].startswith("tablewatch: gave up on the database: "), err
    assert "Traceback" not in "\n".join(err)
    assert any("database" in m for t, m in warnings.records if t >= cutter.cut_at)
    assert 0 < count_facts(pg_url) < len(events)


@pytest.fixture
def proxied_broker() -> Iterator[tuple[TcpProxy, str]]:
    """Yield a proxy and its bootstrap address in front of a broker of the test's own.

    The broker advertises the proxy's port: Kafka clients connect to the advertised
    address after bootstrapping, so every connection passes the proxy.
    """
    broker = DevBroker()
    proxy = TcpProxy(lambda: int(broker.bootstrap_servers.rsplit(":", 1)[1])).start()
    broker.advertised_port = proxy.port
    try:
        with broker:
            yield proxy, f"127.0.0.1:{proxy.port}"
    finally:
        proxy.close()


def test_a_broker_cut_mid_ingest_is_retried_and_everything_stored_once(
    proxied_broker, pg_url, warnings
):
    proxy, bootstrap = proxied_broker
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    events = _produce_events(bootstrap, topic, tables=6, per_table=300)
    store = FactStore(StoreConfig.postgres(pg_url))
    readiness = Readiness()
    cutter = _Cutter(proxy, lambda: count_facts(pg_url), for_s=6.0)
    cutter.start()
    settings = replace(settings_for(topic), batch_size=20)
    consume(bootstrap, settings, Ingestor(store), until_caught_up=True, readiness=readiness)
    cutter.join()
    assert 0 < cutter.at_cut < len(events), "cut the broker while the ingest works"
    _check_warned(warnings, cutter)
    assert any("broker" in m for _, m in warnings.records)
    assert readiness.state.ready
    _check_exactly_once(FactStore(StoreConfig.postgres(pg_url)), events)


def test_a_broker_cut_past_the_deadline_ends_the_ingest_in_one_line(
    proxied_broker, pg_url, warnings, monkeypatch, capfd
):
    proxy, bootstrap = proxied_broker
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    events = _produce_events(bootstrap, topic, tables=6, per_table=300)
    FactStore(StoreConfig.postgres(pg_url))
    for name, value in {
        "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
        "DATABASE_URL": pg_url,
        "TABLEWATCH_EVENTS_TOPIC": topic,
        "TABLEWATCH_PARTITIONS": "3",
        "TABLEWATCH_BATCH_SIZE": "20",
        "TABLEWATCH_POLL_TIMEOUT_MS": "200",
        "TABLEWATCH_FAULT_DEADLINE_S": "3",
    }.items():
        monkeypatch.setenv(name, value)
    cutter = _Cutter(proxy, lambda: count_facts(pg_url), for_s=None)
    cutter.start()
    status = main(["ingest", "--until-caught-up"])
    ended = time.monotonic()
    assert status == 2
    assert cutter.cut_at is not None
    assert ended - cutter.cut_at < 40
    err = capfd.readouterr().err.strip().splitlines()
    assert err[-1].startswith("tablewatch: gave up on the broker: "), err
    assert "Traceback" not in "\n".join(err)
    # The child may have read the whole topic before the cut; what was stored, is stored once.
    ids = stored_event_ids(FactStore(StoreConfig.postgres(pg_url)))
    assert ids
    assert len(ids) == len(set(ids))
    assert set(ids) <= {e["event_id"] for e in events}
