"""``tablewatch verify FILE.jsonl``: replay an event file offline against its tables' rules."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from audit.findings.finding import Severity
from audit.floor.verify import verify_floor
from consumers.event_files import stored_events
from consumers.finding_text import print_findings, summarise


def register(commands: Any) -> None:
    """Add the ``verify`` command."""
    verify = commands.add_parser("verify", help="find irregularities in an event file, offline")
    verify.add_argument("file", type=Path, help="a JSON Lines file of table events")
    verify.add_argument("--json", action="store_true", help="print findings as JSON lines")
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    args.file.stat()  # a missing file fails before any work (stat: a FIFO is not opened twice)
    findings = verify_floor(stored_events(args.file, sys.stderr))
    if args.json:
        counts: Counter[Severity] = Counter()
        for finding in findings:
            counts[finding.severity] += 1
            print(json.dumps(finding.as_dict()))
    else:
        collected = list(findings)
        counts = print_findings(collected, sys.stdout)
        summarise(collected, sys.stdout)
    return 1 if counts[Severity.CRITICAL] else 0
