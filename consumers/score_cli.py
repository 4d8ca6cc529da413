"""``tablewatch score EVENTS.jsonl LABELS.jsonl``: how well verification finds what was injected.

The events are judged offline as the store would keep them, as ``tablewatch
verify`` judges them, and each finding compared with the careless dealer's
labels (``tablewatch simulate --irregularities RATE``). The exit status is 1
unless every code has precision and recall 1.0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from audit.simulation.labels import InvalidLabelError, Label
from audit.simulation.scoring import ScoreReport, score, verify_for_scoring
from consumers.errors import TablewatchError
from consumers.event_files import read_events


class LabelFileError(TablewatchError, ValueError):
    """Raised for a labels file with a line that is not a label."""


def register(commands: Any) -> None:
    """Add the ``score`` command."""
    parser = commands.add_parser(
        "score", help="score verification against injected irregularities' labels"
    )
    parser.add_argument("events", type=Path, help="a JSON Lines file of table events")
    parser.add_argument("labels", type=Path, help="the JSON Lines labels of its irregularities")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    parser.set_defaults(handler=_score)


def read_labels(path: Path) -> Iterator[Label]:
    """Yield the labels of a JSON Lines file; raise :class:`LabelFileError` on a bad line."""
    with path.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield Label.from_dict(json.loads(line))
            except (json.JSONDecodeError, InvalidLabelError) as error:
                raise LabelFileError(f"{path.name}:{number}: not a label: {error}") from None


def print_report(report: ScoreReport, out: TextIO) -> None:
    """Print the per-code table and a one-line verdict."""
    for line in report.lines():
        print(line, file=out)
    total = report.total
    verdict = "every code found, no false alarm" if report.perfect else "NOT PERFECT"
    print(
        f"{report.labels:,} labels ({len(report.kinds)} kinds), {report.findings:,} findings: "
        f"precision {total.precision:.3f}, recall {total.recall:.3f}: {verdict}",
        file=out,
    )


def _score(args: argparse.Namespace) -> int:
    args.events.stat()  # a missing file fails before any work (stat: a FIFO is not opened twice)
    labels = list(read_labels(args.labels))
    findings = verify_for_scoring(read_events(args.events, sys.stderr))
    report = score(findings, labels)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print_report(report, sys.stdout)
    return 0 if report.perfect else 1
