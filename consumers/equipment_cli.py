"""``tablewatch equipment [FILE.jsonl]``: dice, starting positions, shoes and equipment tenure.

From the store's equipment view (kept by a projection, exactly once), or offline from a
file of events. Each closed window (a dice set, a table's gaming day, a dealer's gaming
day, a 21 Baccarat shoe) is shown with its count, its chi-squared test after pooling
sparse cells, and its p-value; ALARM marks one below ``1 - confidence``
(audit/verification/equipment.py). ``--screen tenure`` lists how long each tile set,
dice set and shoe stayed in play. ``--gaming-day`` and ``--table`` narrow to the windows and
tenures begun in that gaming day, at that table: from the store, read by the view's indexes,
so a day's screen costs that day, not every day stored. The exit status is 1 when a window
shown alarms, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from audit.verification.equipment import SCREEN_CONFIDENCE, EquipmentScreens, Tenure, WindowResult
from consumers.arguments import confidence_level, parse_gaming_day
from consumers.event_files import stored_events
from consumers.settings import Settings
from consumers.view_reads import caught_up
from consumers.wiring import open_store
from projections.equipment_stats import EquipmentStatsProjection

SCREENS = {
    "dice": ("dice-set", "dice-table", "dice-dealer"),
    "start": ("start-dealer",),
    "shoe": ("b21-shoe",),
    "all": ("dice-set", "dice-table", "dice-dealer", "start-dealer", "b21-shoe"),
}
"""What ``--screen`` shows: which windows (``tenure`` shows the equipment's tenure)."""


def register(commands: Any) -> None:
    """Add the ``equipment`` command."""
    equipment = commands.add_parser(
        "equipment", help="dice totals, starting positions, shoes and equipment tenure, screened"
    )
    equipment.add_argument(
        "file", type=Path, nargs="?",
        help="a JSON Lines file of table events (default: the store's equipment view)",
    )  # fmt: skip
    equipment.add_argument(
        "--screen", choices=[*SCREENS, "tenure"], default="all",
        help="dice (per dice set, table and dealer), start (per dealer), shoe (21 Baccarat), "
        "all of these (default), or tenure",
    )  # fmt: skip
    equipment.add_argument(
        "--confidence", type=confidence_level, default=SCREEN_CONFIDENCE,
        help=f"a window alarms below p = 1 - this (default: {SCREEN_CONFIDENCE})",
    )  # fmt: skip
    equipment.add_argument(
        "--gaming-day", metavar="DATE",
        help="only the windows and tenures begun in this gaming day, e.g. 2026-11-21",
    )  # fmt: skip
    equipment.add_argument("--table", help="only this table's windows and tenures")
    equipment.add_argument("--json", action="store_true", help="print one JSON line per row")
    equipment.set_defaults(handler=_equipment)


def _read(args: argparse.Namespace) -> tuple[list[WindowResult], list[Tenure]]:
    day, table = parse_gaming_day(args.gaming_day), args.table
    if args.file is None:
        projection = caught_up(open_store(Settings.from_env()), EquipmentStatsProjection)
        view = projection.view  # a day or a table is read by its index, not every window
        return (
            view.windows(args.confidence, gaming_day=day, table_id=table),
            view.tenures(gaming_day=day, table_id=table),
        )
    args.file.stat()  # a missing file fails before any work (stat: a FIFO is not opened twice)
    screens = EquipmentScreens(args.confidence)
    windows: list[WindowResult] = []
    tenures: list[Tenure] = []
    for event in stored_events(args.file, sys.stderr):
        closed, ended = screens.feed(event)
        windows += [r for r in closed if _keeps(r.window.gaming_day, r.window.table_id, day, table)]
        tenures += [t for t in ended if _keeps(t.gaming_day, t.table_id, day, table)]
    return windows, tenures


def _keeps(gaming_day: str | None, table_id: str, day: str | None, table: str | None) -> bool:
    """Return whether a window or tenure of a file passes ``--gaming-day`` and ``--table``."""
    return (day is None or gaming_day == day) and (table is None or table_id == table)


def window_dict(result: WindowResult) -> dict[str, Any]:
    """Return a window and its test as plain JSON-ready values."""
    w, fit = result.window, result.fit
    return {
        "screen": w.screen, "subject": w.subject, "table_id": w.table_id,
        "dealer_id": w.dealer_id, "gaming_day": w.gaming_day, "n": w.n,
        "cells": dict(zip(w.labels, w.counts, strict=True)),
        "expected": dict(zip(w.labels, (round(e, 3) for e in w.expected), strict=True)),
        "statistic": None if fit is None else fit.statistic,
        "df": None if fit is None else fit.df,
        "p_value": None if fit is None else fit.p_value,
        "alarm": result.alarm, "confidence": result.confidence, "rule": w.rule,
        "opened_at": w.opened_at, "closed_at": w.closed_at,
    }  # fmt: skip


def print_windows(results: list[WindowResult], out: TextIO) -> None:
    """Print windows as a readable table: each with its cells and its test."""
    if not results:
        print("no closed windows", file=out)
        return
    print(f"{'screen':<13} {'subject':<26} {'day':<10} {'n':>6} {'chi2':>8} {'df':>3} "
          f"{'p':>9}  cells (observed/expected)", file=out)  # fmt: skip
    for r in results:
        w, fit = r.window, r.fit
        test = "   (too few to test)" if fit is None else (
            f"{fit.statistic:>8.1f} {fit.df:>3} {fit.p_value:>9.2g}"
        )  # fmt: skip
        cells = " ".join(
            f"{label}:{count}/{expected:.0f}"
            for label, count, expected in zip(w.labels, w.counts, w.expected, strict=True)
        )
        mark = "ALARM " if r.alarm else ""
        print(f"{w.screen:<13} {w.subject:<26} {w.gaming_day or '-':<10} {w.n:>6} {test}  "
              f"{mark}{cells}", file=out)  # fmt: skip
    alarms = sum(r.alarm for r in results)
    tested = sum(r.fit is not None for r in results)
    print(f"windows: {len(results)}, tested: {tested}, alarms: {alarms} "
          f"(at {results[0].confidence:.6g})", file=out)  # fmt: skip


def print_tenures(tenures: list[Tenure], out: TextIO) -> None:
    """Print tenures as a readable table."""
    if not tenures:
        print("no equipment taken out of play", file=out)
        return
    print(f"{'equipment':<9} {'table':<8} {'item':<14} {'day':<10} {'rounds':>6} "
          f"{'minutes':>8}  ended by", file=out)  # fmt: skip
    for t in tenures:
        print(f"{t.equipment:<9} {t.table_id:<8} {t.item:<14} {t.gaming_day or '-':<10} "
              f"{t.rounds:>6} {t.minutes:>8.1f}  {t.ended_by}", file=out)  # fmt: skip


def _equipment(args: argparse.Namespace) -> int:
    windows, tenures = _read(args)
    if args.screen == "tenure":
        if args.json:
            for t in tenures:
                print(json.dumps(asdict(t)))
        else:
            print_tenures(tenures, sys.stdout)
        return 0
    shown = [r for r in windows if r.window.screen in SCREENS[args.screen]]
    if args.json:
        for r in shown:
            print(json.dumps(window_dict(r)))
    else:
        print_windows(shown, sys.stdout)
    return 1 if any(r.alarm for r in shown) else 0
