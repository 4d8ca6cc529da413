"""Each variance the reconciliation judges: the paper day (day.py), one fact altered at a time."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from audit.accounting.controls import Thresholds
from audit.accounting.reconcile import Reconciler
from audit.accounting.slips import CAGE
from audit.events.envelope import Event
from audit.findings.finding import Finding, Severity
from tests.builders.paper_day import chips, paper_day


def _judge(events: list[Event]) -> list[Finding]:
    reconciler = Reconciler()
    found = [f for event in events for f in reconciler.feed(event)]
    return found + reconciler.slip_gaps()


def _edit(kind: str, match: dict, **changes) -> list[Event]:
    """Return the paper day with the first ``kind`` event matching ``match`` changed."""
    events, done = [], False
    for event in paper_day():
        if (
            not done
            and event.type_name() == kind
            and all(getattr(event, k) == v for k, v in match.items())
        ):
            event, done = replace(event, **changes), True
        events.append(event)
    assert done, (kind, match)
    return events


def test_the_paper_day_has_no_variance():
    assert _judge(paper_day()) == []


def test_a_short_drop_is_found_twice_with_its_amount():
    events = _edit("drop_counted", {"box_id": "DB-1"}, cash=tuple(
        _pieces(chips(d100=4))))  # fmt: skip
    found = {f.code: f for f in _judge(events)}
    # The first count is short 100: the box against the buy-ins, the win against the replay.
    assert set(found) == {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE", "ACC-COUNT-DISAGREE"}
    assert found["ACC-DROP-BUYINS"].at_stake == Decimal("100.00")
    assert found["ACC-WIN-VARIANCE"].at_stake == Decimal("100.00")
    assert found["ACC-WIN-VARIANCE"].severity is Severity.CRITICAL  # $100 or more: escalated
    assert found["ACC-WIN-VARIANCE"].rule == "PA 465a.36(b)"
    assert found["ACC-WIN-VARIANCE"].table_id == "PG-01"
    assert found["ACC-WIN-VARIANCE"].round_id is None
    # A variance is money at stake, never exposure, filed under its shift's gaming day.
    assert found["ACC-WIN-VARIANCE"].exposure == Decimal("0.00")
    assert {f.gaming_day for f in found.values()} == {"2026-11-21"}


def test_a_second_count_that_disagrees():
    events = [
        replace(e, **{"markers": Decimal("970.00")})
        if e.type_name() == "drop_counted" and (e.box_id, e.count) == ("DB-1", "second")
        else e
        for e in paper_day()
    ]
    (finding,) = _judge(events)
    assert (finding.code, finding.at_stake, finding.severity) == (
        "ACC-COUNT-DISAGREE", Decimal("30.00"), Severity.WARNING)  # fmt: skip


def test_an_unrecorded_fill_shows_as_win_variance_and_its_slip_as_a_gap():
    events = [e for e in paper_day() if e.type_name() != "fill_recorded"]
    # The chips still arrived: the closer holds 2,000 the slips do not explain.
    found = {f.code: f for f in _judge(events)}
    assert set(found) == {"ACC-WIN-VARIANCE"}
    assert found["ACC-WIN-VARIANCE"].at_stake == Decimal("2000.00")


def test_a_skipped_fill_number_is_a_gap_in_the_cage_series():
    events = paper_day()
    fill = next(e for e in events if e.type_name() == "fill_recorded")
    later = replace(fill, **{
        "event_id": fill.event_id.__class__(int=999, version=4), "slip_number": 90003,
        "chips": tuple(_pieces(chips(d25=0))),
    })  # fmt: skip
    (gap,) = _judge([*events, later])
    assert (gap.code, gap.table_id) == ("ACC-SLIP-GAP", CAGE)
    assert "fill slip 90002 never recorded" in gap.recorded


def test_a_reused_and_an_out_of_sequence_slip():
    events = paper_day()
    fill = next(e for e in events if e.type_name() == "fill_recorded")
    again = replace(fill, **{"event_id": fill.event_id.__class__(int=998, version=4)})
    codes = [f.code for f in _judge([*events, again])]
    assert codes == ["ACC-SLIP-REUSED"]
    lower = replace(fill, **{
        "event_id": fill.event_id.__class__(int=997, version=4), "slip_number": 89999,
        "chips": tuple(_pieces(chips(d25=0))),
    })  # fmt: skip
    codes = sorted(f.code for f in _judge([*events, lower]))
    assert codes == ["ACC-SLIP-GAP", "ACC-SLIP-SEQUENCE"]  # and 90000 is now missing


def test_an_opener_that_is_not_the_prior_closer():
    events = _edit("opener_recorded", {"shift": "swing"}, chips=tuple(
        _pieces(chips(d100=139, d25=29, d5=2))))  # fmt: skip
    found = {f.code: f for f in _judge(events)}
    assert found["ACC-OPENER-MISMATCH"].at_stake == Decimal("100.00")
    assert found["ACC-OPENER-MISMATCH"].rule == "PA 465a.37(f)"
    # Counted short, the swing shift's accounting win is 100 more than its rounds.
    assert found["ACC-WIN-VARIANCE"].at_stake == Decimal("100.00")


@pytest.mark.parametrize(("short", "severity"), [(25, None), (26, "warning"), (100, "critical")])
def test_thresholds_decide_whether_and_how_loudly(short, severity):
    # A marker in the box that no buy-in issued: the drop is over by ``short`` dollars.
    events = [
        replace(e, **{"markers": Decimal(short)}) if e.type_name() == "drop_counted"
        and e.box_id == "DB-9" else e
        for e in paper_day()
    ]  # fmt: skip
    found = [f for f in _judge(events) if f.code == "ACC-DROP-BUYINS"]
    assert [f.severity.value for f in found] == ([] if severity is None else [severity])


def test_the_thresholds_are_table_options():
    assert Thresholds.from_options({"variance_report_over": "5", "variance_escalate_at": "50"}) == (
        Thresholds(500, 5_000))  # fmt: skip
    assert Thresholds.from_options({"variance_report_over": "lots"}) == Thresholds()
    events = _edit("table_opened", {"table_id": "PG-02"},
                   options={"variance_report_over": "0"})  # fmt: skip
    events = [
        replace(e, **{"markers": Decimal("1.00")}) if e.type_name() == "drop_counted"
        and e.box_id == "DB-9" else e
        for e in events
    ]  # fmt: skip
    assert {f.code for f in _judge(events)} == {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE"}


def test_a_california_variance_cites_no_invented_section():
    events = [
        replace(e, **{"chips": Decimal("0.00")}) if e.type_name() == "drop_counted"
        and e.box_id == "DB-9" else e
        for e in paper_day()
    ]  # fmt: skip
    events = [replace(e, **{"markers": Decimal("50.00")}) if e.type_name() == "drop_counted"
              and e.box_id == "DB-9" else e for e in events]  # fmt: skip
    found = {f.code: f for f in _judge(events)}
    assert found["ACC-DROP-BUYINS"].rule.startswith("CA collection schedule")
    assert "section not held" in found["ACC-WIN-VARIANCE"].rule


def test_a_hold_far_outside_the_band_is_flagged_for_review():
    reconciler = Reconciler()
    for event in paper_day():
        reconciler.feed(event)
    ledger = next(iter(reconciler.ledgers.values()))
    # The house-banked wagers: expected to win nothing, a dollar's deviation, and won 100.
    ledger.band.expected, ledger.band.variance, ledger.band.observed = 0.0, 100.0**2, 10_000
    ledger.replay.wagers += 10_000
    (flag,) = reconciler._judge_band(ledger, "2026-11-21T20:00:00+00:00")
    assert (flag.code, flag.severity) == ("ACC-HOLD-BAND", Severity.INFO)
    assert (flag.at_stake, flag.exposure) == (0, 0)  # a prompt for review: no money went wrong
    ledger.band.observed = ledger.band.expected = 0.0
    ledger.replay.wagers -= 10_000
    assert reconciler._judge_band(ledger, "2026-11-21T20:00:00+00:00") == []


def _pieces(raw: list[dict]):
    from audit.events.accounting import DenominationCount

    return [DenominationCount(**piece) for piece in raw]
