"""Benchmark ``GET /api/rounds/{id}`` (the replay) over HTTP beside the same call in-process.

Run: ``python3 bench/api_replay.py [--facts 1050000 --repeats 30 --cache DIR]``. The store
is ``bench/history.py``'s: one gaming day of 99 Pai Gow tables (2% irregular rounds) of
about ``--facts`` stored events, ingested into SQLite with every read model caught up,
built once into ``--cache`` and copied fresh for each run. In one run, on that copy:

- in-process: ``round_document(load_replay(store, round_id))``, what the route does
  without HTTP (no session, no access log, no JSON encoding);
- HTTP: the app served by uvicorn on a loopback port, called by an httpx client signed
  in as an analyst: routing, the session's lookup, the access log's insert, the replay,
  pydantic's validation and JSON, and the socket.

Each cycles over the same rounds (the last rounds with a finding, across tables, and as
many chosen at random, seeded), ``--repeats`` calls each; p50 and p99 in milliseconds.
Both ways run twice in the run: from the table's last replay point before the round
(what the route does), and, the baseline, from the table's opening that gaming day
(``load_replay(..., from_opening=True)``, what every replay did before the points; over
HTTP the route's ``load_replay`` is swapped for it). Beside them: the replay points'
storage (``replay_contexts``: rows, rows per table-day, bytes of state a row). A store
whose findings view and round index were built before the points has none but the
openings: rebuild those two views from zero first. Target: p99 < 100 ms over HTTP.
Last line: JSON.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import shutil
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history import STORE, cached_store

from audit.store.application import FactStore, StoreConfig
from consumers.replay_cli import load_replay
from consumers.settings import Settings
from consumers.web.api import rounds as rounds_route
from consumers.web.api.rounds import round_document
from consumers.web.app import create_app
from consumers.web.auth import add_user, list_users
from projections.findings import open_findings_view
from projections.findings_view import FindingFilter

TARGET_P99_MS = 100.0
PASSWORD = "a bench password, long enough"


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _figures(samples: list[float]) -> dict[str, float]:
    return {"p50_ms": statistics.median(samples) * 1000, "p99_ms": _quantile(samples, 0.99) * 1000}


def pick_rounds(store: FactStore, shift: Path, count: int) -> list[tuple[str, str]]:
    """Return (table, round) pairs: the newest rounds with a finding, one per table, and
    as many rounds chosen at random (seeded) from the shift the store was built from."""
    found = open_findings_view(store).select(FindingFilter())
    flagged: dict[str, str] = {}
    for row in reversed(found):
        if row["round_id"] and row["table_id"] not in flagged:
            flagged[row["table_id"]] = row["round_id"]
        if len(flagged) >= count:
            break
    every = []
    with shift.open() as lines:
        for line in lines:
            if '"round_started"' in line:
                fact = json.loads(line)
                every.append((str(fact["table_id"]), str(fact["round_id"])))
    chosen = random.Random(2026).sample(every, min(count, len(every)))
    return list(flagged.items()) + chosen


def storage(path: Path) -> dict[str, float]:
    """Return the replay points' rows, rows per table-day and bytes of state a row."""
    with sqlite3.connect(path) as db:
        rows, table_days, total, most = db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT table_id || ' ' || gaming_day), "
            "SUM(LENGTH(state)), MAX(LENGTH(state)) FROM replay_contexts"
        ).fetchone()
    return {
        "rows": rows,
        "rows_per_table_day": rows / max(1, table_days),
        "bytes_per_row": (total or 0) / max(1, rows),
        "max_bytes": most or 0,
    }


def in_process(
    store: FactStore, rounds: list[tuple[str, str]], repeats: int, *, from_opening: bool = False
) -> list[float]:
    """Return the seconds of each in-process replay, as the route builds it."""
    samples = []
    for call in range(repeats):
        table, round_id = rounds[call % len(rounds)]
        started = time.perf_counter()
        round_document(load_replay(store, round_id, table, from_opening=from_opening))
        samples.append(time.perf_counter() - started)
    return samples


def over_http(
    data: Path, rounds: list[tuple[str, str]], repeats: int, *, from_opening: bool = False
) -> list[float]:
    """Return the seconds of each ``GET /api/rounds/{id}`` to a served app (``from_opening``:
    its replay read from the table's opening, the baseline)."""
    replay = functools.partial(load_replay, from_opening=True) if from_opening else load_replay
    rounds_route.load_replay = replay
    store = FactStore(StoreConfig.sqlite(data / STORE))
    app = create_app(Settings(data_dir=data), store=store)
    if "bench" not in {user["name"] for user in list_users(app.state.db)}:  # the first run's
        add_user(app.state.db, "bench", "analyst", PASSWORD)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    samples = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            login = client.get("/login")
            token = login.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
            client.post("/login", data={"name": "bench", "password": PASSWORD,
                                        "csrf_token": token, "next": "/api/me"})  # fmt: skip
            for call in range(repeats):
                table, round_id = rounds[call % len(rounds)]
                started = time.perf_counter()
                answer = client.get(f"/api/rounds/{round_id}", params={"table": table})
                samples.append(time.perf_counter() - started)
                if answer.status_code != 200:
                    raise RuntimeError(f"{round_id}: {answer.status_code} {answer.text[:200]}")
    finally:
        server.should_exit = True
        thread.join(10)
        rounds_route.load_replay = load_replay
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_050_000, help="stored events (1,050,000)")
    parser.add_argument("--repeats", type=int, default=30, help="calls each way (30)")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "tablewatch-bench-history",
        help="where the store is kept between runs (default in the temporary directory)",
    )  # fmt: skip
    args = parser.parse_args()
    home = cached_store(args.cache, args.facts, days=1)
    scratch = Path(tempfile.mkdtemp(prefix="tw-api-replay-"))
    try:
        shutil.copy2(home / "data" / STORE, scratch / STORE)
        store = FactStore(StoreConfig.sqlite(scratch / STORE))
        facts = store.last_notification_id()
        rounds = pick_rounds(store, home / "shift.jsonl", 10)
        points = storage(scratch / STORE)
        runs = {}
        for name, from_opening in (("from_opening", True), ("from_point", False)):
            runs[name] = {
                "in_process": _figures(in_process(store, rounds, args.repeats,
                                                  from_opening=from_opening)),
                "http": _figures(over_http(scratch, rounds, args.repeats,
                                           from_opening=from_opening)),
            }  # fmt: skip
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"store: {facts:,} facts; {len(rounds)} rounds, {args.repeats} calls each way")
    print(f"replay points: {points['rows']:,} rows, {points['rows_per_table_day']:.1f} a "
          f"table-day, {points['bytes_per_row']:,.0f} bytes of state a row "
          f"(most {points['max_bytes']:,})")  # fmt: skip
    print(f"{'replay of one round':28} {'read from':>14} {'p50 ms':>10} {'p99 ms':>10}")
    for run, ways in runs.items():
        start = "opening" if run == "from_opening" else "replay point"
        for name, way in (("in-process", "in_process"), ("GET /api/rounds/{id}", "http")):
            got = ways[way]
            print(f"{name:28} {start:>14} {got['p50_ms']:10.1f} {got['p99_ms']:10.1f}")
    http = runs["from_point"]["http"]
    verdict = "met" if http["p99_ms"] < TARGET_P99_MS else "NOT met"
    print(f"target p99 < {TARGET_P99_MS:.0f} ms over HTTP (from the replay point): {verdict}")
    figures: dict[str, object] = {**runs, "replay_points": points, "target_p99_ms": TARGET_P99_MS}
    print(json.dumps({"bench": "api_replay", "facts": facts, "repeats": args.repeats, **figures}))


if __name__ == "__main__":
    main()
