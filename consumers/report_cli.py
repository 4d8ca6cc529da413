"""``tablewatch report mgr|variance``: the auditors' Master Game Report and variance report.

Both first bring the findings and reconciliation views up to date with the store
(exactly once, so always safe), then read them.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.accounting.report import (
    MgrLine,
    MgrTotal,
    mgr_lines,
    mgr_totals,
    render_csv,
    render_json,
    render_text,
)
from audit.accounting.slips import SERIES, Used, series_gaps
from audit.games.money import Cents, to_cents, to_dollars
from audit.store.application import FactStore
from consumers.arguments import parse_gaming_day
from consumers.finding_text import money_totals
from consumers.settings import Settings
from consumers.view_reads import caught_up_all
from consumers.wiring import open_store
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter, FindingsView
from projections.reconciliation import ReconciliationProjection

FORMATS = ("text", "csv", "json")


def register(commands: Any) -> None:
    """Add the ``report`` command and its two reports."""
    report = commands.add_parser("report", help="auditors' reports from the store")
    reports = report.add_subparsers(dest="report", required=True)
    for name, text in (("mgr", "the Master Game Report: one row per table and shift"),
                       ("variance", "every variance with its evidence")):  # fmt: skip
        parser = reports.add_parser(name, help=text)
        parser.add_argument("--gaming-day", help="YYYY-MM-DD (default: every day stored)")
        parser.add_argument("--format", choices=FORMATS, default="text")
        parser.set_defaults(handler=_mgr if name == "mgr" else _variance)


def _views(store: FactStore) -> tuple[FindingsView, Any]:
    """Return the findings and the reconciliation's views (caught up unless a serve keeps them)."""
    found, reconciled = caught_up_all(store, [FindingsProjection, ReconciliationProjection])
    return found.view, reconciled.view


def _game_findings(ledger: Mapping[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a shift's game findings: those of its rounds, and those about the table (no
    round) found between its opener and closer; with no opener (itself a variance), those of
    its gaming day up to its closer, never the table's since the store began."""
    table, start, end = ledger["key"]["table_id"], ledger["opened_at"], ledger["closed_at"]
    day = ledger["key"]["gaming_day"]
    rounds = set(ledger["round_ids"])

    def within(row: dict[str, Any]) -> bool:
        when = row["occurred_at"]
        began = when >= start if start is not None else row.get("gaming_day") == day
        return bool(when) and began and (end is None or when <= end)

    return [
        row
        for row in rows
        if row["table_id"] == table and not row["code"].startswith("ACC-")
        and (row["round_id"] in rounds if row["round_id"] else within(row))
    ]  # fmt: skip


def shift_findings(ledger: Mapping[str, Any], rows: list[dict[str, Any]]) -> int:
    """Count a shift's findings: its game findings (:func:`_game_findings`) and its variances."""
    return len(_game_findings(ledger, rows)) + len(ledger["variance_codes"])


def shift_money(ledger: Mapping[str, Any], rows: list[dict[str, Any]]) -> tuple[Cents, Cents]:
    """Return the money at stake and the exposure of a shift's game findings, in cents, apart."""
    at_stake, exposure = money_totals(_game_findings(ledger, rows))
    return to_cents(at_stake), to_cents(exposure)


def mgr_of(
    findings: FindingsView, ledgers: list[dict[str, Any]]
) -> tuple[list[MgrLine], list[MgrTotal]]:
    """Return the MGR's rows and totals for ``ledgers``, each shift's findings counted."""

    read: dict[tuple[str, str, str], list[dict[str, Any]]] = {}

    def rows_of(ledger: Mapping[str, Any]) -> list[dict[str, Any]]:
        # Only the rows the shift can own, by index: the day's, never the whole history.
        key = ledger["key"]
        at = (key["table_id"], key["gaming_day"], key["shift"])
        if at not in read:
            read[at] = findings.select_shift(
                key["table_id"], ledger["round_ids"], ledger["opened_at"], ledger["closed_at"],
                key["gaming_day"],
            )  # fmt: skip
        return read[at]

    lines = mgr_lines(
        ledgers,
        lambda ledger: shift_findings(ledger, rows_of(ledger)),
        lambda ledger: shift_money(ledger, rows_of(ledger)),
    )
    return lines, mgr_totals(lines)


def mgr_report(store: FactStore, gaming_day: str | None, form: str = "text") -> str:
    """Return the MGR for a gaming day (or all stored), in ``form``."""
    findings, reconciliation = _views(store)
    ledgers = reconciliation.ledgers(gaming_day)
    lines, totals = mgr_of(findings, ledgers)
    if form == "csv":
        return render_csv(lines, totals)
    if form == "json":
        return render_json(lines, totals, gaming_day)
    days = sorted({ledger["key"]["gaming_day"] for ledger in ledgers})
    shown = gaming_day or (days[0] if len(days) == 1 else ", ".join(days) or "none stored")
    title = f"Master Game Report, gaming day {shown} (dollars)"
    return render_text(lines, totals, title)


def _mgr(args: argparse.Namespace) -> int:
    store = open_store(Settings.from_env())
    print(mgr_report(store, parse_gaming_day(args.gaming_day), args.format).rstrip("\n"))
    return 0


def _used(ledgers: list[dict[str, Any]]) -> Used:
    used: Used = {series: {} for series in SERIES.values()}
    for ledger in ledgers:
        where = (ledger["key"]["table_id"], ledger["key"]["gaming_day"])
        if ledger["closer_slip"] is not None:
            used["inventory"].setdefault(ledger["closer_slip"], (*where, ""))
        for series, slips in (("fill", ledger["fills"]), ("credit", ledger["credits"])):
            for slip in slips:
                used[series].setdefault(slip["number"], (*where, slip["event_id"]))
    return used


def variance_rows(store: FactStore, gaming_day: str | None) -> list[dict[str, Any]]:
    """Return every variance of the day with its evidence: slips, box, counts, events, rounds."""
    findings, reconciliation = _views(store)
    return variances_of(findings, reconciliation.ledgers(gaming_day), gaming_day)


def variances_of(
    findings: FindingsView, ledgers: list[dict[str, Any]], gaming_day: str | None
) -> list[dict[str, Any]]:
    """Return the variances of ``ledgers`` (of ``gaming_day``, or all) with their evidence."""
    by_table: dict[str, list[dict[str, Any]]] = {}
    for ledger in ledgers:
        by_table.setdefault(ledger["key"]["table_id"], []).append(ledger)
    jurisdiction = {t: ls[0]["jurisdiction"] for t, ls in by_table.items()}
    gaps = [g.as_dict() for g in series_gaps(
        _used(ledgers), lambda t: jurisdiction.get(t, "PA"), gaming_day)]  # fmt: skip
    recorded_in = _recorded_in(ledgers)
    rows = []
    for finding in _variances(findings, gaming_day) + gaps:
        shift = _ledger_of(finding, recorded_in)
        if shift is None and gaming_day is not None and finding not in gaps:
            continue  # completed in another gaming day's shift (or in none)
        evidence: dict[str, Any] = {"events": finding["event_ids"]}
        if shift is not None:
            evidence.update(
                shift=shift["key"]["shift"], gaming_day=shift["key"]["gaming_day"],
                opener_slip=shift["opener_slip"], closer_slip=shift["closer_slip"],
                fill_slips=[s["number"] for s in shift["fills"]],
                credit_slips=[s["number"] for s in shift["credits"]],
                box=shift["box_id"], counts={k: str(to_dollars(v["cash"] + v["coupons"]
                                                  + v["markers"] + v["chips"]))
                                              for k, v in shift["counts"].items()},
                rounds=shift["round_ids"],
            )  # fmt: skip
        rows.append({**{k: finding[k] for k in ("code", "severity", "rule", "title", "table_id",
                                                 "recorded", "expected", "at_stake", "exposure")},
                     "evidence": evidence})  # fmt: skip
    return rows


def _variances(findings: FindingsView, gaming_day: str | None) -> list[dict[str, Any]]:
    """Return the accounting findings of ``gaming_day`` (or of every day), as found.

    A variance is filed under the gaming day of the shift it was found in, the shift whose
    ledger holds its completing event (``Reconciler._finding``), which is the shift
    :func:`_ledger_of` then finds; so a day's report reads that day's findings through the
    view's (gaming day, code) index, never every day's (#16: costs flat in history).
    """
    asked = [FindingFilter(code=code, gaming_day=gaming_day) for code in sorted(ACCOUNTING_KINDS)]
    rows = [row for query in asked for row in findings.select(query)]
    return sorted(rows, key=lambda row: row["row_number"])


def _recorded_in(ledgers: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Return the shift each (table, event id) was recorded in, the first listed if several:
    built once, so each variance finds its shift by a lookup, not by searching every shift's
    events (#16: a report of every day stored was quadratic in the days)."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for ledger in ledgers:
        table = ledger["key"]["table_id"]
        for event_id in ledger["event_ids"]:
            found.setdefault((table, event_id), ledger)
    return found


def _ledger_of(
    finding: Mapping[str, Any], recorded_in: dict[tuple[str, str], dict[str, Any]]
) -> dict[str, Any] | None:
    """Return the shift a variance belongs to: the one its completing event was recorded in.

    The finding's last event completed it (an opener after the prior closer, a second
    count after the first, a slip's second use): its shift is the finding's, even when an
    earlier event (the prior closer) sits in another day's shift.
    """
    if not finding["event_ids"]:
        return None
    return recorded_in.get((finding["table_id"], finding["event_ids"][-1]))


def variance_csv(rows: list[dict[str, Any]]) -> str:
    """Return variance rows as CSV, the evidence as one JSON column."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = ("code", "severity", "rule", "table_id", "recorded", "expected", "at_stake",
               "exposure")  # fmt: skip
    writer.writerow([*columns, "evidence"])
    for row in rows:
        writer.writerow([row[c] for c in columns] + [json.dumps(row["evidence"])])
    return buffer.getvalue()


def _variance(args: argparse.Namespace) -> int:
    rows = variance_rows(open_store(Settings.from_env()), parse_gaming_day(args.gaming_day))
    if args.format == "json":
        print(json.dumps(rows))
        return 0
    if args.format == "csv":
        print(variance_csv(rows).rstrip("\n"))
        return 0
    for row in rows:
        ev = row["evidence"]
        print(
            f"{row['severity'].upper():8} {row['code']:20} {row['table_id']} "
            f"${row['at_stake']} ({row['rule']})"
        )
        print(f"         {row['recorded']}; expected {row['expected']}")
        if "shift" in ev:
            rounds = ev["rounds"]
            span = f"{rounds[0]} .. {rounds[-1]}" if rounds else "none"
            print(
                f"         slips: opener {ev['opener_slip']}, closer {ev['closer_slip']}, "
                f"fills {ev['fill_slips'] or '-'}, credits {ev['credit_slips'] or '-'}; "
                f"box {ev['box']} counts {ev['counts']}; {len(rounds)} rounds ({span})"
            )
        print(f"         events {', '.join(ev['events'][:6])}"
              + (" ..." if len(ev["events"]) > 6 else ""))  # fmt: skip
    print(f"{len(rows)} variance(s)")
    return 0
