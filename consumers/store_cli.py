"""``tablewatch ingest``, ``verify-chain`` and ``heads export``: facts into the store, and proof."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry
from psycopg import sql

from audit.facts.heads import FiledHeads, dump_heads, heads_key, load_heads
from audit.store.application import FactStore
from audit.store.ingest import Ingestor
from audit.store.schema import (
    apply_grants,
    grant_statements,
    migration_lock,
    view_objects,
)
from audit.store.verify import ChainReport, verify_chain
from consumers import alerts
from consumers.errors import ConfigError
from consumers.health import serve_health
from consumers.ingest import IngestSummary, Progress, ingest_file
from consumers.ingest_metrics import MeteredProgress
from consumers.readiness import Readiness
from consumers.settings import Settings
from consumers.web.db import ACCESS_LOG, WebDB
from consumers.wiring import open_store, store_config
from projections import (
    cases_view,
    equipment_stats,
    findings,
    hand_history,
    reconciliation,
    round_index,
    table_state,
    win_rates,
)

_VIEWS = (
    findings, hand_history, reconciliation, round_index, table_state, win_rates, equipment_stats,
)  # fmt: skip
"""Every projection with a view in the store's database: its tables are part of the migration."""
_VIEW_OPENERS = (
    findings.open_findings_view,
    hand_history.open_hand_history_view,
    reconciliation.open_reconciliation_view,
    round_index.open_round_index_view,
    table_state.open_table_state_view,
    win_rates.open_win_rates_view,
    equipment_stats.open_equipment_view,
    cases_view.open_cases_view,  # the casebook's view: no tracking name, kept by the console
)
_VIEW_POSITIONS = [
    *(view.TRACKING_NAME for view in _VIEWS),
    alerts.TRACKING_NAME,
    alerts.WEBHOOK_TRACKING_NAME,
    *alerts.HORIZON_NAMES,
]
"""The names the views (and the alerts on the findings view) track their positions under."""


def register(commands: Any) -> None:
    """Add the ``ingest`` and ``verify-chain`` commands."""
    ingest = commands.add_parser("ingest", help="store table events from Kafka or a file")
    ingest.add_argument("--from-file", type=Path, help="a JSON Lines file of events")
    ingest.add_argument(
        "--until-caught-up",
        action="store_true",
        help="stop once every partition is read to its end (default: run until stopped)",
    )
    ingest.add_argument(
        "--health-port", type=int, metavar="PORT",
        help="serve /healthz, /readyz and /metrics here while reading Kafka",
    )  # fmt: skip
    ingest.add_argument("--health-host", default="127.0.0.1", help="their address (127.0.0.1)")
    ingest.set_defaults(handler=_ingest)

    verify = commands.add_parser("verify-chain", help="prove no stored event was altered")
    verify.add_argument(
        "--heads",
        type=Path,
        metavar="FILE",
        help="also hold every chain to the heads filed by 'heads export' (needs its key)",
    )
    verify.set_defaults(handler=_verify_chain)

    heads = commands.add_parser("heads", help="the chains' heads, to file outside the database")
    heads_commands = heads.add_subparsers(dest="heads_command", required=True, metavar="COMMAND")
    export = heads_commands.add_parser(
        "export", help="verify the store, then write every chain's head signed (JSON)"
    )
    export.add_argument("--out", type=Path, metavar="FILE", help="where to write (default: stdout)")
    export.set_defaults(handler=_export_heads)

    database = commands.add_parser("db", help="the store's schema and database roles")
    db_commands = database.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    migrate = db_commands.add_parser(
        "migrate",
        help="as the database's owner: create or update the store's and the views' tables",
    )
    migrate.add_argument("--writer", metavar="ROLE", help="grant ROLE what the ingest needs")
    migrate.add_argument("--reader", metavar="ROLE", help="grant ROLE what the reports need")
    migrate.set_defaults(handler=_migrate)


def _ingest(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.from_file is not None:
        args.from_file.open("rb").close()  # a missing or unreadable file fails before any work
    store = open_store(settings)  # SQLite: created if need be; PostgreSQL: migrated already
    print(f"store: {store.config.describe()}", file=sys.stderr)
    ingestor = Ingestor(store)
    if args.from_file is not None:
        summary = ingest_file(args.from_file, ingestor, settings.batch_size, Progress(sys.stderr))
    else:
        summary = _from_kafka(args, settings, ingestor)
    print(summary.line())
    return 0


def _from_kafka(args: argparse.Namespace, settings: Settings, ingestor: Ingestor) -> IngestSummary:
    """Ingest from Kafka, with /healthz, /readyz and /metrics when a port is given."""
    from consumers.kafka_ingest import ingest_from_kafka

    if args.health_port is None:
        return ingest_from_kafka(settings, ingestor, until_caught_up=args.until_caught_up)
    registry, readiness = CollectorRegistry(), Readiness()

    def ready() -> tuple[bool, str]:
        state = readiness.state
        why = "reading and storing" if state.ready else (state.last_error or "starting")
        return state.ready, why

    server = serve_health(ready, registry, args.health_host, args.health_port)
    try:
        return ingest_from_kafka(settings, ingestor, until_caught_up=args.until_caught_up,
                                 readiness=readiness,
                                 progress=MeteredProgress(sys.stderr, registry))  # fmt: skip
    finally:
        server.shutdown()


def _verify_chain(args: argparse.Namespace) -> int:
    filed: FiledHeads | None = None
    if args.heads is not None:
        filed = load_heads(args.heads.read_text(encoding="utf-8"), heads_key())
    store = open_store(Settings.from_env(), create=False)
    report = verify_chain(store, filed=filed)
    print(f"{store.config.describe()}: {report.events:,} stored events, {report.facts:,} facts, "
          f"{len(report.heads)} tables, {report.rejections:,} rejections")  # fmt: skip
    _print_heads(report)
    if report.id_gaps:
        holes = len(report.id_gaps)
        print(f"  {holes} hole(s) in notification ids: rolled-back batches, not evidence")
    if filed is not None:
        print(f"  held to the heads filed at {filed.exported_at} (notification "
              f"{filed.last_notification_id}, {len(filed.tables)} tables)")  # fmt: skip
    for problem in report.problems:
        print(f"BROKEN: {problem}")
    print("chain intact" if report.ok else f"{len(report.problems)} problem(s) found")
    return 0 if report.ok else 1


def _print_heads(report: ChainReport) -> None:
    for table, head in sorted(report.heads.items()):
        print(f"  {table}: chain head {head} ({report.counts[table]:,} facts)")
    for source, head in sorted(report.rejection_heads.items()):
        count = report.rejection_counts[source]
        print(f"  rejections of {source}: chain head {head} ({count:,} rejections)")
    if report.case_facts:
        print(f"  casebook: chain head {report.case_head} ({report.case_facts:,} case facts)")


def _export_heads(args: argparse.Namespace) -> int:
    key = heads_key()  # a missing key fails before the store is read
    store = open_store(Settings.from_env(), create=False)
    exported_at = datetime.now(UTC).isoformat()
    report = verify_chain(store)
    if not report.ok:
        for problem in report.problems:
            print(f"BROKEN: {problem}", file=sys.stderr)
        print(f"tablewatch: {len(report.problems)} problem(s) found: heads not exported "
              "(filing them would vouch for a broken store)", file=sys.stderr)  # fmt: skip
        return 1
    text = dump_heads(report.filed_heads(exported_at), key, store.config.describe())
    if args.out is None:
        sys.stdout.write(text)
        return 0
    partial = args.out.with_name(args.out.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, args.out)  # a reader never sees half a file
    print(f"heads of {len(report.heads)} tables and {len(report.rejection_heads)} rejection "
          f"chains, to notification {report.last_notification_id}, written to {args.out}",
          file=sys.stderr)  # fmt: skip
    return 0


def append_only_grants(table: str, *roles: str | None) -> list[sql.Composed]:
    """Return grants of SELECT and INSERT only on ``table`` (the access log) to each role."""
    statements: list[sql.Composed] = []
    for role in filter(None, roles):
        name, grantee = sql.Identifier(table), sql.Identifier(role)
        statements.append(sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE ON {} FROM {}").format(
            name, grantee))  # fmt: skip
        statements.append(sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(name, grantee))
    return statements


def _migrate(args: argparse.Namespace) -> int:
    config = store_config(Settings.from_env())
    if config.postgres_url is None and (args.writer or args.reader):
        raise ConfigError("--writer and --reader are PostgreSQL roles: SQLite has none")
    store = FactStore(config, create=True)  # the store's own DDL, under the migration lock
    if config.postgres_url is None:
        for open_view in _VIEW_OPENERS:
            open_view(store)
        WebDB(store).create_tables()
        print(f"{config.describe()}: migrated")
        return 0
    with migration_lock(config.postgres_url):
        for open_view in _VIEW_OPENERS:
            open_view(store)  # each view creates its tables: the store was opened to create
        WebDB(store).create_tables()  # the web's users, sessions and access log
        tables, sequences = view_objects(config.postgres_url)
        views = ([t for t in tables if t != ACCESS_LOG], sequences)
        grants = grant_statements(args.writer, args.reader, views, _VIEW_POSITIONS)
        grants += append_only_grants(ACCESS_LOG, args.writer, args.reader)
        apply_grants(config.postgres_url, grants)
    granted = ", ".join(f"{kind} {role!r}" for kind, role in
                        (("writer", args.writer), ("reader", args.reader)) if role)  # fmt: skip
    print(f"{config.describe()}: migrated, {len(views[0])} view tables"
          + (f"; granted to {granted}" if granted else ""))  # fmt: skip
    return 0
