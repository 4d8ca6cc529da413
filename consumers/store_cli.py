"""``tablewatch ingest``, ``verify-chain`` and ``heads export``: facts into the store, and proof."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from audit.store.heads import FiledHeads, dump_heads, heads_key, load_heads
from audit.store.ingest import Ingestor
from audit.store.verify import ChainReport, verify_chain
from consumers.ingest import Progress, ingest_file
from consumers.settings import Settings
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``ingest`` and ``verify-chain`` commands."""
    ingest = commands.add_parser("ingest", help="store table events from Kafka or a file")
    ingest.add_argument("--from-file", type=Path, help="a JSON Lines file of events")
    ingest.add_argument(
        "--until-caught-up",
        action="store_true",
        help="stop once every partition is read to its end (default: run until stopped)",
    )
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


def _ingest(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.from_file is not None:
        args.from_file.open("rb").close()  # a missing or unreadable file fails before any work
    store = open_store(settings)
    print(f"store: {store.config.describe()}", file=sys.stderr)
    ingestor = Ingestor(store)
    if args.from_file is not None:
        summary = ingest_file(args.from_file, ingestor, settings.batch_size, Progress(sys.stderr))
    else:
        from consumers.kafka_ingest import ingest_from_kafka

        summary = ingest_from_kafka(settings, ingestor, until_caught_up=args.until_caught_up)
    print(summary.line())
    return 0


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
