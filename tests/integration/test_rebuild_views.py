"""``tablewatch serve --rebuild-views`` (#16): every read model's view emptied and judged again
from the stored facts, with nothing alerted twice and no waiting alert lost. Real SQLite and
PostgreSQL stores, a local webhook, and the command as a real process."""

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry

from audit.store.application import FactStore, StoreConfig
from consumers.alerts import (
    WEBHOOK_TRACKING_NAME,
    AlertDeliveryError,
    Alerter,
    Webhook,
    horizon_name,
)
from consumers.rebuild_views import rebuild_views
from consumers.serve import Service
from consumers.store_lease import ALERTS, StoreLease
from projections.findings import FindingsProjection
from projections.read_models import READ_MODELS
from tests.builders.alerts import ingest, warnings
from tests.builders.gaming_days import VIEWS, view_rows
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]


def _rows(store):
    return {kind.__name__: view_rows(kind(store)) for kind in READ_MODELS}


def _served(store, hook):
    view = FindingsProjection(store).view
    service = Service(store, alerter=Alerter(view, None, "unused", Webhook(hook.url, retries=0)))
    service.run_pass()
    service.deliver_alerts()
    return service, view


def test_a_rebuild_judges_every_view_again_and_alerts_only_what_is_new(store_config, shift, hook):
    store = FactStore(store_config)
    ingest(store, shift[:200])
    _, view = _served(store, hook)
    sent = hook.accepted()
    assert sent
    judged = _rows(store)
    last_sent = next(f for f in warnings(view) if f["finding_id"] == sent[-1])

    emptied = rebuild_views(store)

    assert emptied.horizons == {WEBHOOK_TRACKING_NAME: last_sent["notification_id"]}
    assert view.max_tracking_id(horizon_name(WEBHOOK_TRACKING_NAME)) == last_sent["notification_id"]
    assert all(kind(store).position == 0 for kind in READ_MODELS)
    assert all(rows == [] for rows in _rows(store).values())
    _served(store, hook)  # the service's next pass: every view from the first fact
    assert _rows(store) == judged
    assert hook.accepted() == sent  # the re-judged past is not alerted again
    ingest(store, shift[200:], start=200)
    _served(store, hook)
    expected = [f["finding_id"] for f in warnings(view)]
    assert len(expected) > len(sent)
    assert hook.accepted() == expected  # what came after, each once, in order


def test_an_alert_still_waiting_at_the_rebuild_goes_out_after_it(tmp_path, shift, hook):
    """The leg had delivered the first alerts only (the webhook down since): the rebuild passes
    over what it delivered and sends the rest, as it would have without the rebuild."""
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    ingest(store, shift)
    view = FindingsProjection(store).view
    service = Service(store)
    service.run_pass()
    everything = [f["finding_id"] for f in warnings(view)]
    assert len(everything) >= 2
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0))
    hook.answer(200)
    hook.answer(503)  # the second alert is refused: the leg holds after the first
    with pytest.raises(AlertDeliveryError):  # a one-off alerter raises what was refused
        alerter.publish_new()
    assert hook.accepted() == everything[:1]

    rebuild_views(store)
    Service(store).run_pass()
    alerter.publish_new()

    assert hook.accepted() == everything  # the first once, then every one still waiting


def test_a_second_rebuild_before_the_first_was_delivered_past_keeps_its_horizon(
    tmp_path, shift, hook
):
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    ingest(store, shift)
    _served(store, hook)
    first = rebuild_views(store).horizons[WEBHOOK_TRACKING_NAME]
    Service(store).run_pass()  # rebuilt, but no alert pass yet: the leg stands where it stood
    assert rebuild_views(store).horizons[WEBHOOK_TRACKING_NAME] == first
    sent = hook.accepted()
    _served(store, hook)
    assert hook.accepted() == sent


def _until(condition, what, within_s=30.0):
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _ok_passes(registry):
    return registry.get_sample_value("tablewatch_serve_passes_total", {"outcome": "ok"}) or 0


def test_a_rebuild_asked_mid_delivery_waits_for_it_so_nothing_goes_out_twice(tmp_path, shift, hook):
    """The webhook answers the first alert slowly; the rebuild asked meanwhile must count it,
    and the others that delivery sends, as delivered: a horizon read before their positions
    were written would send each again once rebuilt."""
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    ingest(store, shift)
    view = FindingsProjection(store).view
    registry = CollectorRegistry()
    alerter = Alerter(view, None, "unused", Webhook(hook.url, retries=0))
    service = Service(store, registry=registry, alerter=alerter, rebuild_views=True)
    service.run_pass()
    everything = [f["finding_id"] for f in warnings(view)]
    assert len(everything) >= 2
    hook.answer(200, delay_s=2.0)
    delivering = threading.Thread(target=service.deliver_alerts)
    delivering.start()
    _until(lambda: hook.requests, "the first alert never reached the webhook")

    runner = threading.Thread(target=service.run, args=(lambda: _ok_passes(registry) >= 2, 0.05))
    runner.start()  # the rebuild, then a pass
    _until(lambda: "this service is delivering alerts" in service.health.reason, "never said")
    assert service.rebuild_pending  # nothing emptied under the delivery
    runner.join(timeout=60)
    delivering.join(timeout=30)
    service.deliver_alerts()

    assert not service.rebuild_pending
    assert [f["finding_id"] for f in warnings(view)] == everything  # judged again, the same
    assert hook.accepted() == everything  # each once


def test_serve_rebuild_views_waits_while_another_process_delivers_the_alerts(store_config, shift):
    """``alerts --follow`` holds the store's alerts lease: its deliveries are out of the
    service's sight, so the views are emptied only once it stops, and ``/readyz`` says so."""
    store = FactStore(store_config)
    ingest(store, shift)
    Service(store).run_pass()
    judged = _rows(store)
    follower = StoreLease(store, ALERTS)
    assert follower.try_acquire()
    lease = StoreLease(store)
    assert lease.try_acquire()
    registry = CollectorRegistry()
    service = Service(store, registry=registry, lease=lease, rebuild_views=True)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop.is_set, 0.05))
    runner.start()
    try:
        _until(lambda: "wait to be rebuilt" in service.health.reason, "never said it waits")
        assert not service.health.ready
        assert follower.describe() in service.health.reason  # where the holder's lease is kept
        time.sleep(0.2)  # polls go by: still nothing emptied, nothing judged
        assert service.rebuild_pending
        assert _ok_passes(registry) == 0
        assert _rows(store) == judged

        follower.release()
        _until(lambda: _ok_passes(registry) >= 1, "the views were never rebuilt")
    finally:
        stop.set()
        runner.join(timeout=30)
        lease.release()
        follower.release()
    assert not service.rebuild_pending
    assert service.health.ready
    assert _rows(store) == judged
    again = StoreLease(store, ALERTS)
    assert again.try_acquire()  # the rebuild kept it for its moment only
    again.release()


def test_every_table_a_read_model_makes_is_one_it_names(tmp_path):
    """A newcomer's read model must name its tables (``view_tables``), or a rebuild would leave
    its rows beside positions set to 0."""
    path = tmp_path / "s.sqlite"
    FactStore(StoreConfig.sqlite(path))
    store_only = _tables(path)
    store = FactStore(StoreConfig.sqlite(path))
    for kind in READ_MODELS:
        kind(store)
    made = _tables(path) - store_only - {"projection_checkpoints"}
    named = {table for kind in READ_MODELS for table in kind.view_tables}
    assert made == named
    for kind in READ_MODELS:  # and what the rebuild tests compare is what each names
        assert {table for table, _, _ in VIEWS[kind]} == set(kind.view_tables), kind


def _tables(path):
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows if not name.startswith("sqlite_")}


def test_serve_rebuild_views_says_what_it_emptied_then_serves_them_rebuilt(tmp_path, shift):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "d")}
    env.pop("DATABASE_URL", None)  # the store where the service's default puts it
    store = FactStore(StoreConfig.sqlite(tmp_path / "d" / "tablewatch.sqlite"))
    ingest(store, shift)
    Service(store).run_pass()
    judged = _rows(store)
    service = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "serve", "--rebuild-views", "--no-alerts",
         "--port", str(free_port())],
        env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    said = []
    watchdog = threading.Timer(60, service.kill)  # a service that never says it ends the read
    watchdog.start()
    try:
        assert service.stderr is not None
        for line in service.stderr:  # line by line, until the views are emptied
            said.append(line)
            if "views emptied" in line:
                break
        deadline = time.monotonic() + 60
        while not all(kind(store).position == store.last_notification_id() for kind in READ_MODELS):
            assert service.poll() is None, "the service ended"
            assert time.monotonic() < deadline, "the views were never rebuilt"
            time.sleep(0.05)
    finally:
        watchdog.cancel()
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=30)
    text = "".join(said)
    assert "views emptied (7 read models" in text, text
    assert f"judging {store.last_notification_id():,} stored events again" in text
    assert _rows(store) == judged
