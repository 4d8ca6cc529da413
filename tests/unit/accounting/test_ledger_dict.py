"""``ShiftLedger.as_dict`` is written out by hand for speed: it must stay the generic
``dataclasses.asdict`` reading plus the derived totals, key for key and in order."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from audit.accounting.ledger import (
    DropCount,
    HoldBand,
    ReplayedWin,
    ShiftKey,
    ShiftLedger,
    Slip,
)
from audit.accounting.reconcile import Reconciler
from tests.builders.paper_day import paper_day


def _generic(ledger: ShiftLedger) -> dict[str, Any]:
    """The ledger's dict as ``as_dict`` built it before it was written out by hand."""
    found = asdict(ledger)
    found["key"] = asdict(ledger.key)
    found["replay"]["total"] = ledger.replay.total
    found.update(
        fills_total=ledger.fills_total, credits_total=ledger.credits_total, drop=ledger.drop,
        accounting_win=ledger.accounting_win, variance=ledger.variance,
        hold_percent=None if ledger.hold_percent is None else str(ledger.hold_percent),
    )  # fmt: skip
    return found


def _empty() -> ShiftLedger:
    return ShiftLedger(ShiftKey("PG-01", "2026-11-21", "no-opener"), game="paigow")


def _full() -> ShiftLedger:
    return ShiftLedger(
        ShiftKey("PG-02", "2026-11-21", "day"), game="paigow", jurisdiction="NJ",
        opener=2_000_000, opener_slip=11, closer=1_985_050, closer_slip=12,
        fills=[Slip(7, 50_000, "e1"), Slip(8, 25_025, "e2")], credits=[Slip(3, 10_000, "e3")],
        buy_ins={"cash": 90_000, "marker": 5_000, "coupon": 1},
        box_id="B-9",
        counts={"first": DropCount(100_000, 5, 7, 9, "e4"),
                "second": DropCount(99_000, 0, 0, 0, "e5")},
        replay=ReplayedWin(1, -2, 3, -4, 5, 6, 7, -8),
        band=HoldBand(expected=123.456, variance=7.25e6, wagered=40_000, observed=-1_250),
        opened_at="2026-11-21T08:00:00+00:00", closed_at="2026-11-21T16:00:00+00:00",
        round_ids=["r1", "r2"], event_ids=["e1", "e2", "e3"], variance_codes=["ACC-WIN-VARIANCE"],
    )  # fmt: skip


def _counted_no_closer() -> ShiftLedger:
    ledger = _full()
    ledger.closer = ledger.closer_slip = ledger.closed_at = None
    return ledger


def _negative_win() -> ShiftLedger:
    ledger = _full()
    ledger.counts = {"first": DropCount(1, 0, 0, 0, "e9")}
    return ledger


def _zero_drop() -> ShiftLedger:
    ledger = _full()
    ledger.counts = {"first": DropCount(0, 0, 0, 0, "e9")}
    return ledger


@pytest.mark.parametrize("build", [_empty, _full, _counted_no_closer, _negative_win, _zero_drop])
def test_as_dict_is_the_generic_dict(build):
    ledger = build()
    assert json.dumps(ledger.as_dict()) == json.dumps(_generic(ledger))


def test_the_paper_days_ledgers_are_the_generic_dicts():
    reconciler = Reconciler()
    for event in paper_day():
        reconciler.feed(event)
    ledgers = reconciler.drain_changed()
    assert ledgers
    for ledger in ledgers:
        assert json.dumps(ledger.as_dict()) == json.dumps(_generic(ledger))


def test_as_dict_shares_no_list_or_dict_with_the_ledger():
    ledger = _full()
    found = ledger.as_dict()
    found["fills"].clear()
    found["buy_ins"]["cash"] = 0
    found["round_ids"].append("r3")
    assert ledger.as_dict() == _generic(ledger)
