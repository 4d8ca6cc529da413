"""``tablewatch serve`` delivers each pass's new alerts; a leg that cannot deliver is held and
never stops the read models. Real SQLite and PostgreSQL stores, the dev broker, a local
webhook, and the service as a real process."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from audit.store.application import FactStore, StoreConfig
from consumers import alerts
from consumers.alerts import Alerter, Webhook
from consumers.errors import PublishError
from consumers.kafka_io import make_producer
from consumers.serve import Service
from consumers.store_lease import ALERTS, StoreLease
from projections.findings import FindingsProjection
from tests.builders.alerts import finding_ids, ingest, read_topic, reopen, warnings
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_a_pass_delivers_its_new_alerts_to_the_topic_and_the_webhook_in_order(
    store_config, shift, hook, kafka_bootstrap
):
    store = FactStore(store_config)
    ingest(store, shift[:200])
    view = FindingsProjection(store).view
    topic = f"alerts-{os.getpid()}-{time.monotonic_ns()}"
    with make_producer(kafka_bootstrap) as producer:
        alerter = Alerter(view, producer, topic, Webhook(hook.url, retries=0),
                          hold_webhook_failures=True)  # fmt: skip
        service = Service(store, alerter=alerter)
        service.run_pass()
        service.deliver_alerts()
        first = [f["finding_id"] for f in warnings(view)]
        ingest(store, shift[200:], start=200)  # more of the shift: more findings, a later pass
        service.run_pass()
        service.deliver_alerts()
    _, reopened = reopen(store_config)
    expected = [f["finding_id"] for f in warnings(reopened)]
    assert first
    assert len(expected) > len(first)
    assert hook.accepted() == expected  # each once, in the order found
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected
    assert service.health.reason == "caught up"


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_a_failing_webhook_is_held_and_the_read_models_and_readiness_go_on(
    store_config, shift, hook
):
    store = FactStore(store_config)
    ingest(store, shift)
    view = FindingsProjection(store).view
    now = [0.0]
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0),
                      hold_webhook_failures=True, clock=lambda: now[0])  # fmt: skip
    service = Service(store, alerter=alerter)
    hook.answer(503)
    assert service.run_pass() > 0  # the read models wrote their rows all the same
    service.deliver_alerts()
    assert service.health.ready
    assert service.health.reason.startswith("caught up; alerts held: the webhook: ")
    assert all(m.position == store.last_notification_id() for m in service.read_models)
    now[0] += 120  # past the back-off: the webhook answers again
    service.deliver_alerts()
    assert service.health.reason == "caught up"
    assert hook.accepted() == [f["finding_id"] for f in warnings(view)]


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_a_broker_that_refuses_an_alert_holds_the_topic_leg_and_the_webhook_goes_on(
    store_config, shift, hook, kafka_bootstrap, monkeypatch
):
    store = FactStore(store_config)
    ingest(store, shift)
    view = FindingsProjection(store).view
    topic = f"alerts-{os.getpid()}-{time.monotonic_ns()}"
    published = alerts.publish

    def refused(*args, **kwargs):
        raise PublishError("the broker refused a message")

    with make_producer(kafka_bootstrap) as producer:
        alerter = Alerter(view, producer, topic, Webhook(hook.url, retries=0),
                          hold_webhook_failures=True, hold_topic_failures=True)  # fmt: skip
        service = Service(store, alerter=alerter)
        monkeypatch.setattr(alerts, "publish", refused)
        service.run_pass()
        service.deliver_alerts()
        expected = [f["finding_id"] for f in warnings(view)]
        assert service.health.ready
        assert "alerts held: the alerts topic: the broker refused" in service.health.reason
        assert alerter.position == 0  # nothing recorded as sent to the topic
        assert hook.accepted() == expected  # the webhook leg went on all the same
        monkeypatch.setattr(alerts, "publish", published)
        service.deliver_alerts()
    assert service.health.reason == "caught up"
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected
    assert hook.accepted() == expected  # each once


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_a_stalled_webhook_delays_alerts_never_the_read_models(store_config, shift, hook):
    """Delivery runs beside the passes: while the webhook takes its time over an alert, later
    facts are judged and written as usual."""
    store = FactStore(store_config)
    ingest(store, shift[:200])
    view = FindingsProjection(store).view
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0, timeout_s=30),
                      hold_webhook_failures=True)  # fmt: skip
    service = Service(store, alerter=alerter)
    hook.answer(200, delay_s=4.0)  # the first alert's POST hangs
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop.is_set, 0.05))
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while not hook.requests:  # the delivery thread is inside the slow POST
            assert time.monotonic() < deadline, "no alert was tried"
            time.sleep(0.01)
        ingest(store, shift[200:], start=200)
        last = store.last_notification_id()
        started = time.monotonic()
        while not all(m.position == last for m in service.read_models):
            assert time.monotonic() - started < 3.0, "the passes waited on the webhook"
            time.sleep(0.01)
    finally:
        stop.set()
        runner.join(timeout=60)
    assert not runner.is_alive()


def test_the_serve_command_posts_alerts_to_the_webhook_in_the_environment(tmp_path, shift, hook):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    env.pop("KAFKA_BOOTSTRAP_SERVERS", None)
    env.update(TABLEWATCH_WEBHOOK_URL=hook.url, TABLEWATCH_SERVE_PROCESSES="1")
    config = StoreConfig.sqlite(tmp_path / "tablewatch.sqlite")
    ingest(FactStore(config), shift)
    service = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "serve", "--port", str(free_port())],
        env=env, cwd=ROOT, stderr=subprocess.PIPE,
    )  # fmt: skip
    _, view = reopen(config)
    try:
        deadline = time.monotonic() + 60
        while not (hook.requests and len(hook.accepted()) == len(warnings(view))):
            assert service.poll() is None, service.stderr.read().decode()
            assert time.monotonic() < deadline, "no alerts reached the webhook"
            time.sleep(0.05)
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=60) == 0, service.stderr.read().decode()
    assert hook.accepted() == [f["finding_id"] for f in warnings(view)]


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_readiness_follows_the_passes_while_the_alerts_thread_delivers(store_config, shift, hook):
    """The delivery thread writes only which leg is held; readiness is the passes' own, so a
    pass that fails reads as not ready however the alerts fare beside it."""
    from eventsourcing.persistence import OperationalError

    store = FactStore(store_config)
    ingest(store, shift)
    alerter = Alerter(FindingsProjection(store).view, None, "unused",
                      Webhook(hook.url, retries=0), hold_webhook_failures=True)  # fmt: skip
    service = Service(store, alerter=alerter)
    service.run_pass()
    hook.answer(503)
    service.deliver_alerts()
    assert service.health.ready

    def failing_pass(stopped=lambda: False):
        raise OperationalError("the database went away")

    service.run_pass = failing_pass
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop.is_set, 0.02))
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while service.health.ready and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)  # several deliveries by the alerts' thread after the failed pass
        health = service.health
    finally:
        stop.set()
        runner.join(timeout=30)
    assert not health.ready
    assert health.reason == "database: the database went away"
    assert (service.alerts_held or "").startswith("the webhook: ")


def test_a_service_delivers_no_alert_while_another_process_holds_the_store_s_alerts(
    store_config, shift, hook
):
    """``tablewatch alerts --follow`` beside a ``serve`` that also has a destination: one of
    them delivers (whichever holds the alerts lease), never both, so no alert goes twice."""
    store = FactStore(store_config)
    ingest(store, shift)
    view = FindingsProjection(store).view
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0),
                      hold_webhook_failures=True)  # fmt: skip
    lease = StoreLease(store)
    assert lease.try_acquire()
    other = StoreLease(FactStore(store_config), ALERTS)
    assert other.try_acquire()
    service = Service(store, alerter=alerter, lease=lease)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop.is_set, 0.02))
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while not (service.health.ready and service.alerts_held):
            assert time.monotonic() < deadline, "the service never passed or never said"
            time.sleep(0.01)
        time.sleep(0.2)  # several polls of the alerts' thread
        assert hook.requests == []
        assert "holds this store's alerts" in service.health.reason
        other.release()  # the other deliverer stops
        expected = [f["finding_id"] for f in warnings(view)]
        while hook.accepted() != expected:
            assert time.monotonic() < deadline + 10, "the service never took over the alerts"
            time.sleep(0.02)
    finally:
        stop.set()
        runner.join(timeout=30)
        lease.release()
        other.release()
    assert hook.accepted() == expected  # each once
    assert service.alerts_held is None


def test_a_service_that_loses_the_store_lets_its_alerts_go_to_the_one_that_judges(
    store_config, shift, hook
):
    """A service standing by (its PostgreSQL lease gone with its connection, another taking
    the store) must not keep the alerts lease: the service that now judges delivers."""
    store = FactStore(store_config)
    ingest(store, shift)
    alerter = Alerter(FindingsProjection(store).view, None, "unused",
                      Webhook(hook.url, retries=0), hold_webhook_failures=True)  # fmt: skip
    lease = StoreLease(store)
    assert lease.try_acquire()
    service = Service(store, alerter=alerter, lease=lease)
    other = StoreLease(FactStore(store_config), ALERTS)
    stop = threading.Event()
    runner = threading.Thread(target=service._deliver_until, args=(stop.is_set, 0.02))
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while not service.alerts_lease.held():
            assert time.monotonic() < deadline, "the service never took the alerts lease"
            time.sleep(0.01)
        assert not other.try_acquire()  # the judging service delivers
        service.leased = False  # as its passes find the store's lease gone
        while not other.try_acquire():
            assert time.monotonic() < deadline, "the standby kept the alerts lease"
            time.sleep(0.01)
    finally:
        stop.set()
        runner.join(timeout=30)
        other.release()
        lease.release()
