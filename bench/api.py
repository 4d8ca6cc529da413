"""Benchmark the web API on a store of at least 1M facts: HTTP beside the same work in process.

Run: ``python3 bench/api.py [--facts 1000000 --cache DIR --repeats 200]``. The store is
built once (99 Pai Gow tables over four gaming days, 2% irregular rounds, about
``--facts`` stored events in all), every read model brought up to date in one pass, and
kept in ``--cache`` (default in the system's temporary directory) for later runs.

Each call is timed ``--repeats`` times, after a few warm-up calls:

- over HTTP: the app on uvicorn on a loopback port, an httpx client signed in as an
  analyst, the whole request (routing, session, access log, JSON);
- in process: the same read and the same access-log write, without HTTP.

The calls: the findings queue's first page (50, as the findings occurred), a page filtered by
table, and one filtered by table and code prefix deep in the queue (page 20). Target:
p99 < 100 ms over HTTP. The replay endpoint's figures join these when it lands (its
call goes in ``calls``). Last line: JSON of every figure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

import httpx
import uvicorn

from audit.events.catalogue import (
    event_json,
    parse_event,
)
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from consumers.serve import Service
from consumers.settings import Settings
from consumers.web.access_log import record_access
from consumers.web.api.findings_query import select_page
from consumers.web.app import create_app
from consumers.web.auth import User, add_user
from projections.findings_view import FindingFilter

TABLES = 99
DAYS = 4
EVENTS_PER_ROUND = 41.5
FIRST_DAY = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
IRREGULAR = 0.02
STORE = "tablewatch.sqlite"
PASSWORD = "bench password, long enough"
BATCH = 5_000
TARGET_P99_MS = 100.0


def cached_store(cache: Path, facts: int) -> Path:
    """Return the path of a caught-up store of about ``facts`` events, built once."""
    rounds = max(1, round(facts / DAYS / TABLES / EVENTS_PER_ROUND))
    home = cache / f"paigow-{TABLES}x{rounds}x{DAYS}d"
    path = home / STORE
    if (home / "ready").exists():
        return path
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    store = FactStore(StoreConfig.sqlite(path))
    ingestor = Ingestor(store)
    offsets: dict[str, int] = {}  # each day's tables go on from the day before's seq
    position = 0
    started = time.perf_counter()
    for day in range(DAYS):
        config = ShiftConfig(TABLES, rounds, start=FIRST_DAY + timedelta(days=day), shifts=2)
        shift, _ = careless_shift(config, Random(2026 + day), IRREGULAR)
        ends: dict[str, int] = {}
        batch: list[Accepted] = []
        for event in shift:
            fact = json.loads(event_json(event))
            fact["seq"] += offsets.get(fact["table_id"], 0)
            ends[fact["table_id"]] = max(fact["seq"], ends.get(fact["table_id"], -1))
            batch.append(Accepted(parse_event(json.dumps(fact)), "bench"))
            if len(batch) == BATCH:
                position += len(batch)
                ingestor.record_batch(batch, "bench", position - 1)
                batch = []
        if batch:
            position += len(batch)
            ingestor.record_batch(batch, "bench", position - 1)
        offsets.update((table, seq + 1) for table, seq in ends.items())
        print(
            f"  day {day + 1}: {position:,} events ingested "
            f"({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
        )
    Service(store).run_pass()  # every read model, each fact read once
    print(f"  read models caught up ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    (home / "ready").touch()
    return path


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time(call: Callable[[], Any], repeats: int) -> dict[str, float]:
    for _ in range(5):
        call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(_quantile(samples, 0.99), 2),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=1_000_000, help="stored events (1,000,000)")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "tablewatch-bench-api"
    )
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    path = cached_store(args.cache, args.facts)
    store = FactStore(StoreConfig.sqlite(path))
    facts = store.last_notification_id()
    app = create_app(Settings(data_dir=path.parent), store=store)
    if not app.state.db.query("SELECT 1 FROM web_users WHERE name = {p}", ["bench"]):
        add_user(app.state.db, "bench", "analyst", PASSWORD)
    user = User("bench", "analyst")
    view = app.state.views.findings
    rows = view.select(FindingFilter(by_time=True))
    table = max({r["table_id"] for r in rows}, key=lambda t: sum(r["table_id"] == t for r in rows))
    prefix = "PG-"
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}")
    form = client.get("/login").text
    token = form.split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/login", data={"name": "bench", "password": PASSWORD, "csrf_token": token})

    def in_process(query: FindingFilter, code_prefix: str | None, page: int) -> Callable[[], Any]:
        def call() -> Any:
            found = select_page(
                view, query, code_prefix=code_prefix, limit=50, offset=(page - 1) * 50
            )
            record_access(app.state.db, user, "findings", "bench")
            return found

        return call

    calls: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "findings first page": (
            lambda: client.get("/api/findings").raise_for_status(),
            in_process(FindingFilter(by_time=True), None, 1),
        ),
        f"findings of table {table}": (
            lambda: client.get("/api/findings", params={"table": table}).raise_for_status(),
            in_process(FindingFilter(table_id=table, by_time=True), None, 1),
        ),
        "findings, code prefix, page 20": (
            lambda: client.get(
                "/api/findings", params={"code_prefix": prefix, "page": 20}
            ).raise_for_status(),
            in_process(FindingFilter(by_time=True), prefix, 20),
        ),
    }
    print(f"store: {facts:,} stored events, {len(rows):,} findings; {args.repeats} calls each")
    figures: dict[str, Any] = {"facts": facts, "findings": len(rows)}
    for name, (over_http, direct) in calls.items():
        http = _time(over_http, args.repeats)
        plain = _time(direct, args.repeats)
        figures[name] = {"http": http, "in_process": plain}
        verdict = "ok" if http["p99_ms"] < TARGET_P99_MS else "OVER TARGET"
        print(
            f"{name:34} HTTP p50 {http['p50_ms']:7.2f} ms  p99 {http['p99_ms']:7.2f} ms   "
            f"in process p50 {plain['p50_ms']:7.2f} ms  p99 {plain['p99_ms']:7.2f} ms  "
            f"({verdict}: p99 < {TARGET_P99_MS:.0f} ms)"
        )
    server.should_exit = True
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
