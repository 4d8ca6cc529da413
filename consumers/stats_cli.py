"""``tablewatch stats [FILE.jsonl]``: player win rates by table, dealer, position, player, or
dealer and player together (``--by dealer,player``).

From the store's win-rate view (kept by a projection, exactly once), or offline from
a file of events.

Each group's observed win rate is set against the rules engine's expected rate
(Pai Gow: both sides setting by the table's house way) with a Wilson score
interval, and the money the players won (exact) against the money expected on
their stakes (an estimate) with a normal interval; a group is marked FLAG when the
expected rate lies outside the rate's interval, MONEY when the money expected lies
outside the money's (``audit.verification.statistics``). The exit status is 1 when
a group is marked either way, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from audit.games.confidence import DEFAULT_CONFIDENCE
from audit.verification.statistics import (
    GROUP_BYS,
    GroupStats,
    group_stats,
    settled_wagers,
    stats_of,
)
from consumers.arguments import confidence_level
from consumers.event_files import stored_events
from consumers.settings import Settings
from consumers.view_reads import caught_up
from consumers.wiring import open_store
from projections.win_rates import WinRatesProjection


def register(commands: Any) -> None:
    """Add the ``stats`` command."""
    stats = commands.add_parser(
        "stats", help="win rates by table, dealer, position or player against expectation"
    )
    stats.add_argument(
        "file", type=Path, nargs="?",
        help="a JSON Lines file of table events (default: the store's win-rate view)",
    )  # fmt: skip
    stats.add_argument(
        "--by", choices=GROUP_BYS, default="table", help="how to group wagers (default: table)"
    )
    stats.add_argument(
        "--confidence",
        type=confidence_level,
        default=DEFAULT_CONFIDENCE,
        help=f"the interval's confidence, between 0 and 1 (default: {DEFAULT_CONFIDENCE})",
    )
    stats.add_argument(
        "--group", metavar="GROUP",
        help="only this group (a table, dealer, player...; by its key: one row, not all)",
    )  # fmt: skip
    stats.add_argument("--json", action="store_true", help="print one JSON line per group")
    stats.set_defaults(handler=_stats)


def print_stats(rows: list[GroupStats], out: TextIO) -> None:
    """Print group statistics as a readable table."""
    if not rows:
        print("no settled wagers", file=out)
        return
    confidence = f"{rows[0].confidence:.4g}"
    width = max(14, *(len(r.group) for r in rows))
    print(
        f"{rows[0].by:<{width}} {'n':>7} {'win':>6} {'push':>6} {'lose':>6} "
        f"{'observed':>9} {'expected':>9}  {confidence} interval"
        f"{'wagered':>15} {'won':>12} {'expected':>12}  {confidence} interval (won)",
        file=out,
    )
    for r in rows:
        marks = [f"FLAG ({r.direction})" if r.flagged else "", "MONEY" if r.money_flagged else ""]
        print(
            f"{r.group:<{width}} {r.n:>7} {r.wins:>6} {r.pushes:>6} {r.losses:>6} "
            f"{r.observed:>9.4f} {r.expected:>9.4f}  [{r.low:.4f}, {r.high:.4f}]"
            f"{r.wagered:>15,} {r.won:>12,} {r.expected_won:>12,}  "
            f"[{r.won_low:,}, {r.won_high:,}]  {' '.join(m for m in marks if m)}".rstrip(),
            file=out,
        )
    flagged = sum(r.flagged for r in rows)
    money = sum(r.money_flagged for r in rows)
    print(f"groups: {len(rows)}, flagged: {flagged}, money flagged: {money}", file=out)


def _stats(args: argparse.Namespace) -> int:
    if args.file is None:
        projection = caught_up(open_store(Settings.from_env()), WinRatesProjection)
        if args.group is None:
            tallies = projection.view.tallies(args.by)
        else:
            found = projection.view.tallies_of([(args.by, args.group)])
            tallies = {name: tally for (_, name), tally in found.items()}
        rows = stats_of(tallies, args.by, args.confidence)
    else:
        args.file.stat()  # a missing file fails before any work (stat: a FIFO is not opened twice)
        wagers = settled_wagers(stored_events(args.file, sys.stderr))
        rows = group_stats(wagers, args.by, args.confidence)
        rows = [r for r in rows if args.group is None or r.group == args.group]
    if args.json:
        for row in rows:
            print(json.dumps(row.as_dict()))
    else:
        print_stats(rows, sys.stdout)
    return 1 if any(r.flagged or r.money_flagged for r in rows) else 0
