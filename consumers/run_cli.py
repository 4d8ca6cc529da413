"""``tablewatch simulate`` and the main job, ``tablewatch run``.

``run`` is the whole pipeline on the embedded defaults: a simulated shift is
produced to Kafka (the dev broker unless ``KAFKA_BOOTSTRAP_SERVERS`` is set),
ingested into the store (a fresh SQLite file unless ``DATABASE_URL`` is set),
and what was stored is reported, with the hash chain verified.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from audit.events.catalogue import event_json
from audit.events.envelope import Event
from audit.events.games import GAMES
from audit.simulation.collusion import PATTERNS, Collusion, InvalidCollusionError
from audit.simulation.irregularities import Label, careless_shift, loaded_dice_labels
from audit.simulation.paigow.loaded_dice import InvalidLoadError, LoadedDice
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from audit.store.verify import verify_chain
from audit.verification.statistics import stats_of
from consumers.errors import ConfigError
from consumers.finding_text import summarise_rows
from consumers.kafka_ingest import consume
from consumers.kafka_io import Bootstrap, ensure_topics, flush, make_producer, publish
from consumers.report_cli import mgr_report
from consumers.settings import Settings, kafka_connection
from consumers.view_reads import caught_up_all
from consumers.wiring import SQLITE_FILE, kafka, store_config
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter
from projections.hand_history import HandHistoryProjection
from projections.table_state import TableStateProjection
from projections.win_rates import WinRatesProjection


def register(commands: Any) -> None:
    """Add the ``simulate`` and ``run`` commands."""
    simulate = commands.add_parser("simulate", help="generate a seeded shift of table events")
    _shift_arguments(simulate)
    target = simulate.add_mutually_exclusive_group()
    target.add_argument("--out", type=Path, help="write JSON Lines here (default: stdout)")
    target.add_argument(
        "--to-kafka", action="store_true", help="produce to KAFKA_BOOTSTRAP_SERVERS"
    )
    simulate.add_argument(
        "--irregularities",
        type=float,
        default=0.0,
        metavar="RATE",
        help="share of rounds a careless dealer plays irregularly, 0 to 1 (default 0)",
    )
    simulate.add_argument(
        "--loaded-dice",
        type=int,
        default=0,
        metavar="TABLES",
        help="load the shaker's dice at this many Pai Gow tables, labelled (default 0)",
    )
    simulate.add_argument(
        "--dice-load",
        type=float,
        default=LoadedDice().weight,
        metavar="P",
        help=f"the chance each loaded die shows a six instead of rolling fair "
        f"(default {LoadedDice().weight})",
    )
    simulate.add_argument(
        "--collusion",
        action="append",
        default=[],
        metavar="PATTERN=N",
        help=f"inject N instances of a collusion pattern, labelled; repeatable "
        f"({', '.join(PATTERNS)})",
    )
    simulate.add_argument(
        "--labels",
        type=Path,
        help="write the irregularities' labels here (default with --out: OUT's name "
        "with .labels.jsonl)",
    )
    simulate.set_defaults(handler=_simulate)

    run = commands.add_parser("run", help="the main job: simulate, produce, ingest, report")
    _shift_arguments(run, tables=8, rounds=30, shifts=2, game="mixed")
    run.add_argument(
        "--serve", action="store_true",
        help="then serve the console and the API on the run's store, with a first analyst "
        "and auditor, until stopped (what make run does)",
    )  # fmt: skip
    run.add_argument("--port", type=int, default=8090, help="the console's port with --serve")
    run.add_argument(
        "--irregularities", type=float, default=0.0, metavar="RATE",
        help="share of rounds a careless dealer plays irregularly, 0 to 1 (default 0: a clean "
        "day); the labels are written beside the run's store",
    )  # fmt: skip
    run.set_defaults(handler=_run)


GAME_MIXES: dict[str, tuple[tuple[str, float], ...]] = {
    **{game: ((game, 1.0),) for game in GAMES},
    "mixed": (("paigow", 0.75), ("baccarat21", 0.25)),
}
"""What ``--game`` puts on the floor: one game, or three Pai Gow tables to each 21 Baccarat."""


def _shift_arguments(
    parser: argparse.ArgumentParser,
    tables: int = 40,
    rounds: int = 240,
    shifts: int = 1,
    game: str = "paigow",
) -> None:
    parser.add_argument(
        "--game", choices=sorted(GAME_MIXES), default=game,
        help=f"the floor's games (default {game}; mixed: 3 Pai Gow tables to 1 21 Baccarat)",
    )  # fmt: skip
    parser.add_argument("--tables", type=int, default=tables, help=f"tables (default {tables})")
    parser.add_argument(
        "--shifts", type=int, default=shifts,
        help=f"shifts the rounds are split into, each with its own opener, closer and drop box "
        f"(default {shifts})",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=rounds, help=f"rounds per table (default {rounds})"
    )
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")


def _shift(args: argparse.Namespace) -> Iterable[Event]:
    return simulate_shift(_config(args), random.Random(args.seed))


def _config(args: argparse.Namespace) -> ShiftConfig:
    return ShiftConfig(
        tables=args.tables, rounds_per_table=args.rounds, shifts=args.shifts,
        games=GAME_MIXES[args.game],
    )  # fmt: skip


def produce_events(bootstrap: Bootstrap, topic: str, events: Iterable[Event]) -> int:
    """Produce events to ``topic`` keyed by table, so each table's events stay in order."""
    count = 0
    with make_producer(bootstrap) as producer:
        for event in events:
            publish(producer, topic, event.table_id.encode(), event_json(event).encode())
            count += 1
        flush(producer)
    return count


def labels_path(out: Path | None, labels: Path | None) -> Path | None:
    """Return where the labels go: ``labels`` if given, else beside ``out`` (``shift.jsonl``
    gives ``shift.labels.jsonl``), else nowhere."""
    if labels is not None or out is None:
        return labels
    stem = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(stem + ".labels.jsonl")


def _careless(args: argparse.Namespace) -> tuple[Iterable[Event], list[Label] | None, Path | None]:
    """Return the shift's events, its labels (``None`` for a clean shift) and the labels' path."""
    rate = args.irregularities
    if not 0 <= rate <= 1:
        raise ConfigError(f"--irregularities must be a rate from 0 to 1: {rate!r}")
    if args.loaded_dice < 0:
        raise ConfigError(f"--loaded-dice must be a number of tables: {args.loaded_dice!r}")
    try:
        collusion = Collusion.parse(args.collusion)
    except InvalidCollusionError as error:
        raise ConfigError(f"--collusion: {error}") from None
    injected = rate > 0 or args.loaded_dice > 0 or bool(collusion)
    target = labels_path(args.out, args.labels) if injected else args.labels
    if injected and target is None:
        raise ConfigError(
            "--irregularities, --loaded-dice and --collusion need --labels (or --out) to write "
            "the labels to"
        )
    try:
        config = replace(
            _config(args), loaded_dice_tables=args.loaded_dice,
            loaded_dice=LoadedDice(weight=args.dice_load),
        )  # fmt: skip
    except InvalidLoadError as error:
        raise ConfigError(f"--dice-load: {error}") from None
    if target is None:
        return simulate_shift(config, random.Random(args.seed)), None, None
    try:
        events, labels = careless_shift(config, random.Random(args.seed), rate, collusion=collusion)
    except InvalidCollusionError as error:
        raise ConfigError(f"--collusion: {error}") from None
    labels += loaded_dice_labels(config, random.Random(args.seed))
    return events, labels, target


def write_labels(labels: Iterable[Label], path: Path) -> int:
    """Write labels as JSON Lines, by table and round; return how many."""
    ordered = sorted(labels, key=lambda label: (label.table_id, label.round_id or ""))
    with path.open("w") as out:
        for label in ordered:
            out.write(json.dumps(label.as_dict()) + "\n")
    return len(ordered)


def _simulate(args: argparse.Namespace) -> int:
    events, labels, target = _careless(args)
    status = _write_events(args, events)
    if labels is not None and target is not None:  # complete now the events are written
        count = write_labels(labels, target)
        print(f"wrote {count:,} irregularity labels to {target}", file=sys.stderr)
    return status


def _write_events(args: argparse.Namespace, events: Iterable[Event]) -> int:
    if args.to_kafka:
        settings = Settings.from_env()
        cluster = kafka_connection(settings)
        if cluster is None:
            raise ConfigError(
                "--to-kafka needs KAFKA_BOOTSTRAP_SERVERS (the dev broker keeps nothing)"
            )
        ensure_topics(
            cluster,
            {settings.events_topic: settings.partitions},
            replication_factor=settings.replication_factor,
        )
        count = produce_events(cluster, settings.events_topic, events)
        print(f"produced {count:,} events to {settings.events_topic}", file=sys.stderr)
        return 0
    out: TextIO
    with args.out.open("w") if args.out else _stdout() as out:
        count = 0
        for event in events:
            out.write(event_json(event) + "\n")
            count += 1
    print(f"wrote {count:,} events", file=sys.stderr)
    return 0


class _stdout:  # noqa: N801 -- a context manager that leaves stdout open
    def __enter__(self) -> TextIO:
        return sys.stdout

    def __exit__(self, *exc: object) -> None:
        sys.stdout.flush()


def _run_store(settings: Settings, run_id: str) -> StoreConfig:
    if settings.database_url is not None:
        return store_config(settings)
    # Each run gets a fresh embedded store: the dev broker keeps nothing between runs.
    return StoreConfig.sqlite(settings.data_dir / "runs" / run_id / SQLITE_FILE)


def _run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    run_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = sys.stdout
    with kafka(settings) as bootstrap:
        if settings.kafka_bootstrap_servers is None:
            # A fresh broker numbers offsets from 0 again: a per-run topic keeps positions true.
            settings = replace(
                settings,
                events_topic=f"table-events.{run_id}",
                dlq_topic=f"table-events.{run_id}.dlq",
            )
        ensure_topics(
            bootstrap,
            {settings.events_topic: settings.partitions},
            replication_factor=settings.replication_factor,
        )
        print(f"broker {bootstrap}, topic {settings.events_topic}", file=out)
        events, labels = _run_shift(args)
        produced = produce_events(bootstrap, settings.events_topic, events)
        print(f"simulated shift: {args.tables} tables x {args.rounds} rounds, seed {args.seed}: "
              f"{produced:,} events produced", file=out)  # fmt: skip
        store = FactStore(_run_store(settings, run_id))
        print(f"store: {store.config.describe()}", file=out)
        if labels:
            target = settings.data_dir / "runs" / run_id / "labels.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            count = write_labels(labels, target)
            print(f"careless dealers at {args.irregularities:.0%} of rounds: {count:,} "
                  f"irregularities injected, labelled in {target}", file=out)  # fmt: skip
        summary = consume(bootstrap, settings, Ingestor(store), until_caught_up=True)
    print(f"ingest: {summary.line()}", file=out)
    report_store(store, out)
    print(file=out)
    print(mgr_report(store, None), file=out)
    if args.serve:
        from consumers.web.console_run import serve_run  # the web's imports, only for --serve

        serve_run(settings, store, args.port, out)
    return 0


def _run_shift(args: argparse.Namespace) -> tuple[Iterable[Event], list[Label]]:
    """Return the main job's shift and its labels: none for a clean day."""
    rate = args.irregularities
    if not 0 <= rate <= 1:
        raise ConfigError(f"--irregularities must be a rate from 0 to 1: {rate!r}")
    if rate == 0:
        return _shift(args), []
    events, labels = careless_shift(_config(args), random.Random(args.seed), rate)
    return events, labels


def report_store(store: FactStore, out: TextIO) -> None:
    """Print what the store holds and whether its chain is intact."""
    facts = [stored.fact for stored in store.facts()]
    types = Counter(fact["type"] for fact in facts)
    opened = {fact["table_id"] for fact in facts if fact["type"] == "table_opened"}
    rounds = {(fact["table_id"], fact["round_id"]) for fact in facts if fact.get("round_id")}
    print(f"stored: {len(facts):,} facts, {len(opened)} tables, {len(rounds):,} rounds", file=out)
    common = ", ".join(f"{kind} {count:,}" for kind, count in types.most_common(6))
    print(f"  most common: {common}", file=out)
    chain = verify_chain(store)
    verdict = "intact" if chain.ok else f"BROKEN ({len(chain.problems)} problems)"
    print(
        f"hash chain over {chain.facts:,} facts in {len(chain.heads)} streams (tables and the "
        f"count room): {verdict}",
        file=out,
    )
    # Each fact read and parsed once; unless a deployed serve keeps this store's views.
    kinds = [FindingsProjection, HandHistoryProjection, TableStateProjection, WinRatesProjection]
    projection, history, tables, rates = caught_up_all(store, kinds, notes=out)
    by_table = stats_of(rates.view.tallies("table"), "table")
    flagged = sum(r.flagged for r in by_table)
    print(f"read models: hand history {len(history.view.select()):,} hands, "
          f"table state {len(tables.view.select())} tables, win rates at "
          f"{len(by_table)} tables ({flagged} flagged)", file=out)  # fmt: skip
    rows = projection.view.select(FindingFilter())
    summarise_rows(rows, out)
