"""Alerts: findings at warning and above to Kafka and a webhook, at least once, one in flight
on each leg, each leg with its own position.

Real parts throughout: the dev broker, SQLite and PostgreSQL stores, and a local
HTTP server that answers as each test scripts it.
"""

import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from eventsourcing.persistence import OperationalError

from audit.store.application import FactStore, StoreConfig
from consumers.alerts import (
    TRACKING_NAME,
    WEBHOOK_TRACKING_NAME,
    AlertDeliveryError,
    Alerter,
    Webhook,
    run_alerts,
)
from consumers.cli import main
from consumers.kafka_io import make_producer
from consumers.readiness import Readiness
from consumers.settings import Settings
from consumers.store_lease import ALERTS, StoreLease
from consumers.wiring import open_store
from projections.findings import FindingsProjection
from tests.builders.alerts import (
    AN_INFO_FINDING,
    finding_ids,
    ingest,
    read_topic,
    reopen,
    store_with_findings,
    warnings,
)


@pytest.fixture
def producer(kafka_bootstrap):
    with make_producer(kafka_bootstrap) as made:
        yield made


def no_sleep():
    slept = []
    return slept, slept.append


def test_warning_findings_reach_the_topic_in_order_and_info_ones_do_not(
    store_config, shift, kafka_bootstrap, new_topic, producer
):
    _store, view = store_with_findings(store_config, shift)
    expected = warnings(view)
    assert {f["code"] for f in expected} >= {"PG-SETTLE-PAYOUT", "DATA-SEQ-GAP"}
    topic = new_topic()
    alerter = Alerter(view, producer, topic, webhook=None)
    assert alerter.publish_new() == len(expected)
    records = read_topic(kafka_bootstrap, topic)
    assert finding_ids(records) == [f["finding_id"] for f in expected]
    assert AN_INFO_FINDING.finding_id not in finding_ids(records)
    assert [r.key.decode() for r in records] == [f["table_id"] for f in expected]
    first = json.loads(records[0].value)
    assert list(first) == list(AN_INFO_FINDING.as_dict())  # the finding, not the view's row
    assert first["finding_id"] == expected[0]["finding_id"]
    assert view.max_tracking_id(TRACKING_NAME) == expected[-1]["row_number"]
    assert alerter.publish_new() == 0


def test_the_webhook_gets_the_alert_as_json_with_an_idempotency_key(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook
):
    _store, view = store_with_findings(store_config, shift)
    expected = warnings(view)
    topic = new_topic()
    Alerter(view, producer, topic, Webhook(hook.url)).publish_new()
    assert hook.accepted() == [f["finding_id"] for f in expected]
    assert hook.keys() == hook.accepted()
    headers, body, _ = hook.requests[0]
    assert headers["Content-Type"] == "application/json"
    assert body.pop("alert_type") == "finding"
    assert body == json.loads(read_topic(kafka_bootstrap, topic)[0].value)


def test_server_errors_timeouts_and_429_are_retried_with_backoff(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook
):
    _store, view = store_with_findings(store_config, shift)
    expected = [f["finding_id"] for f in warnings(view)]
    hook.answer(503)
    hook.answer(503)
    hook.answer(200, delay_s=0.6)  # answered after the client gave up: a timeout
    hook.answer(429, {"Retry-After": "7"})
    slept, sleep = no_sleep()
    webhook = Webhook(hook.url, timeout_s=0.3, sleep=sleep)
    topic = new_topic()
    assert Alerter(view, producer, topic, webhook).publish_new() == len(expected)
    assert slept == [0.5, 1.0, 2.0, 7.0]
    assert hook.keys()[:5] == [expected[0]] * 5
    # The receiver took the timed-out one too: the key is how it drops the repeat.
    assert hook.accepted() == [expected[0], *expected]
    assert [status for *_, status in hook.requests[:5]] == [503, 503, 200, 429, 200]
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected  # Kafka: once each


def test_a_refused_alert_raises_holds_back_only_the_webhook_and_is_not_published_again(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook
):
    _store, view = store_with_findings(store_config, shift)
    expected = [f["finding_id"] for f in warnings(view)]
    hook.answer(400)
    slept, sleep = no_sleep()
    topic = new_topic()
    alerter = Alerter(view, producer, topic, Webhook(hook.url, sleep=sleep))
    with pytest.raises(AlertDeliveryError, match=r"refused finding .* answered 400") as raised:
        alerter.publish_new()
    assert "s3cret" not in str(raised.value)  # the URL's token stays out of messages
    assert (len(hook.requests), slept) == (1, [])  # not retried
    assert view.max_tracking_id(WEBHOOK_TRACKING_NAME) == 0  # the webhook's position stays
    # The topic leg went first and is not held back by the webhook.
    assert view.max_tracking_id(TRACKING_NAME) == warnings(view)[-1]["row_number"]
    # Once the receiver takes it, the same alert goes again, under the same key; Kafka
    # does not get it again.
    assert alerter.publish_new() == 0
    assert hook.keys() == [expected[0], *expected]
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected


def test_a_webhook_added_later_starts_where_the_topic_is(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook
):
    half = len(shift) // 2
    store, view = store_with_findings(store_config, shift[:half])
    topic = new_topic()
    before = Alerter(view, producer, topic).publish_new()
    assert before > 0
    ingest(store, shift[half:], start=half)
    FindingsProjection(store, view).catch_up()
    Alerter(view, producer, topic, Webhook(hook.url)).publish_new()
    expected = [f["finding_id"] for f in warnings(view)]
    assert hook.accepted() == expected[before:]
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected


def test_retries_are_capped_and_an_unreachable_webhook_fails_clearly():
    slept, sleep = no_sleep()
    with ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler) as closed:
        port = closed.server_port  # bound, then closed: nothing listens there
    webhook = Webhook(f"http://127.0.0.1:{port}/", retries=6, max_backoff_s=2.0, sleep=sleep)
    with pytest.raises(AlertDeliveryError, match="after 7 attempts: no answer"):
        webhook.post({"finding_id": "f-1"}, "f-1")
    assert slept == [0.5, 1.0, 2.0, 2.0, 2.0, 2.0]


def test_a_restarted_alerter_sends_nothing_twice_and_then_the_new_findings(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook
):
    half = len(shift) // 2
    _store, view = store_with_findings(store_config, shift[:half])
    topic = new_topic()
    first = Alerter(view, producer, topic, Webhook(hook.url)).publish_new()
    assert first > 0

    restarted_store, restarted_view = reopen(store_config)
    with make_producer(kafka_bootstrap) as restarted_producer:
        restarted = Alerter(restarted_view, restarted_producer, topic, Webhook(hook.url))
        assert restarted.publish_new() == 0
        assert len(read_topic(kafka_bootstrap, topic)) == len(hook.requests) == first
        ingest(restarted_store, shift[half:], start=half)
        FindingsProjection(restarted_store, restarted_view).catch_up()
        assert restarted.publish_new() > 0
    expected = [f["finding_id"] for f in warnings(restarted_view)]
    assert finding_ids(read_topic(kafka_bootstrap, topic)) == expected
    assert hook.accepted() == expected


class SimulatedCrashError(Exception):
    pass


class CrashOnRecording:
    """The real view, except that recording the position number ``crash_at`` fails."""

    def __init__(self, view, crash_at):
        self.view, self.crash_at, self.calls = view, crash_at, 0

    def found_after(self, after_row, min_severity, limit):
        return self.view.found_after(after_row, min_severity, limit)

    def max_tracking_id(self, name):
        return self.view.max_tracking_id(name)

    def insert_tracking(self, tracking):
        self.calls += 1
        if self.calls == self.crash_at:
            raise SimulatedCrashError(f"process died before recording {tracking.notification_id}")
        self.view.insert_tracking(tracking)


@pytest.mark.parametrize("leg", ["topic", "webhook"])
def test_a_crash_before_the_position_is_recorded_resends_that_alert_only(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook, leg
):
    _store, view = store_with_findings(store_config, shift)
    expected = [f["finding_id"] for f in warnings(view)]
    topic = new_topic()
    # Recordings: the webhook's start, one per alert on the topic, then one per webhook post.
    second = 3 if leg == "topic" else 1 + len(expected) + 2
    with pytest.raises(SimulatedCrashError):
        Alerter(
            CrashOnRecording(view, crash_at=second), producer, topic, Webhook(hook.url)
        ).publish_new()
    _restarted_store, restarted_view = reopen(store_config)
    restarted = Alerter(restarted_view, producer, topic, Webhook(hook.url))
    assert restarted.publish_new() == (len(expected) - 1 if leg == "topic" else 0)
    twice = [expected[0], expected[1], *expected[1:]]
    crashed, other = (
        (finding_ids(read_topic(kafka_bootstrap, topic)), hook.keys())
        if leg == "topic"
        else (hook.keys(), finding_ids(read_topic(kafka_bootstrap, topic)))
    )
    assert crashed == twice  # the repeat carries the same id
    assert other == expected
    assert hook.accepted() == hook.keys()


def test_following_sends_new_findings_until_sigterm(
    store_config, shift, kafka_bootstrap, new_topic, hook
):
    half = len(shift) // 2
    _store, view = store_with_findings(store_config, shift[:half])
    before = {f["finding_id"] for f in warnings(view)}
    settings = Settings(kafka_bootstrap_servers=kafka_bootstrap, alerts_topic=new_topic())

    def feed():
        _wait_for(lambda: len(hook.requests) == len(before))
        ingest(FactStore(store_config), shift[half:], start=half)
        # The new findings are judged in one batch and sent in one pass before a stop.
        _wait_for(lambda: set(hook.accepted()) - before)

    sent = _follow_beside(feed, settings, store_config, hook)
    expected = [f["finding_id"] for f in warnings(view)]
    assert len(expected) > len(before)
    assert sent == len(expected)
    assert hook.accepted() == expected
    assert finding_ids(read_topic(kafka_bootstrap, settings.alerts_topic)) == expected


def _follow_beside(helper, settings, store_config, hook, **options):
    """Run ``alerts --follow`` here until ``helper``, on a thread beside it, is done, then stop
    it as a service is stopped (SIGTERM); return how many alerts it sent."""
    failures = []

    def helping():
        try:
            helper()
        except TimeoutError as error:
            failures.append(error)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, lambda *_: None)  # a late signal harms nothing
    thread = threading.Thread(target=helping)
    try:
        thread.start()
        sent = run_alerts(settings, FactStore(store_config), webhook_url=hook.url, follow=True,
                          poll_s=options.pop("poll_s", 0.05), **options)  # fmt: skip
        thread.join()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert failures == []
    return sent


def _wait_for(condition, timeout_s=15.0):
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(0.05)


def test_the_alerts_command_needs_somewhere_to_send_and_reads_the_webhook_from_the_environment(
    tmp_path, shift, kafka_bootstrap, hook, monkeypatch, capsys
):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    monkeypatch.delenv("TABLEWATCH_WEBHOOK_URL", raising=False)
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    assert main(["alerts"]) == 2
    assert "KAFKA_BOOTSTRAP_SERVERS" in capsys.readouterr().err

    ingest(open_store(Settings(data_dir=tmp_path)), shift)
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", kafka_bootstrap)
    assert main(["alerts", "--webhook", "ftp://example.com/hook"]) == 2
    assert "must be an http:// or https:// URL" in capsys.readouterr().err
    monkeypatch.setenv("TABLEWATCH_WEBHOOK_URL", hook.url)
    assert main(["alerts"]) == 0
    sent = len(hook.requests)
    assert sent > 0
    assert f"sent {sent} alerts" in capsys.readouterr().out
    assert main(["alerts"]) == 0
    assert "sent 0 alerts" in capsys.readouterr().out
    assert len(hook.requests) == sent


def test_without_kafka_the_webhook_leg_runs_alone_from_the_first_finding(
    tmp_path, shift, hook, monkeypatch, capsys
):
    # The embedded default: no KAFKA_BOOTSTRAP_SERVERS, SQLite.
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    store = open_store(Settings(data_dir=tmp_path))
    ingest(store, shift)
    assert main(["alerts", "--webhook", hook.url]) == 0
    _, view = reopen(store.config)
    assert hook.accepted() == [f["finding_id"] for f in warnings(view)]
    assert f"sent {len(hook.requests)} alerts" in capsys.readouterr().out
    assert main(["alerts", "--webhook", hook.url]) == 0
    assert "sent 0 alerts" in capsys.readouterr().out


def test_a_webhook_outage_holds_the_leg_backs_off_and_resumes(store_config, shift, hook):
    _store, view = store_with_findings(store_config, shift)
    expected = [f["finding_id"] for f in warnings(view)]
    now = [0.0]
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0),
                      hold_webhook_failures=True, clock=lambda: now[0])  # fmt: skip
    for _ in range(3):
        hook.answer(503)
    assert alerter.publish_new() == 0  # the first POST fails: held, not raised
    assert alerter.webhook_failures == 1
    assert alerter.publish_new() == 0  # still backing off: no request sent
    assert len(hook.requests) == 1
    now[0] += 60
    alerter.publish_new()  # fails again: the wait doubles
    assert alerter.webhook_failures == 2
    now[0] += 60
    alerter.publish_new()
    now[0] += 60
    assert alerter.publish_new() == len(expected)  # the webhook is back: every alert, in order
    assert hook.accepted() == expected
    assert alerter.webhook_failures == 0


def test_each_leg_reads_a_batch_at_a_time_to_the_end_and_a_held_webhook_holds_the_topic_not(
    store_config, shift, kafka_bootstrap, new_topic, producer, hook, monkeypatch
):
    """#16: a leg far behind (here, every alert from the first) reads its backlog a batch at
    a time in one pass, each leg from its own position: the webhook, refused, holds at its
    first alert while the topic delivers every one."""
    import consumers.alerts as alerts_module

    _store, view = store_with_findings(store_config, shift)
    expected = [f["finding_id"] for f in warnings(view)]
    assert len(expected) > 2
    monkeypatch.setattr(alerts_module, "BATCH", 1)
    reads: list[tuple[int, int]] = []

    class Counting:
        def found_after(self, after_row, min_severity, limit):
            found = view.found_after(after_row, min_severity, limit)
            reads.append((limit, len(found)))
            return found

        def __getattr__(self, name):
            return getattr(view, name)

    hook.answer(503)
    alerter = Alerter(Counting(), producer, new_topic(), Webhook(hook.url, retries=0),
                      hold_webhook_failures=True)  # fmt: skip
    assert alerter.publish_new() == len(expected)
    assert {limit for limit, _ in reads} == {1}
    assert len(reads) > len(expected)  # a batch each, the topic's to its end
    assert view.max_tracking_id(TRACKING_NAME) == warnings(view)[-1]["row_number"]
    assert view.max_tracking_id(WEBHOOK_TRACKING_NAME) == 0  # held at its first alert
    assert alerter.webhook_failures == 1


def test_the_alerts_after_a_position_are_read_from_the_primary_key_never_sorted(tmp_path):
    """#16: SQLite keeps no statistics here; through the severity index, each poll would read
    and sort every warning and critical in history."""
    import sqlite3

    from audit.findings.finding import Severity
    from audit.store.application import StoreConfig
    from projections.findings import open_findings_view
    from projections.findings_view import found_after_sql

    config = StoreConfig.sqlite(tmp_path / "alerts.sqlite")
    open_findings_view(FactStore(config))  # the findings table and its indexes
    sql, params = found_after_sql("?", 10, Severity.WARNING, 500)
    with sqlite3.connect(config.sqlite_path) as db:
        plan = db.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
    steps = " / ".join(str(row[-1]) for row in plan)
    assert "TEMP B-TREE" not in steps
    assert "PRIMARY KEY" in steps


def test_one_process_delivers_a_store_s_alerts_and_a_second_says_so_or_stands_by(
    store_config, shift, hook, monkeypatch, capsys
):
    """Each leg reads its position before a delivery and writes it after, so two deliverers
    (``serve`` and ``alerts --follow``) would each send every alert: the alerts lease."""
    if store_config.postgres_url is not None:
        monkeypatch.setenv("DATABASE_URL", store_config.postgres_url)
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(store_config.sqlite_path.parent))
        store_config = StoreConfig.sqlite(store_config.sqlite_path.parent / "tablewatch.sqlite")
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    ingest(FactStore(store_config), shift)
    other = StoreLease(FactStore(store_config), ALERTS)
    assert other.try_acquire()  # another process delivers
    assert main(["alerts", "--webhook", hook.url]) == 2
    err = capsys.readouterr().err
    assert "tablewatch: another tablewatch process delivering alerts holds this store's " in err
    assert "Traceback" not in err
    _, view = reopen(store_config)
    expected = [f["finding_id"] for f in warnings(view)]
    readiness, seen = Readiness(), []

    def stand_by_then_free():
        _wait_for(lambda: readiness.state.last_error is not None)
        time.sleep(0.2)  # several polls standing by
        seen.append((readiness.state.ready, readiness.state.last_error, len(hook.requests)))
        other.release()
        _wait_for(lambda: hook.accepted() == expected)  # the lease free: it delivers

    try:
        sent = _follow_beside(stand_by_then_free, Settings(), store_config, hook,
                              readiness=readiness)  # fmt: skip
    finally:
        other.release()
    [(ready, why, requests)] = seen
    assert not ready
    assert "holds this store's alerts" in why
    assert requests == 0  # standing by, it sent nothing
    assert sent == len(expected)
    assert hook.accepted() == expected  # each once


def test_a_follower_holds_through_a_database_fault_and_judges_nothing_twice(
    store_config, shift, hook, monkeypatch, tmp_path
):
    """The database failing midway through a catch-up (what was applied went with the
    transaction) holds the follower, not ready, and it goes on afresh from what is stored."""
    ingest(FactStore(store_config), shift)
    apply, failed = FindingsProjection.apply, []

    def failing_once(self, fact, notification_id):
        if notification_id == 300 and not failed:
            failed.append(notification_id)
            raise OperationalError("server closed the connection unexpectedly")
        return apply(self, fact, notification_id)

    monkeypatch.setattr(FindingsProjection, "apply", failing_once)
    rebuilt = FactStore(StoreConfig.sqlite(tmp_path / "rebuilt.sqlite"))
    ingest(rebuilt, shift)
    readiness, seen = Readiness(), []
    expected: list[str] = []

    def watch():
        _wait_for(lambda: readiness.state.last_error is not None)
        seen.append(readiness.state.last_error)
        monkeypatch.setattr(FindingsProjection, "apply", apply)
        projection = FindingsProjection(rebuilt)
        projection.catch_up()
        expected.extend(f["finding_id"] for f in warnings(projection.view))
        _wait_for(lambda: hook.accepted() == expected)
        _wait_for(lambda: readiness.state.ready)

    sent = _follow_beside(watch, Settings(), store_config, hook, readiness=readiness,
                          poll_s=0.02)  # fmt: skip
    assert failed == [300]
    assert seen == ["database: server closed the connection unexpectedly"]
    assert expected
    assert sent == len(expected)
    assert hook.accepted() == expected  # each once, as a store judged in one go gives them
