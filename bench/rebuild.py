"""Benchmark a rebuild of every read model from zero, end to end, beside reading the store raw.

Run: ``python3 bench/rebuild.py [--tables 20 --rounds 200 --cache DIR --repeats 3]
[--database sqlite|postgres]``. A careless floor of ``tables x rounds`` Pai Gow rounds
(two shifts, 2% irregular) is ingested once into a SQLite store kept in ``--cache``
(default in the system's temporary directory), or, with ``--database postgres``, into a
PostgreSQL database made for the run (``--pg-admin``, default the local server) and
dropped after it. Each pass then works on a fresh copy of it (a file copy, or
``CREATE DATABASE ... TEMPLATE``), without views, and times, end to end from the
stored rows:

- raw: every stored event read from the notification log through eventsourcing (its
  recorder and mapper, as the projections read them before ``fact_pages.py``), and its
  fact's JSON ``json.loads``-ed: the baseline the target was set against;
- rows: the bare floor: the same rows fetched a page per query (one ``SELECT``, no
  eventsourcing objects), each stored state and its fact ``json.loads``-ed and nothing
  validated. Nothing that reads every fact can be faster in one process;
- pages: every stored event read the way the projections now read it
  (``audit/store/fact_pages.py``: a page in one query, each fact validated into its
  event in one pydantic call): what a rebuild pays before any read model's work;
- together: every read model ``tablewatch serve`` keeps (findings, hand history, table
  state, win rates, reconciliation, round index, equipment) rebuilt by
  ``catch_up_together``, each fact read and parsed once;
- split: the same read models caught up as ``tablewatch serve`` catches up a long pass on
  two cores (``projections/split.py``): the findings, the reconciliation and the round
  index in this process (``KEPT_HERE``), the other four in a second process started for
  the pass (its interpreter's start and imports included), each reading and parsing every
  fact itself;
  each group's own wall time is printed beside it (medians), the longer bounding the split;
- one by one: the same read models each catching up alone, each reading the store
  (``--skip-one-by-one`` leaves it out: on a busy machine it takes minutes).

Figures are rounds per second, the median of ``--repeats`` passes, the ways taken in
turn. Target (#16): the rebuild (split, as the service runs it on two cores) at 5,000
rounds/s or more, and at least half the raw rate; the split's share of the bare floor is
printed beside it (docs/rebuild-speed.md: where the time goes, and what each share
means). The interpreter is printed first. Last line: JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
from interpreter import interpreter

from audit.store.application import FactStore, StoreConfig
from audit.store.fact_pages import FactPages
from projections.read_models import KEPT_HERE, READ_MODELS
from projections.split import catch_up_split
from projections.together import catch_up_together

if TYPE_CHECKING:
    from audit.events.envelope import Event

PROJECTIONS = READ_MODELS
"""Every read model ``tablewatch serve`` keeps (until 2026-11-27 the bench listed its own six
and left out the equipment view, so every figure before then rebuilt six of the seven)."""
STORE = "tablewatch.sqlite"


def cached_store(cache: Path, tables: int, rounds: int) -> tuple[Path, int]:
    """Return a stored floor's SQLite file and its number of rounds, built once."""
    home = cache / f"floor-{tables}x{rounds}"
    path = home / STORE
    if not (home / "ready").exists():
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        ingest(FactStore(StoreConfig.sqlite(path)), floor_events(tables, rounds))
        (home / "ready").write_text(str(tables * rounds))
    return path, int((home / "ready").read_text())


def floor_events(tables: int, rounds: int) -> list[Event]:
    """Return the bench's careless floor: two shifts, 2% of rounds irregular.

    The simulation is imported here, not with the module: the split's second process imports
    this module again (``spawn``), as the service's imports ``consumers/cli.py``, and should
    start as that one does, with the read models and not the simulator."""
    from random import Random

    from audit.simulation.irregularities import careless_shift
    from audit.simulation.shift import ShiftConfig

    shift, _ = careless_shift(ShiftConfig(tables, rounds, shifts=2), Random(16), 0.02)
    return list(shift)


def ingest(store: FactStore, events: list[Event]) -> None:
    """Store a shift's events as the ingest does, in batches of 2,000."""
    from audit.store.ingest import Accepted, Ingestor

    ingestor = Ingestor(store)
    for start in range(0, len(events), 2_000):
        batch = events[start : start + 2_000]
        ingestor.record_batch([Accepted(e, "bench") for e in batch], "bench", start)
    store.close()


@contextlib.contextmanager
def postgres_floor(admin: str, tables: int, rounds: int) -> Iterator[tuple[str, int]]:
    """Yield a PostgreSQL database holding the floor (the template of each pass), then drop it."""
    name = f"tw_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        ingest(FactStore(StoreConfig.postgres(f"{admin.rsplit('/', 1)[0]}/{name}")),
               floor_events(tables, rounds))  # fmt: skip
        yield name, tables * rounds
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def raw(store: FactStore) -> None:
    """Read every stored event and json.loads its fact, the way a projection reads them."""
    recorder, mapper, start = store.process_recorder, store.mapper, 1
    while True:
        notifications = recorder.select_notifications(start, 2_000)
        for notification in notifications:
            event = mapper.to_domain_event(notification)
            fact_json = getattr(event, "fact_json", None)
            if fact_json is not None:
                json.loads(fact_json)
        if len(notifications) < 2_000:
            return
        start = notifications[-1].id + 1


def rows(store: FactStore) -> None:
    """Fetch every stored row a page per query and json.loads each state and its fact: no
    eventsourcing objects, no validation; the bare floor under any read of every fact."""
    reader, start = FactPages(store), 1
    while True:
        page = reader.page(start, 2_000)
        for _, _, state in page:
            fact_json = json.loads(state).get("fact_json")
            if fact_json is not None:
                json.loads(fact_json)
        if len(page) < 2_000:
            return
        start = page[-1][0] + 1


def pages(store: FactStore) -> None:
    """Read every stored event as the projections do: a page per query, each fact parsed."""
    reader, start = FactPages(store), 1
    while True:
        page = reader.page(start, 2_000)
        for row in page:
            reader.fact(row)
        if len(page) < 2_000:
            return
        start = page[-1][0] + 1


def together(store: FactStore) -> None:
    catch_up_together([kind(store) for kind in PROJECTIONS])


SPLIT_GROUPS: list[dict[str, float]] = []
"""Each split pass's groups' wall seconds, the service's own and the second process's."""


def split(store: FactStore) -> None:
    """The split ``tablewatch serve`` makes: what it keeps here (KEPT_HERE), the rest there."""
    here = [kind(store) for kind in PROJECTIONS if kind in KEPT_HERE]
    seconds: dict[str, float] = {}
    catch_up_split(here, [kind for kind in PROJECTIONS if kind not in KEPT_HERE], store,
                   seconds=seconds)  # fmt: skip
    SPLIT_GROUPS.append(seconds)


def one_by_one(store: FactStore) -> None:
    for kind in PROJECTIONS:
        kind(store).catch_up()


def timed(source: Path, work: Callable[[FactStore], None]) -> float:
    """Return the seconds ``work`` takes on a fresh copy of the store, opening it included."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / STORE
        shutil.copy(source, copy)
        gc.collect()
        started = time.perf_counter()
        work(FactStore(StoreConfig.sqlite(copy)))
        return time.perf_counter() - started


def timed_postgres(admin: str, template: str, work: Callable[[FactStore], None]) -> float:
    """Return the seconds ``work`` takes on a fresh copy of a PostgreSQL store, opened included."""
    name = f"{template}_pass"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        gc.collect()
        started = time.perf_counter()
        store = FactStore(StoreConfig.postgres(f"{admin.rsplit('/', 1)[0]}/{name}"))
        work(store)
        seconds = time.perf_counter() - started
        store.close()
        return seconds
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=200, help="rounds per table (default 200)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "tw-bench" / "rebuild"
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--skip-one-by-one", action="store_true")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.database == "postgres":
            template, rounds = stack.enter_context(
                postgres_floor(args.pg_admin, args.tables, args.rounds)
            )
            where = "PostgreSQL"

            def run(work: Callable[[FactStore], None]) -> float:
                return timed_postgres(args.pg_admin, template, work)
        else:
            source, rounds = cached_store(args.cache, args.tables, args.rounds)
            where = f"SQLite, {source.stat().st_size / 2**20:.0f} MiB"

            def run(work: Callable[[FactStore], None]) -> float:
                return timed(source, work)

        measure(args, rounds, where, run)


def measure(
    args: argparse.Namespace,
    rounds: int,
    where: str,
    run: Callable[[Callable[[FactStore], None]], float],
) -> None:
    """Time each way of reading, print each beside the raw read, and the JSON line."""
    print(f"{rounds:,} rounds stored ({where}); {interpreter()}")
    figures = {}
    works = [("raw", raw), ("rows", rows), ("pages", pages), ("together", together),
             ("split", split), ("one_by_one", one_by_one)]  # fmt: skip
    works = works[: 5 if args.skip_one_by_one else 6]
    # Interleaved (raw, pages, ..., raw, pages, ...), so a machine whose speed drifts during
    # the run slows every way alike rather than whichever ran during the slow minutes.
    passes: dict[str, list[float]] = {name: [] for name, _ in works}
    for _ in range(args.repeats):
        for name, work in works:
            passes[name].append(run(work))
    for name, seconds in ((name, statistics.median(passes[name])) for name, _ in works):
        figures[name] = rounds / seconds
        print(f"  {name:<11} {seconds:7.2f} s  {figures[name]:9,.0f} rounds/s")
    groups = {g: statistics.median(s[g] for s in SPLIT_GROUPS) for g in ("here", "second")}
    print(
        f"the split's groups (medians): this process's (KEPT_HERE) {groups['here']:.2f} s, "
        f"the second process {groups['second']:.2f} s from its start, imports included"
    )
    share, bare = figures["split"] / figures["raw"], figures["split"] / figures["rows"]
    print(f"rebuild at {share:.2f}x the raw rate split across two processes, "
          f"{figures['together'] / figures['raw']:.2f}x in one; the projections' read at "
          f"{figures['pages'] / figures['raw']:.2f}x")  # fmt: skip
    print(f"against the bare floor (rows): the split at {bare:.2f}x, one process at "
          f"{figures['together'] / figures['rows']:.2f}x, the projections' read at "
          f"{figures['pages'] / figures['rows']:.2f}x")  # fmt: skip
    if "one_by_one" in figures:
        print(f"sharing one read gains {figures['together'] / figures['one_by_one']:.2f}x "
              "over one by one")  # fmt: skip
    print(json.dumps({"bench": "rebuild", "database": args.database, "rounds": rounds,
                      **{f"{k}_rounds_per_s": round(v) for k, v in figures.items()},
                      "share_of_raw": round(share, 3),
                      "share_of_rows": round(bare, 3),
                      **{f"split_{g}_s": round(v, 2) for g, v in groups.items()}}))  # fmt: skip


if __name__ == "__main__":
    main()
