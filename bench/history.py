"""Benchmark what history costs: restarts and queries on a store of N facts beside one of 4N.

Run: ``python3 bench/history.py [--facts 200000 --cache DIR --repeats 20 --days 1
--passes 3]``.
History grows as it does on a floor, by gaming days of the same length: the store of N
facts holds ``--days`` gaming days of 99/days Pai Gow tables (2 shifts, 2% irregular
rounds; by default one day of 99 tables), the store of 4N four times as many days, the
same tables (``PG-01`` up) each day, so per-table state is the same at both sizes. Some
state is held for a window of days by design (the accounts 7 gaming days, the recurrence
screen 30): inside it, state grows with the days; ``--days 32`` puts the windows inside
N, so that 4N/N measures history alone. Each is ingested into a SQLite store and every
read model brought up to date, once: the stores are kept in ``--cache`` (default outside
the repository, in the system's temporary directory) and reused by later runs. Each
measurement then works on a fresh copy of the cached store, so no run changes what the
next one measures. For each size:

- ingest restart: ``tablewatch ingest --from-file`` in a child process (as run by hand,
  with its validating child) of the store's last line, already stored: the cost of
  starting against the history and finding nothing new. Wall time and peak RSS (the
  larger of the process's and its children's);
- projection restart: each read model opened and brought to the point where it can apply
  the next fact (its state loaded: ``FactProjection.warm_up``), in process, and the stored
  facts it read to get there. The stores are left as ``tablewatch serve`` leaves them on
  SIGTERM, each state stored at its position, so this is a planned restart; after a kill a
  restart also replays the facts since its last checkpoint, at most ``checkpoint_every``
  (20,000) whatever the history;
- query latency, p50 and p99 over ``--repeats`` calls of ``consumers.cli.main``, the
  function the console script calls: ``findings --table T`` (every finding of the table:
  with the same tables every day its answer grows with the days, so it is shown beside
  the rows it returns and not held to the target), ``findings --table T --gaming-day D``
  (the table's last day: a fixed answer, held to it), ``replay ROUND`` (the
  store's last :data:`REPLAYED` rounds with a finding in turn, each one's table found
  through the round index: what one replay reads depends on where its round falls after
  its table's last replay point, which one round alone would pick by chance) and
  ``report mgr --gaming-day D`` and ``report variance --gaming-day D`` (the last day),
  output discarded;
- console latency, p50 and p99 over ``--repeats`` requests through the app in process,
  signed in as an analyst: the findings queue's first page, newest first as the console
  opens it (``/api/findings?order=newest``), and the floor (``/api/floor``), the two pages
  an analyst opens all day;
- replay: the last 20 rounds with a finding replayed in turn (``load_replay``), the median
  seconds and the stored facts each reads (median and most), beside the last of them
  replayed by the scan of every stored fact it replaced (the baseline, same store, same
  run). ``--only replay`` measures this alone;
- state: the bytes of each read model's stored state (its checkpoint), what a restart
  loads and the service holds: a figure free of the machine's noise.

Each size is measured ``--passes`` times, the two in turn, and each figure printed is the
median of its passes. Target: every figure at 4N within 1.5x of the same figure at N. Last
line: JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

from audit.events.catalogue import event_json, parse_event
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.verification.paigow.replay import replay_round
from consumers.cli import main as cli
from consumers.replay_cli import load_replay, read_round
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter
from projections.read_models import READ_MODELS
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.together import rest_together

ROOT = Path(__file__).resolve().parents[1]
TABLES = 99
"""The tables of a day of the store of N with ``--days 1``; with more days, 99/days of
them (``PG-01`` up), the same ones every day of both stores."""
EVENTS_PER_ROUND = 41.5
"""A Pai Gow round's stored events (simulated, with each round's aggregate)."""
FIRST_DAY = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
IRREGULAR = 0.02
TARGET_RATIO = 1.5
PROJECTIONS: tuple[Callable[[FactStore], FactProjection], ...] = READ_MODELS
"""Every read model ``tablewatch serve`` keeps (until 2026-11-27 the bench listed its own six
and left out the equipment view)."""
STORE = "tablewatch.sqlite"
REPLAYED = 20
"""Rounds replayed for the bounded replay's figures (the last ones with a finding): on these
floors all in the accounts' window, where each table keeps a replay point every few rounds
(further back, a replay reads from its table's opening of that day: docs/history.md)."""
UNTARGETED = (
    "stored events", "replay by scan (before) p50 s", "replay by scan (before) facts read",
    "findings --table p50 s", "findings --table p99 s", "findings --table rows",
    "replay (bounded) facts read, most",
)  # fmt: skip
"""Figures shown for scale, as a baseline, or as an answer's size, not held to the target.
The most facts one of the 20 replays read is the largest of 20 draws, each bounded by
design (the rounds since the table's last replay point: at most ROUNDS_BETWEEN, 8): it
lands near that bound in one store and below it in the other by chance; the median is
held."""


def _environment(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["TABLEWATCH_DATA_DIR"] = str(data_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def cached_store(cache: Path, facts_a_day: int, days: int, tables: int = TABLES) -> Path:
    """Return the directory of a caught-up store of ``days`` gaming days of about
    ``facts_a_day`` stored events each, on ``tables`` tables, built once."""
    rounds = max(1, round(facts_a_day / tables / EVENTS_PER_ROUND))
    home = cache / f"paigow-{tables}x{rounds}x{days}d-same-tables"
    config = StoreConfig.sqlite(home / "data" / STORE)
    if (home / "ready").exists():
        for projection in PROJECTIONS:  # a read model newer than the cache is caught up, once
            projection(FactStore(config)).catch_up()
        _stop_gracefully(config)  # a checkpoint of other code is replaced, once
        return home
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    events = home / "shift.jsonl"
    offsets: dict[str, int] = {}
    """Table -> its first seq of the next day: each simulated day numbers its tables' events
    from zero, a floor's stream goes on from the day before."""
    with events.open("w") as out:
        for day in range(days):
            start = FIRST_DAY + timedelta(days=day)
            numbers = tuple(range(1, tables + 1))  # the same tables every day
            shift_config = ShiftConfig(tables, rounds, start=start, shifts=2, table_numbers=numbers)
            shift, _ = careless_shift(shift_config, Random(2026 + day), IRREGULAR)
            ends: dict[str, int] = {}
            for event in shift:
                fact = json.loads(event_json(event))
                table = fact["table_id"]
                fact["seq"] += offsets.get(table, 0)
                ends[table] = max(fact["seq"], ends.get(table, -1))
                out.write(json.dumps(fact) + "\n")
            offsets.update((table, seq + 1) for table, seq in ends.items())
    ingest = [sys.executable, "-m", "consumers.cli", "ingest", "--from-file", str(events)]
    subprocess.run(ingest, env=_environment(home / "data"), check=True)
    for projection in PROJECTIONS:
        projection(FactStore(config)).catch_up()
    _stop_gracefully(config)
    (home / "ready").touch()
    return home


def _stop_gracefully(config: StoreConfig) -> None:
    """Leave every read model as ``tablewatch serve`` leaves it on SIGTERM: its state stored
    at its position (``rest_together``), so the restart measured is a planned one."""
    rest_together([projection(FactStore(config)) for projection in PROJECTIONS])
    # Opening the views also made any index this code adds (a cache built by older code): fold
    # the write-ahead log into the file now, or each copy would lack those pages and every
    # measured command would make them again and read through a large log.
    assert config.sqlite_path is not None
    with contextlib.closing(sqlite3.connect(config.sqlite_path)) as conn:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise RuntimeError(f"the cached store's log could not be folded in: {config.sqlite_path}")


@contextlib.contextmanager
def fresh_copy(home: Path) -> Any:
    """Yield a data directory holding a copy of the cached store, removed afterwards."""
    scratch = Path(tempfile.mkdtemp(prefix="tw-history-"))
    try:
        shutil.copy2(home / "data" / STORE, scratch / STORE)
        # On disk before anything is timed: otherwise the first fsync a measured command makes
        # (SQLite's checkpoint as it closes) writes the whole copy, a cost of the store's size
        # that no restart of a store already on disk pays.
        with (scratch / STORE).open("rb+") as copy:
            os.fsync(copy.fileno())
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _last_line(path: Path) -> str:
    """Return a file's last line, reading only its end."""
    with path.open("rb") as lines:
        lines.seek(max(0, path.stat().st_size - 65_536))
        return lines.read().decode().rstrip("\n").rsplit("\n", 1)[-1]


def ingest_restart(home: Path) -> tuple[float, float]:
    """Return the ingest's wall seconds and peak RSS (MiB) re-reading one stored line."""
    with fresh_copy(home) as data, (data / "last.jsonl").open("w") as last:
        last.write(_last_line(home / "shift.jsonl") + "\n")
        last.flush()
        # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child would report
        # the benchmark's own peak (it holds the simulated days) rather than the ingest's.
        probe = (
            "import sys\n"
            "from consumers.cli import main\n"
            "code = main(['ingest', '--from-file', sys.argv[1]])\n"
            "status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
            "print(int(status.split()[0]), file=sys.stderr)\n"
            "sys.exit(code)\n"
        )
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", probe, last.name],
            env=_environment(data), check=True, capture_output=True, text=True,
        )  # fmt: skip
        seconds = time.perf_counter() - started
    peak_kib = int(done.stderr.strip().splitlines()[-1])
    return seconds, peak_kib / 1024


def projection_restarts(home: Path) -> dict[str, float]:
    """Return, per read model, the seconds to open it and load its state (best of three), and
    the stored facts it read to get there."""
    figures: dict[str, float] = {}
    with fresh_copy(home) as data:
        config = StoreConfig.sqlite(data / STORE)
        for projection in PROJECTIONS:
            best, read = float("inf"), 0
            for _ in range(3):
                store = FactStore(config)
                started = time.perf_counter()
                restarted = projection(store)
                restarted.warm_up()
                best = min(best, time.perf_counter() - started)
                read = restarted.facts_read
            figures[f"restart {projection.__name__} s"] = best
            figures[f"restart {projection.__name__} facts read"] = float(read)
    return figures


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def query_latencies(home: Path, repeats: int) -> dict[str, float]:
    """Return p50 and p99 seconds of each query command, called as the CLI calls it, and the
    rows ``findings --table`` returns."""
    with fresh_copy(home) as data:
        store = FactStore(StoreConfig.sqlite(data / STORE))
        chosen = last_rounds_with_a_finding(store)
        table = chosen[0][0]
        ledgers = ReconciliationProjection(store).view.ledgers()
        day = max(ledger["key"]["gaming_day"] for ledger in ledgers)
        rows = len(FindingsProjection(store).view.select(FindingFilter(table_id=table)))
        queries = {  # each name's calls take their argument lists in turn
            "findings --table": [["findings", "--table", table]],
            "findings --table --gaming-day": [["findings", "--table", table, "--gaming-day", day]],
            "replay": [["replay", round_id] for _, round_id in chosen],
            "report mgr --gaming-day": [["report", "mgr", "--gaming-day", day]],
            "report variance --gaming-day": [["report", "variance", "--gaming-day", day]],
        }
        saved = {k: os.environ.get(k) for k in ("TABLEWATCH_DATA_DIR", "DATABASE_URL")}
        os.environ["TABLEWATCH_DATA_DIR"] = str(data)
        os.environ.pop("DATABASE_URL", None)
        try:
            latencies = {"findings --table rows": float(rows)}
            for name, calls in queries.items():
                samples = []
                for i in range(repeats):
                    args = calls[i % len(calls)]
                    started = time.perf_counter()
                    with contextlib.redirect_stdout(io.StringIO()):
                        if cli(args) != 0:
                            raise RuntimeError(f"{' '.join(args)!r} failed")
                    samples.append(time.perf_counter() - started)
                latencies[f"{name} p50 s"] = statistics.median(samples)
                latencies[f"{name} p99 s"] = _quantile(samples, 0.99)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    return latencies


def _replay_by_scan(store: FactStore, table: str, round_id: str) -> tuple[Any, int]:
    """Replay a round as ``tablewatch replay`` did before #16: every stored fact read, those of
    the round's table kept up to the round's end, judged from the table's first fact."""
    wanted = len(store.round(table, round_id).fact_jsons)
    events, read = [], 0
    for stored in store.facts():
        read += 1
        if table not in stored.fact_json:
            continue
        event = parse_event(stored.fact_json)
        if event.table_id != table:
            continue
        events.append(event)
        if event.round_id == round_id:
            wanted -= 1
            if wanted == 0:
                break
    return replay_round(events, round_id, table), read


def last_rounds_with_a_finding(store: FactStore) -> list[tuple[str, str]]:
    """Return the table and round of the last :data:`REPLAYED` rounds with a finding, the
    last first."""
    chosen: list[tuple[str, str]] = []
    for row in reversed(FindingsProjection(store).view.select(FindingFilter())):
        key = (row["table_id"], row["round_id"])
        if row["round_id"] and key not in chosen:
            chosen.append(key)
        if len(chosen) == REPLAYED:
            break
    return chosen


def replay_reads(home: Path, repeats: int) -> dict[str, float]:
    """Return the replays' median seconds and the stored facts they read (median and most),
    beside the last of them replayed by the scan it replaced (the baseline, on the same
    store in the same run).

    The replayed rounds are the last :data:`REPLAYED` rounds with a finding, each replayed
    in turn: what one replay reads depends on where its round falls after its table's last
    replay point (up to 8 rounds), which one round alone would pick for each store by
    chance."""
    with fresh_copy(home) as data:
        store = FactStore(StoreConfig.sqlite(data / STORE))
        chosen = last_rounds_with_a_finding(store)
        index = RoundIndexProjection(store)
        index.catch_up()
        reads = [read_round(store, table, round_id, index).facts_read for table, round_id in chosen]
        bounded = []
        for i in range(max(repeats, len(chosen))):
            table, round_id = chosen[i % len(chosen)]
            started = time.perf_counter()
            load_replay(store, round_id, table)
            bounded.append(time.perf_counter() - started)
        by_scan, scan_read = [], 0
        table, round_id = chosen[0]
        for _ in range(max(1, repeats // 10)):  # seconds each: a few suffice
            started = time.perf_counter()
            _, scan_read = _replay_by_scan(store, table, round_id)
            by_scan.append(time.perf_counter() - started)
    return {
        "replay (bounded) p50 s": statistics.median(bounded),
        "replay (bounded) facts read, median": float(statistics.median(reads)),
        "replay (bounded) facts read, most": float(max(reads)),
        "replay by scan (before) p50 s": statistics.median(by_scan),
        "replay by scan (before) facts read": float(scan_read),
    }


def checkpoint_bytes(home: Path) -> dict[str, float]:
    """Return the size of each read model's stored state: what a restart loads and what the
    service holds in memory, free of the machine's noise."""
    config = StoreConfig.sqlite(home / "data" / STORE)
    sizes: dict[str, float] = {}
    for kind in PROJECTIONS:
        projection = kind(FactStore(config))
        stored = projection.view.checkpoint(projection.tracking_name)
        if stored is not None:
            sizes[f"state {type(projection).__name__} bytes"] = float(len(stored.state))
    return sizes


def console_latencies(home: Path, repeats: int) -> dict[str, float]:
    """Return p50 and p99 seconds of the console's two daily pages, through the app's HTTP
    interface in process (FastAPI's test client, signed in as an analyst): the findings queue's
    first page newest first (``/api/findings?order=newest``, what ``/findings`` opens on) and
    the floor (``/api/floor``)."""
    with warnings.catch_warnings():  # the test client's notice about httpx, not a figure
        warnings.filterwarnings("ignore", message=".*httpx.*")
        from fastapi.testclient import TestClient  # the web's imports, only for these figures

    from consumers.settings import Settings
    from consumers.web.app import create_app
    from consumers.web.auth import add_user

    with fresh_copy(home) as data:
        store = FactStore(StoreConfig.sqlite(data / STORE))
        app = create_app(Settings(data_dir=data), store=store)
        add_user(app.state.db, "bench", "analyst", "bench-password-1")
        client = TestClient(app, base_url="http://testserver")
        page = client.get("/login")
        token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
        form = {"name": "bench", "password": "bench-password-1", "csrf_token": token, "next": "/"}
        signed = client.post("/login", data=form, follow_redirects=False)
        if signed.status_code != 303:
            raise RuntimeError(f"the bench could not sign in: {signed.status_code}")
        figures = {}
        queue, floor = "/api/findings?order=newest", "/api/floor"
        for name, path in (("console queue", queue), ("console floor", floor)):
            samples = []
            for _ in range(repeats):
                started = time.perf_counter()
                answer = client.get(path)
                samples.append(time.perf_counter() - started)
                if answer.status_code != 200:
                    raise RuntimeError(f"{path} answered {answer.status_code}")
            figures[f"{name} p50 s"] = statistics.median(samples)
            figures[f"{name} p99 s"] = _quantile(samples, 0.99)
        return figures


def measure(home: Path, repeats: int, only: str = "all") -> dict[str, float]:
    """Return every figure for one store, flat: name -> seconds (or MiB, or a count)."""
    facts = FactStore(StoreConfig.sqlite(home / "data" / STORE)).last_notification_id()
    figures = {"stored events": float(facts)} | checkpoint_bytes(home)
    if only == "all":
        seconds, peak = ingest_restart(home)
        figures |= {"ingest restart s": seconds, "ingest peak MiB": peak}
        figures |= projection_restarts(home)
        figures |= query_latencies(home, repeats)
        figures |= console_latencies(home, repeats)
    if only in ("all", "replay"):
        figures |= replay_reads(home, repeats)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=200_000, help="N (default 200,000)")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "tablewatch-bench-history",
        help="where the stores are kept between runs (default in the temporary directory)",
    )  # fmt: skip
    parser.add_argument("--repeats", type=int, default=20, help="calls of each query (20)")
    parser.add_argument(
        "--days", type=int, default=1,
        help="gaming days in the store of N (4N holds four times as many), each on 99/DAYS "
        "tables: 32 puts every window (the accounts' 7 days, the recurrence screen's 30) "
        "inside N, so that 4N measures history alone (default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--passes", type=int, default=3,
        help="measurements of each size, taken in turn; each figure is their median (3)",
    )  # fmt: skip
    parser.add_argument(
        "--only", choices=("all", "replay"), default="all",
        help="every figure (default), or only the replay's beside its old scan",
    )  # fmt: skip
    args = parser.parse_args()
    days, tables = args.days, max(1, round(TABLES / args.days))
    small_store = cached_store(args.cache, args.facts // days, days, tables)
    large_store = cached_store(args.cache, args.facts // days, 4 * days, tables)
    # The sizes are measured in turn, pass by pass, and each figure is its median over the
    # passes: a spell of this VM's noise (a 100 ms stall, say) then lands in one pass of one
    # size, not in every sample of one size against a quiet run of the other.
    passes: dict[str, list[dict[str, float]]] = {"N": [], "4N": []}
    for _ in range(args.passes):
        passes["N"].append(measure(small_store, args.repeats, args.only))
        passes["4N"].append(measure(large_store, args.repeats, args.only))
    small, large = (
        {name: statistics.median(p[name] for p in passes[size]) for name in passes[size][0]}
        for size in ("N", "4N")
    )
    print(f"{'figure':40} {'N':>12} {'4N':>12} {'4N/N':>6}")
    ratios = {}
    for name, at_n in small.items():
        at_4n = large[name]
        ratio = at_4n / at_n if at_n else (1.0 if at_4n == at_n else float("inf"))
        if name not in UNTARGETED:
            ratios[name] = ratio
        flag = "  (not held)" if name in UNTARGETED else ""
        flag = "  over target" if name not in UNTARGETED and ratio > TARGET_RATIO else flag
        print(f"{name:40} {at_n:12.4f} {at_4n:12.4f} {ratio:6.2f}{flag}")
    over = sorted(name for name, ratio in ratios.items() if ratio > TARGET_RATIO)
    print(json.dumps({
        "bench": "history", "N": small["stored events"], "4N": large["stored events"],
        "at_N": small, "at_4N": large, "target_ratio": TARGET_RATIO, "over_target": over,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
