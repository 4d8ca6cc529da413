"""Benchmark what the accounts' retirement keeps flat: the findings and reconciliation state.

Run: ``python3 bench/retirement.py [--days 8 --tables 4 --rounds 6]``. N gaming days of
the same tables, played by careless dealers (2% of rounds), then 4N; each fed through
the findings projection's judge and the reconciliation, once as before (nothing
retired) and once with the projections' window
(:data:`~audit.accounting.reconcile.RETIRE_AFTER_DAYS`). Prints the pickled state's size
(what each checkpoint stores) and the ledgers held. N should exceed the window, or
nothing is yet retired. Last line: JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from audit.accounting.reconcile import RETIRE_AFTER_DAYS, Reconciler
from audit.events.catalogue import event_json, parse_event
from audit.events.envelope import Event
from audit.floor.verify import FloorVerifier
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.verification.stream import as_stored
from projections.checkpoint import dumps

FIRST_DAY = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def _renamed(event: Event, changes: dict[str, Any]) -> Event:
    return parse_event(json.dumps({**json.loads(event_json(event)), **changes}))


def floor_days(days: int, tables: int, rounds: int) -> list[Event]:
    """Return ``days`` gaming days of the same tables (the simulation draws table numbers)."""
    found: list[Event] = []
    next_seq: dict[str, int] = {}
    for day in range(days):
        config = ShiftConfig(tables, rounds, start=FIRST_DAY + timedelta(days=day), shifts=2)
        events, _ = careless_shift(config, random.Random(2026 + day), 0.02)
        shift = list(events)
        names = {t: f"PG-T{i}" for i, t in enumerate(sorted({e.table_id for e in shift}))}
        ends: dict[str, int] = {}
        for event in shift:
            table = names.get(event.table_id, event.table_id)
            changes: dict[str, Any] = {"table_id": table}
            changes["seq"] = event.seq + next_seq.get(table, 0)
            counted = getattr(event, "for_table_id", None)
            if counted is not None:
                changes["for_table_id"] = names.get(counted, counted)
            ends[table] = max(changes["seq"], ends.get(table, -1))
            found.append(_renamed(event, changes))
        next_seq.update((table, seq + 1) for table, seq in ends.items())
    return list(as_stored(found))


def state_sizes(events: list[Event], window: int | None) -> dict[str, float]:
    """Return the judges' pickled state sizes (bytes) and ledgers held after the events."""
    verifier, reconciler = FloorVerifier(window), Reconciler(window)
    for at, event in enumerate(events, start=1):
        verifier.feed(event)
        reconciler.feed(event)
        if at % 2_000 == 0:
            reconciler.drain_changed()  # as the projection writes its batches
    reconciler.drain_changed()
    return {
        "findings state B": float(len(dumps({"verifier": verifier}))),
        "reconciliation state B": float(len(dumps({"reconciler": reconciler}))),
        "ledgers held": float(len(reconciler.ledgers)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=8, help="N gaming days (default 8)")
    parser.add_argument("--tables", type=int, default=4, help="tables (default 4)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds a table a day (6)")
    args = parser.parse_args()
    figures: dict[str, dict[str, float]] = {}
    for days in (args.days, 4 * args.days):
        events = floor_days(days, args.tables, args.rounds)
        for window in (None, RETIRE_AFTER_DAYS):
            label = "before (kept)" if window is None else f"retired after {window} days"
            for name, value in state_sizes(events, window).items():
                figures.setdefault(f"{name}, {label}", {})[str(days)] = value
    n, n4 = str(args.days), str(4 * args.days)
    print(f"{'figure':50} {n + ' days':>12} {n4 + ' days':>12} {'ratio':>6}")
    for name, by_days in figures.items():
        print(f"{name:50} {by_days[n]:12.0f} {by_days[n4]:12.0f} {by_days[n4] / by_days[n]:6.2f}")
    print(json.dumps({"bench": "retirement", "days": [args.days, 4 * args.days], **figures}))


if __name__ == "__main__":
    main()
