"""The hand-written day (day.py) against figures worked out on paper from the MGR formula.

PG-01 day: opener 15,000; buy-ins 500 cash + 1,000 marker + 25 coupon issue 1,525 of
chips; r1 moves +100 net on the house's wagers (200 - 100), +50 Pair Fortunes and 5
vigorish = 155; r2 moves +100 (the dealer's wager), 2 vigorish and 3 surplus
vigorish = 105; fill 2,000, credit 1,000. Tray at close: 15,000 + 2,000 - 1,000 -
1,525 + 260 = 14,735, the closer. Drop 1,525. Win = 14,735 + 1,000 + 1,525 - 15,000
- 2,000 = 260, as replayed. Hold 260 / 1,525 = 17.05%. Vigorish owed 5 + 2 + 3 = 10,
all collected.

PG-01 swing: opener 14,735 (the day's closer); r3 pays a 100 win and takes no
vigorish: -100. Closer 14,635, drop 0: win -100, hold undefined, 5.00 vigorish owed
and uncollected.

PG-02 (California): opener 5,000; a 300 cash buy-in; the player-dealer takes the lost
100; the house drops fees of 1 + 2. Closer 4,700, drop 300 cash + 3 of chips = 303.
Win 4,700 + 303 - 5,000 = 3, the fees. Hold 3 / 303 = 0.99%.

The day: win 260 - 100 + 3 = 163 on a drop of 1,828: 8.92%.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from audit.accounting.ledger import HOLD_BAND_Z
from audit.accounting.reconcile import Reconciler
from audit.accounting.report import (
    MgrLine,
    mgr_lines,
    mgr_totals,
    render_csv,
    render_json,
    render_text,
)
from tests.builders.paper_day import paper_day


def _reconciled() -> Reconciler:
    reconciler = Reconciler()
    findings = [f for event in paper_day() for f in reconciler.feed(event)]
    assert findings == []  # the day is clean: the opener is the prior closer, the counts agree
    assert reconciler.slip_gaps() == []
    return reconciler


def _lines():
    ledgers = [ledger.as_dict() for ledger in _reconciled().ledgers.values()]
    lines = mgr_lines(ledgers, lambda ledger: len(ledger["variance_codes"]))
    return lines, mgr_totals(lines)


def test_each_table_and_shift_matches_the_paper_line_for_line():
    lines, _ = _lines()
    got = [
        (ln.table, ln.shift, ln.opener, ln.fills, ln.credits, ln.drop, ln.closer, ln.win,
         ln.hold_pct, ln.replayed_win, ln.variance, ln.vig_uncollected)
        for ln in lines
    ]  # fmt: skip
    assert got == [
        ("PG-01", "day", 1_500_000, 200_000, 100_000, 152_500, 1_473_500, 26_000,
         Decimal("17.05"), 26_000, 0, 0),
        ("PG-01", "swing", 1_473_500, 0, 0, 0, 1_463_500, -10_000, None, -10_000, 0, 500),
        ("PG-02", "day", 500_000, 0, 0, 30_300, 470_000, 300, Decimal("0.99"), 300, 0, 0),
    ]  # fmt: skip


def test_the_replayed_win_is_broken_down_by_source():
    reconciler = _reconciled()
    day = next(
        v for k, v in reconciler.ledgers.items() if (k.table_id, k.shift) == ("PG-01", "day")
    )
    replay = day.replay
    assert (replay.wagers, replay.vigorish, replay.surplus_vigorish, replay.dealer_wager) == (
        15_000, 700, 300, 10_000)  # fmt: skip
    assert (replay.vigorish_owed, replay.vigorish_collected) == (1_000, 1_000)
    assert day.round_ids == ["r1", "r2"]
    california = next(v for k, v in reconciler.ledgers.items() if k.table_id == "PG-02")
    assert (california.replay.collection_fees, california.replay.wagers) == (300, 0)
    assert california.buy_ins == {"cash": 30_000, "marker": 0, "coupon": 0}


def test_totals_by_game_and_for_the_day():
    _, totals = _lines()
    day = totals[-1].values()
    assert day["table"] == "total day"
    assert (day["win"], day["drop"], day["hold_pct"]) == (
        Decimal("163.00"), Decimal("1828.00"), Decimal("8.92"))  # fmt: skip
    slips = (day["opener"], day["closer"], day["fills"], day["credits"])
    assert slips == tuple(Decimal(x) for x in ("34735.00", "34070.00", "2000.00", "1000.00"))
    assert day["vig_uncollected"] == Decimal("5.00")
    assert [t.label for t in totals] == ["total paigow", "total day"]


def test_the_three_formats_carry_the_same_figures():
    lines, totals = _lines()
    text = render_text(lines, totals, "MGR")
    assert "17.05" in text
    assert "8.92" in text
    assert text.splitlines()[0] == "MGR"
    rows = list(csv.DictReader(io.StringIO(render_csv(lines, totals))))
    assert [r["table"] for r in rows] == ["PG-01", "PG-01", "PG-02", "total paigow", "total day"]
    assert rows[1]["hold_pct"] == ""
    assert rows[1]["win"] == "-100.00"
    document = json.loads(render_json(lines, totals, "2026-11-21"))
    assert document["rows"][2]["win"] == "3.00"
    assert document["totals"][-1]["hold_pct"] == "8.92"


def test_the_hold_band_comes_from_the_engines_own_chances():
    from audit.games.paigow.options import rule_set_for
    from audit.games.paigow.probabilities import lookup

    lines, _ = _lines()
    rules = rule_set_for("pa-2019", {})
    rates = lookup(rules.house_way, rules.ranking)
    mean = rates.lose - 0.95 * rates.win
    spread = rates.lose + 0.9025 * rates.win - mean * mean
    # r1 is the day's only dealer-banked round: 100 and 200 against the house way, which
    # moved 200 - 100 + 5 = 105 to the house; the rest of the day replayed 260 - 105.
    centre = 30_000 * mean + (26_000 - 10_500)
    half = HOLD_BAND_Z * ((10_000**2 + 20_000**2) * spread) ** 0.5  # 99.9%, about 3.29
    low, high = lines[0].band
    assert abs(low - (centre - half)) < 1e-6
    assert abs(high - (centre + half)) < 1e-6
    assert lines[0].hold_band == f"{low * 100 / 152_500:.1f}..{high * 100 / 152_500:.1f}"
    assert lines[2].band is None  # California: the house banks no wager


def _line(day, table, win, drop):
    return MgrLine(gaming_day=day, table=table, game="paigow", shift="day", opener=100_000,
                   fills=0, credits=0, drop=drop, closer=100_000 + win - drop, win=win,
                   replayed_win=win, vig_uncollected=0, findings=0)  # fmt: skip


def test_several_gaming_days_are_totalled_each_on_its_own():
    lines = [_line("2026-11-21", "PG-01", 1_000, 5_000), _line("2026-11-22", "PG-01", 2_000, 9_000)]
    totals = mgr_totals(lines)
    days = [(t.values()["gaming_day"], t.label, t.values()["win"]) for t in totals]
    assert days == [
        ("2026-11-21", "total paigow", Decimal("10.00")),
        ("2026-11-21", "total day", Decimal("10.00")),
        ("2026-11-22", "total paigow", Decimal("20.00")),
        ("2026-11-22", "total day", Decimal("20.00")),
    ]


def test_the_csv_types_each_row_so_a_total_is_never_read_as_a_shift():
    lines = [_line("2026-11-21", "PG-01", 1_000, 5_000), _line("2026-11-22", "PG-01", 2_000, 9_000)]
    rows = list(csv.DictReader(io.StringIO(render_csv(lines, mgr_totals(lines)))))
    assert [(r["row_type"], r["gaming_day"], r["table"]) for r in rows] == [
        ("shift", "2026-11-21", "PG-01"),
        ("shift", "2026-11-22", "PG-01"),
        ("total", "2026-11-21", "total paigow"),
        ("total", "2026-11-21", "total day"),
        ("total", "2026-11-22", "total paigow"),
        ("total", "2026-11-22", "total day"),
    ]
