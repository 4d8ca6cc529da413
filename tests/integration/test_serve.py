"""``tablewatch serve``: every read model kept caught up, exactly once across a SIGKILL, with
health and metrics over HTTP. Real SQLite and PostgreSQL stores; the service a real process."""

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from eventsourcing.persistence import OperationalError
from prometheus_client import generate_latest

from audit.store.application import FactStore, StoreConfig
from consumers.serve import READ_MODELS, Service, health_server
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.together import catch_up_together
from tests.builders.gaming_days import Feed, gaming_day, view_rows
from tests.builders.net import free_port

ROOT = Path(__file__).resolve().parents[2]
DAYS = 8
"""Enough facts (about 7,000) that a pass writes several batches: the kill lands between two."""
PASS_BATCH = 1_000
"""The service's batch here (TABLEWATCH_PASS_BATCH), well under a pass of DAYS."""


def _fed(config: StoreConfig, days: int) -> FactStore:
    store = FactStore(config)
    feed = Feed(store)
    for day in range(days):
        feed(gaming_day(day, seed=20 + day))
    return store


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _positions(store: FactStore) -> list[int]:
    return [kind(store).position for kind in READ_MODELS]


def _plain(rows):
    return [tuple("" if v is None else str(int(v) if isinstance(v, bool) else v) for v in row)
            for row in rows]  # fmt: skip


def test_health_readiness_and_metrics_follow_the_passes(tmp_path):
    store = _fed(StoreConfig.sqlite(tmp_path / "s.sqlite"), days=1)
    service = Service(store)
    server = health_server(service, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        assert _get(f"{base}/healthz") == (200, "ok\n")
        assert _get(f"{base}/readyz")[0] == 503  # no pass yet
        assert service.run_pass() > 0
        assert _get(f"{base}/readyz") == (200, "caught up\n")
        status, metrics = _get(f"{base}/metrics")
        assert status == 200
        assert 'tablewatch_read_model_lag{read_model="findings<-tablewatch"} 0.0' in metrics
        assert "tablewatch_serve_passes_total" in metrics
        assert _get(f"{base}/nothing")[0] == 404
    finally:
        server.shutdown()


def _lags(service: Service) -> dict[str, float]:
    """Return ``tablewatch_read_model_lag`` by read model, as a scrape reads it."""
    prefix = 'tablewatch_read_model_lag{read_model="'
    lines = generate_latest(service.registry).decode().splitlines()
    return {line[len(prefix) :].split('"')[0]: float(line.rsplit(" ", 1)[1])
            for line in lines if line.startswith(prefix)}  # fmt: skip


def test_the_lag_falls_batch_by_batch_while_a_pass_runs(tmp_path):
    store = _fed(StoreConfig.sqlite(tmp_path / "s.sqlite"), days=4)  # about 3,500 facts
    service = Service(store, batch=PASS_BATCH)
    last = store.last_notification_id()
    names = [model.tracking_name for model in service.read_models]
    assert _lags(service) == dict.fromkeys(names, last)  # before any pass: every fact to apply
    seen: list[dict[str, float]] = []

    def stopped() -> bool:  # asked after each batch is written
        seen.append(_lags(service))
        return False

    service.run_pass(stopped)
    findings = [lags["findings<-tablewatch"] for lags in seen]
    assert len(findings) >= 3
    assert findings == sorted(findings, reverse=True)
    assert len(set(findings)) == len(findings)  # a fall at every batch
    assert 0 < findings[-1] < findings[0] < last
    assert _lags(service) == dict.fromkeys(names, 0)


def test_the_lag_is_the_stored_position_whoever_wrote_it(tmp_path):
    """A split pass's second process writes positions this process's read models do not hold:
    the scrape reads them from the store."""
    store = _fed(StoreConfig.sqlite(tmp_path / "s.sqlite"), days=1)
    service = Service(store)
    catch_up_together([kind(store) for kind in READ_MODELS])  # another process's read models
    assert all(model.position == 0 for model in service.read_models)
    assert set(_lags(service).values()) == {0}


def test_a_scrape_with_the_database_away_gives_no_lag_and_no_error(tmp_path, monkeypatch):
    store = _fed(StoreConfig.sqlite(tmp_path / "s.sqlite"), days=1)
    service = Service(store)

    def away() -> int:
        raise OperationalError("the database went away")

    monkeypatch.setattr(store, "last_notification_id", away)
    text = generate_latest(service.registry).decode()
    assert "tablewatch_read_model_lag{" not in text
    assert "tablewatch_serve_passes" in text  # the other metrics are still scraped


def _children(pid: int) -> set[int]:
    """Return the processes ``pid`` started (every thread's), from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found |= {int(child) for child in task.read_text().split()}
        except FileNotFoundError:  # the thread ended between the listing and the read
            continue
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie is dead, waiting for its reaper


# Each database once and each way of running a pass once, kept to two runs for the suite's time.
def _assert_views_as_rebuilt(store: FactStore, tmp_path: Path) -> None:
    """Every view of ``store`` (gaming days 0 and 1, seeds 20 and 21) as a rebuild from zero."""
    rebuilt_store = FactStore(StoreConfig.sqlite(tmp_path / "rebuilt.sqlite"))
    again = Feed(rebuilt_store)
    again(gaming_day(0, seed=20))
    again(gaming_day(1, seed=21))
    rebuilt = [kind(rebuilt_store) for kind in READ_MODELS]
    catch_up_together(rebuilt)
    for mine, theirs in zip([kind(store) for kind in READ_MODELS], rebuilt, strict=True):
        assert mine.position == store.last_notification_id()
        assert _plain(view_rows(mine)) == _plain(view_rows(theirs)), mine.tracking_name


def test_a_view_another_process_wrote_past_the_service_is_kept_and_the_service_goes_on(
    tmp_path,
):
    """A writer that took no lease (an older command, a script) moves the findings view past
    the position the service holds in memory: the service's next write conflicts. It opens
    its read models afresh and goes on, rather than ending, and every view equals a rebuild."""
    config = StoreConfig.sqlite(tmp_path / "s.sqlite")
    store = FactStore(config)
    feed = Feed(store)
    feed(gaming_day(0, seed=20))
    service = Service(store)
    service.run_pass()
    feed(gaming_day(1, seed=21))
    FindingsProjection(FactStore(config)).catch_up()  # past the service's position in memory
    polls: list[int] = []

    def stopped() -> bool:
        polls.append(1)
        return len(polls) > 4

    service.run(stopped, poll_s=0.01)
    metrics = generate_latest(service.registry).decode()
    assert 'tablewatch_serve_passes_total{outcome="moved"} 1.0' in metrics
    assert service.health.ready
    _assert_views_as_rebuilt(store, tmp_path)


def test_a_defect_stops_its_read_model_alone_and_the_service_says_so_until_it_goes_through(
    tmp_path, monkeypatch
):
    """A read model raising on a fact ended the passes' thread while ``/readyz`` went on
    saying "caught up" from the pass before, and took every other read model with it. Now it
    alone stops, named on ``/readyz`` and tried again with a back-off, while the others (the
    findings, so the alerts) go on; once mended, it catches up."""
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    feed = Feed(store)
    feed(gaming_day(0, seed=20))
    service = Service(store)
    service.run_pass()
    feed(gaming_day(1, seed=21))
    apply = HandHistoryProjection.apply

    def broken(self, fact, notification_id):
        raise ZeroDivisionError("a defect in a read model")

    monkeypatch.setattr(HandHistoryProjection, "apply", broken)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop.is_set, 0.01))
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while service.health.ready:
            assert time.monotonic() < deadline, "the defect never showed on /readyz"
            time.sleep(0.005)
        assert service.health.reason == (
            "read models stopped on a defect (hand-history<-tablewatch: ZeroDivisionError: a "
            "defect in a read model); tried again, the others go on"
        )
        assert runner.is_alive()
        last = store.last_notification_id()
        while FindingsProjection(store).position < last:
            assert time.monotonic() < deadline, "the findings stopped with the hand history"
            time.sleep(0.01)
        stopped_at = HandHistoryProjection(store).position
        assert stopped_at < last
        scraped = generate_latest(service.registry).decode()
        assert 'tablewatch_read_model_stopped{read_model="hand-history<-tablewatch"} 1.0' in scraped
        assert 'tablewatch_read_model_stopped{read_model="findings<-tablewatch"} 0.0' in scraped
        assert {kind(store).position for kind in READ_MODELS} == {stopped_at, last}
        monkeypatch.setattr(HandHistoryProjection, "apply", apply)  # mended
        while not service.health.ready:
            assert time.monotonic() < deadline + 30, "the service never went on"
            time.sleep(0.01)
    finally:
        stop.set()
        runner.join(timeout=30)
    metrics = generate_latest(service.registry).decode()
    assert 'tablewatch_serve_passes_total{outcome="defect"}' in metrics
    assert 'tablewatch_read_model_stopped{read_model="hand-history<-tablewatch"} 0.0' in metrics
    assert _positions(store) == [store.last_notification_id()] * len(READ_MODELS)
    _assert_views_as_rebuilt(store, tmp_path)


@pytest.mark.parametrize(
    ("store_config", "processes"), [("sqlite", 1), ("postgres", 2)], indirect=["store_config"]
)
def test_a_service_killed_mid_pass_resumes_and_every_view_equals_a_rebuild(
    store_config, processes, tmp_path
):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "d")}
    # Two processes: every pass is split (projections/split.py), and the kill must take both.
    env.update(TABLEWATCH_SERVE_PROCESSES=str(processes), TABLEWATCH_SPLIT_BACKLOG="1")
    env["TABLEWATCH_PASS_BATCH"] = str(PASS_BATCH)
    if store_config.postgres_url is not None:
        env["DATABASE_URL"] = store_config.postgres_url
    else:  # the store where the service's default puts it, so both open the same file
        env.pop("DATABASE_URL", None)
        store_config = StoreConfig.sqlite(tmp_path / "d" / "tablewatch.sqlite")
    store = _fed(store_config, days=DAYS)
    last = store.last_notification_id()
    service = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "serve", "--port", str(free_port())],
        env=env, cwd=ROOT, stderr=subprocess.PIPE,
    )  # fmt: skip
    children: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while not any(0 < p < last for p in _positions(store)) or len(children) < processes - 1:
            assert service.poll() is None, service.stderr.read().decode()
            assert time.monotonic() < deadline, "the service never wrote a batch"
            children |= _children(service.pid)
            time.sleep(0.02)
    finally:
        service.send_signal(signal.SIGKILL)
        service.wait(timeout=30)
    assert _positions(store) != [last] * len(READ_MODELS)  # killed before it was done
    deadline = time.monotonic() + 10
    while any(_running(child) for child in children):  # none left writing beside a successor
        assert time.monotonic() < deadline, f"the service's processes outlived it: {children}"
        time.sleep(0.05)
    resumed = [kind(FactStore(store_config)) for kind in READ_MODELS]
    catch_up_together(resumed)
    rebuilt_store = _fed(StoreConfig.sqlite(tmp_path / "rebuilt.sqlite"), days=DAYS)
    rebuilt = [kind(rebuilt_store) for kind in READ_MODELS]
    catch_up_together(rebuilt)
    for mine, theirs in zip(resumed, rebuilt, strict=True):
        assert mine.position == last
        assert _plain(view_rows(mine)) == _plain(view_rows(theirs)), mine.tracking_name


@pytest.mark.parametrize(("when", "processes"), [("caught up", 1), ("mid-pass", 2)])
def test_a_service_stopped_by_sigterm_stores_its_state_and_restarts_reading_no_fact(
    tmp_path, when, processes
):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "d")}
    env.update(TABLEWATCH_SERVE_PROCESSES=str(processes), TABLEWATCH_SPLIT_BACKLOG="1")
    env["TABLEWATCH_PASS_BATCH"] = str(PASS_BATCH)
    env.pop("DATABASE_URL", None)
    store_config = StoreConfig.sqlite(tmp_path / "d" / "tablewatch.sqlite")
    days = DAYS if when == "mid-pass" else 2
    store = _fed(store_config, days=days)
    last = store.last_notification_id()
    service = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "serve", "--port", str(free_port())],
        env=env, cwd=ROOT, stderr=subprocess.PIPE,
    )  # fmt: skip

    def far_enough() -> bool:
        positions = _positions(store)
        if when == "mid-pass":
            return any(0 < p < last for p in positions)  # a batch written, not all
        return positions == [last] * len(READ_MODELS)

    try:
        deadline = time.monotonic() + 90
        while not far_enough():
            assert service.poll() is None, service.stderr.read().decode()
            assert time.monotonic() < deadline, "the service never got there"
            time.sleep(0.02)
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=60) == 0, service.stderr.read().decode()
    if when == "mid-pass":  # stopped at a batch's end, not at the pass's
        assert _positions(store) != [last] * len(READ_MODELS)
    restarted = [kind(FactStore(store_config)) for kind in READ_MODELS]
    for model in restarted:
        model.warm_up()
        assert model.facts_read == 0, model.tracking_name
    catch_up_together(restarted)
    rebuilt_store = _fed(StoreConfig.sqlite(tmp_path / "rebuilt.sqlite"), days=days)
    rebuilt = [kind(rebuilt_store) for kind in READ_MODELS]
    catch_up_together(rebuilt)
    for mine, theirs in zip(restarted, rebuilt, strict=True):
        assert mine.position == last
        assert _plain(view_rows(mine)) == _plain(view_rows(theirs)), mine.tracking_name
