"""The collusion screens (audit/verification/collusion/): each alarms on its injected pattern,
stays silent on a clean floor, and keeps only its windows' state (issue #21.2)."""

import math
import random
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from audit.findings.finding import Money, Severity
from audit.floor.verify import verify_floor
from audit.simulation.collusion import Collusion
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.collusion.kinds import (
    BANK_WALK,
    COLLUSION_KINDS,
    ERROR_BENEFIT,
    PAIR_RECURS,
    PAIR_RESULTS,
)
from audit.verification.collusion.screens import CollusionScreens
from audit.verification.collusion.tails import binomial_upper, normal_upper
from audit.verification.stream import as_stored


def injected(tables, rounds, seed, *patterns):
    events, labels = careless_shift(
        ShiftConfig(tables, rounds), random.Random(seed), 0.0, collusion=Collusion.parse(patterns)
    )
    return list(events), labels


def screened(events, confidence=0.9999):
    screens = CollusionScreens(confidence)
    found = [f for event in events for f in screens.feed(event)]
    return found + screens.finish(), screens


def table_labels(labels):
    return {(label.table_id, label.codes[0]) for label in labels if label.round_id is None}


def test_binomial_tail_matches_the_sum_of_its_terms():
    for k, n, q in [(3, 10, 0.2), (7, 12, 0.5), (1, 1, 0.9), (5, 40, 0.03)]:
        exact = sum(math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in range(k, n + 1))
        assert binomial_upper(k, n, q) == pytest.approx(exact, rel=1e-9)


def test_normal_tail_is_exact_far_out():
    assert normal_upper(0.0) == pytest.approx(0.5)
    assert normal_upper(8.0) == pytest.approx(6.22096e-16, rel=1e-4)  # 1 - cdf would give 0


def test_a_dealer_stacking_the_deal_for_a_player_is_found():
    events, labels = injected(2, 120, 3, "pair_results=1")
    found, _ = screened(events)
    alarms = [f for f in found if f.code == PAIR_RESULTS]
    assert {(f.table_id, f.code) for f in alarms} == table_labels(labels)
    alarm = alarms[0]
    assert alarm.severity is Severity.WARNING
    assert alarm.rule.endswith("(statistical screen)")
    assert alarm.player_id
    assert alarm.dealer_id
    assert alarm.gaming_day == "2026-11-21"
    assert alarm.exposure > 0
    assert alarm.at_stake == 0
    assert "rounds " + alarm.table_id in alarm.recorded  # the evidence rounds


def test_a_dealers_errors_going_to_one_player_are_found():
    events, labels = injected(2, 100, 3, "error_benefit=1")
    found = list(verify_floor(as_stored(events)))
    alarms = [f for f in found if f.code == ERROR_BENEFIT]
    assert {(f.table_id, f.code) for f in alarms} == table_labels(labels)
    errors = [f for f in found if f.code == "PG-SETTLE-VIG-UNCOLLECTED"]
    assert len(errors) >= 3
    assert {f.player_id for f in errors} == {alarms[0].player_id}
    assert alarms[0].exposure == sum((f.at_stake for f in errors), Decimal(0))


def test_chips_walking_through_the_bank_are_found():
    events, labels = injected(2, 150, 3, "bank_walk=1")
    found, _ = screened(events)
    alarms = [f for f in found if f.code == BANK_WALK]
    assert {(f.table_id, f.code) for f in alarms} == table_labels(labels)
    assert alarms[0].dealer_id is None  # players' business: no dealer in it


def test_a_player_following_a_roaming_dealer_is_found():
    events, labels = injected(40, 2, 3, "pair_recurs=1")
    found, _ = screened(events)
    alarms = [f for f in found if f.code == PAIR_RECURS]
    assert {(f.table_id, f.code) for f in alarms} == table_labels(labels)
    assert (alarms[0].dealer_id, alarms[0].player_id) == ("dealer-roam-01", "player-follow-01")


def test_a_clean_floor_raises_no_collusion_alarm_though_its_windows_are_tested():
    events = list(simulate_shift(ShiftConfig(6, 80), random.Random(5)))
    found, screens = screened(events)
    assert [f for f in found if f.code in COLLUSION_KINDS] == []
    assert screens.tested[PAIR_RESULTS] > 0
    assert screens.tested[BANK_WALK] > 0
    everything, _ = screened(events, confidence=0.0)  # p < 1: every window tested alarms
    assert len(everything) == screens.tested[PAIR_RESULTS] + screens.tested[BANK_WALK]


def test_the_kinds_are_warnings_with_exposure():
    for kind in COLLUSION_KINDS.values():
        assert (kind.severity, kind.money, kind.rule_key) == (
            Severity.WARNING, Money.EXPOSURE, "statistical-screen",
        )  # fmt: skip


def _day(day: date, seed: int):
    start = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
    return list(simulate_shift(ShiftConfig(2, 3, start=start), random.Random(seed)))


def test_closed_days_retire_and_the_recurrence_window_keeps_only_its_days():
    screens = CollusionScreens(recurrence_days=2)
    for offset, seed in ((1, 1), (2, 2), (3, 3), (4, 4)):
        for event in _day(date(2026, 11, offset), seed):
            screens.feed(event)
        assert screens.days == {}  # every table closed: the day's sums are gone
        assert sorted(screens.recent) == [
            date(2026, 11, d).isoformat() for d in range(max(1, offset - 1), offset + 1)
        ]
        assert all(not day.pairs and not day.flows for day in screens.recent.values())


def test_a_day_whose_table_never_closed_is_retired_two_days_on():
    screens = CollusionScreens()
    first = _day(date(2026, 11, 1), 1)
    left_open = first[0].table_id
    for event in first:
        if event.type != "table_closed" or event.table_id != left_open:
            screens.feed(event)
    assert list(screens.days) == ["2026-11-01"]
    for event in _day(date(2026, 11, 3), 2)[:1]:
        screens.feed(event)
    assert "2026-11-01" not in screens.days
    assert "2026-11-01" in screens.recent
