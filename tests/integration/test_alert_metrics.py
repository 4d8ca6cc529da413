"""``tablewatch alerts --follow --health-port``: deliveries per sink, scraped from /metrics
while a webhook fails and comes back. A real process, the dev broker, SQLite, a local webhook."""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from audit.store.application import StoreConfig
from consumers.alert_metrics import DeliveryMetrics
from consumers.alerts import AlertDeliveryError, Alerter, Webhook
from consumers.settings import Settings
from consumers.wiring import open_store
from tests.builders.alerts import ingest, reopen, store_with_findings, warnings
from tests.builders.metrics import scrape
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]


def readyz(port: int) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for_metrics(port, process, condition, timeout_s=30.0):
    """Scrape until ``condition(samples)`` holds; return the samples."""
    deadline, samples = time.monotonic() + timeout_s, {}
    while True:
        assert process.poll() is None, "the alerter stopped"
        try:
            samples = scrape(port)
        except OSError:
            samples = {}  # not serving yet
        if samples and condition(samples):
            return samples
        assert time.monotonic() < deadline, samples
        time.sleep(0.1)


def test_delivery_counters_follow_a_webhook_outage_and_its_end(
    tmp_path,
    shift,
    hook,
    kafka_bootstrap,
    new_topic,
):
    store = open_store(Settings(data_dir=tmp_path))
    ingest(store, shift)
    topic = new_topic()
    for _ in range(2):
        hook.answer(503)  # the webhook is down for two tries, then answers 200
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
           "TABLEWATCH_DATA_DIR": str(tmp_path), "TABLEWATCH_ALERTS_TOPIC": topic}  # fmt: skip
    env.pop("DATABASE_URL", None)
    started = time.time()
    alerter = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "alerts", "--follow", "--webhook", hook.url,
         "--health-port", str(port)],
        env=env, cwd=ROOT, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    kafka = f'{{sink="kafka",target="{topic}"}}'
    webhook = f'{{sink="webhook",target="http://127.0.0.1:{hook.server.server_port}"}}'
    try:
        # The findings are judged by the alerter's own catch-up, from the stored facts.
        # The first pass ends with the webhook leg's standing noted (1 s before its retry).
        samples = wait_for_metrics(
            port, alerter, lambda s: s.get(f"tablewatch_alerts_waiting{webhook}", 0) > 0
        )
        assert samples[f"tablewatch_alerts_failures_total{webhook}"] == 1
        _, view = reopen(store.config)
        alerts = len(warnings(view))
        assert alerts > 0
        # The topic leg went on while the webhook leg is held, backing off 0.5 s x 2.
        assert samples[f"tablewatch_alerts_sent_total{kafka}"] == alerts
        assert samples[f"tablewatch_alerts_waiting{kafka}"] == 0
        assert samples[f"tablewatch_alerts_sent_total{webhook}"] == 0
        assert samples[f"tablewatch_alerts_waiting{webhook}"] == alerts
        assert samples[f"tablewatch_alerts_retries_total{webhook}"] == 1
        assert samples[f"tablewatch_alerts_backoff_seconds{webhook}"] == 1.0
        assert samples[f"tablewatch_alerts_failures_total{kafka}"] == 0
        assert samples[f"tablewatch_alerts_last_delivery_timestamp_seconds{kafka}"] >= started
        status, reason = readyz(port)
        assert status == 503
        assert "answered 503" in reason
        assert "s3cret" not in reason  # the webhook's token stays out of the probe

        samples = wait_for_metrics(
            port, alerter, lambda s: s.get(f"tablewatch_alerts_sent_total{webhook}") == alerts
        )
        assert samples[f"tablewatch_alerts_failures_total{webhook}"] == 2
        assert samples[f"tablewatch_alerts_retries_total{webhook}"] == 2
        assert samples[f"tablewatch_alerts_backoff_seconds{webhook}"] == 0
        assert samples[f"tablewatch_alerts_waiting{webhook}"] == 0
        last = f"tablewatch_alerts_last_delivery_timestamp_seconds{webhook}"
        assert started <= samples[last] <= time.time()
        assert samples[f"tablewatch_alerts_position{webhook}"] == max(
            row["row_number"] for row in warnings(view)
        )
        assert hook.accepted() == [row["finding_id"] for row in warnings(view)]
        status, _ = wait_for_ready(port)
        assert status == 200
    finally:
        alerter.send_signal(signal.SIGTERM)
        assert alerter.wait(timeout=30) == 0


def wait_for_ready(port, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while (answer := readyz(port))[0] != 200 and time.monotonic() < deadline:
        time.sleep(0.1)
    return answer


def test_retries_inside_one_delivery_are_counted_and_a_refusal_is_a_failure(tmp_path, shift, hook):
    _store, view = store_with_findings(StoreConfig.sqlite(tmp_path / "store.sqlite"), shift)
    alerts = len(warnings(view))
    metrics = DeliveryMetrics()
    slept = []
    webhook = Webhook(hook.url, retries=3, backoff_s=0.25, sleep=slept.append)
    alerter = Alerter(view, None, "unused", webhook, metrics=metrics)
    hook.answer(503)
    hook.answer(429, {"Retry-After": "2"})
    target = {"sink": "webhook", "target": webhook.name}

    def value(name):
        return metrics.registry.get_sample_value(name, target)

    assert value("tablewatch_alerts_sent_total") == 0
    assert alerter.publish_new() == alerts
    assert slept == [0.25, 2.0]
    assert value("tablewatch_alerts_retries_total") == 2
    assert value("tablewatch_alerts_failures_total") == 0
    assert value("tablewatch_alerts_sent_total") == alerts
    assert value("tablewatch_alerts_backoff_seconds") == 0

    _store, view = store_with_findings(StoreConfig.sqlite(tmp_path / "again.sqlite"), shift)
    refused = Alerter(view, None, "unused", webhook, metrics=metrics)
    hook.answer(400)
    with pytest.raises(AlertDeliveryError):
        refused.publish_new()
    assert value("tablewatch_alerts_failures_total") == 1
    assert value("tablewatch_alerts_sent_total") == alerts
