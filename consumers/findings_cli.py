"""``tablewatch findings``: the findings view, filtered by table, dealer, code, severity, time,
gaming day and player."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from audit.findings.finding import Severity
from consumers.arguments import parse_gaming_day
from consumers.errors import ConfigError
from consumers.finding_text import money_shown, money_totals
from consumers.settings import Settings
from consumers.view_reads import caught_up
from consumers.wiring import open_store
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter


def register(commands: Any) -> None:
    """Add the ``findings`` command."""
    findings = commands.add_parser("findings", help="list findings from the store's findings view")
    findings.add_argument("--table", help="one table id")
    findings.add_argument("--dealer", help="one dealer id")
    findings.add_argument("--code", help="one finding code, e.g. PG-SETTLE-PAYOUT")
    findings.add_argument(
        "--severity", choices=[s.value for s in Severity], help="this severity and above"
    )
    findings.add_argument("--since", help="occurred at or after (ISO 8601, with offset)")
    findings.add_argument("--until", help="occurred before (ISO 8601, with offset)")
    findings.add_argument(
        "--gaming-day", metavar="DATE", help="one casino gaming day, e.g. 2026-11-21"
    )
    findings.add_argument("--player", metavar="PLAYER", help="one player id")
    findings.add_argument("--json", action="store_true", help="print JSON lines")
    findings.set_defaults(handler=_findings)


def _when(text: str | None, name: str) -> datetime | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"--{name} is not an ISO 8601 time: {text!r}") from None
    if moment.tzinfo is None:
        example = moment.replace(tzinfo=UTC).isoformat()  # itself accepted, unlike text+offset
        raise ConfigError(f"--{name} needs a UTC offset, e.g. {example}: {text!r}")
    return moment


def _findings(args: argparse.Namespace) -> int:
    gaming_day = parse_gaming_day(args.gaming_day)  # mistyped: fails before the store opens
    store = open_store(Settings.from_env())
    projection = caught_up(store, FindingsProjection)  # unless a running serve keeps it
    query = FindingFilter(
        table_id=args.table,
        dealer_id=args.dealer,
        code=args.code,
        min_severity=Severity(args.severity) if args.severity else None,
        since=_when(args.since, "since"),
        until=_when(args.until, "until"),
        gaming_day=gaming_day,
        player_id=args.player,
        by_time=True,
    )
    rows = projection.view.select(query)
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    for row in rows:
        where = f"{row['table_id']} {row['round_id'] or '-'} pos {row['position']}"
        who = f" player {row['player_id']}" if row["player_id"] else ""
        print(f"{row['severity'].upper():8} {row['code']:32} {where} dealer {row['dealer_id']}"
              f"{who} day {row['gaming_day'] or '-'}")  # fmt: skip
        print(f"         {row['title']} ({row['rule']})")
        print(f"         recorded {row['recorded']}; expected {row['expected']}; "
              f"{money_shown(row)}; {row['occurred_at']}")  # fmt: skip
    by_code = Counter(row["code"] for row in rows)
    print(f"{len(rows)} finding(s)" + ("" if not rows else ": " + ", ".join(
        f"{code} {count}" for code, count in sorted(by_code.items()))))  # fmt: skip
    at_stake, exposure = money_totals(rows)
    print(f"money at stake ${at_stake:,}; exposure (procedure breaches) ${exposure:,}")
    return 0
