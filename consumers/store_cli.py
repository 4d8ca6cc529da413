"""``tablewatch ingest`` and ``tablewatch verify-chain``: facts into the store, and proof."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from audit.store.ingest import Ingestor
from audit.store.verify import verify_chain
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
    verify.set_defaults(handler=_verify_chain)


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
    store = open_store(Settings.from_env())
    report = verify_chain(store)
    print(f"{store.config.describe()}: {report.events:,} stored events, {report.facts:,} facts, "
          f"{len(report.heads)} tables")  # fmt: skip
    for table, head in sorted(report.heads.items()):
        print(f"  {table}: chain head {head}")
    if report.id_gaps:
        holes = len(report.id_gaps)
        print(f"  {holes} hole(s) in notification ids: rolled-back batches, not evidence")
    for problem in report.problems:
        print(f"BROKEN: {problem}")
    print("chain intact" if report.ok else f"{len(report.problems)} problem(s) found")
    return 0 if report.ok else 1
