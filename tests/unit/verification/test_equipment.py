"""The equipment screens: dice totals, starting positions and 21 Baccarat shoes over windows,
tenure, and a loaded shaker found at a realistic volume while fair ones stay silent."""

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from audit.findings.finding import Severity
from audit.games.paigow.layout import PA_NJ_LAYOUT, starting_position
from audit.simulation.frequencies import Frequencies
from audit.simulation.irregularities import loaded_dice_labels
from audit.simulation.paigow.loaded_dice import InvalidLoadError, LoadedDice
from audit.simulation.scoring import score, verify_for_scoring
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.verification.chi_squared import DICE_TOTALS, FAIR_3D6
from audit.verification.equipment import SCREEN_KINDS, EquipmentScreens, screen_finding

DICE_ONLY = Frequencies(rng_table=0.0)  # every table counts with the dice
MIXED = (("paigow", 0.75), ("baccarat21", 0.25))


def run(events, confidence=0.9999):
    screens = EquipmentScreens(confidence)
    results, tenures = [], []
    for event in events:
        found, ended = screens.feed(event)
        results += found
        tenures += ended
    return screens, results, tenures


@pytest.fixture(scope="module")
def mixed_floor():
    return list(simulate_shift(ShiftConfig(4, 200, games=MIXED), random.Random(12)))


def test_every_window_closes_once_and_counts_every_flat_throw(mixed_floor):
    screens, results, _ = run(mixed_floor)
    assert screens.windows == {}  # every table closed: every window judged
    assert screens.dealer_tables == {}
    flat = {}
    for e in mixed_floor:
        if e.type_name() == "dice_revealed" and e.all_flat and e.all_in_shaker:
            flat[e.table_id] = flat.get(e.table_id, 0) + 1
    by_screen = {}
    for r in results:
        by_screen.setdefault(r.window.screen, []).append(r.window)
    assert {w.table_id: w.n for w in by_screen["dice-table"]} == flat
    for screen in ("dice-set", "dice-dealer"):
        assert sum(w.n for w in by_screen[screen]) == sum(flat.values()), screen
    assert {w.subject.split()[0] for w in by_screen["b21-shoe"]} == {
        e.table_id for e in mixed_floor if e.type_name() == "shoe_loaded"
    }
    for r in results:
        assert sum(r.window.expected) == pytest.approx(r.window.n)
        assert r.window.closed_at is not None
        assert r.window.first_event
        assert not r.alarm  # a clean floor


def test_dice_sets_close_when_new_dice_go_in(mixed_floor):
    _, results, tenures = run(mixed_floor)
    sets = [r.window for r in results if r.window.screen == "dice-set"]
    placed = [e for e in mixed_floor if e.type_name() == "dice_placed_in_shaker"]
    assert len(sets) == len({(e.table_id, e.dice_set_id) for e in placed}) - sum(
        1 for w in sets if w.n == 0
    )
    dice = [t for t in tenures if t.equipment == "dice"]
    assert len(dice) == len(placed)
    assert {t.ended_by for t in dice} <= {"dice_placed_in_shaker", "table_closed"}


def test_tenure_counts_every_round_of_each_table(mixed_floor):
    _, _, tenures = run(mixed_floor)
    rounds = {}
    for e in mixed_floor:
        if e.type_name() == "round_completed":
            rounds[e.table_id] = rounds.get(e.table_id, 0) + 1
    for equipment, game in (("tile set", "PG-"), ("dice", "PG-"), ("shoe", "B21")):
        mine = [t for t in tenures if t.equipment == equipment]
        assert mine, equipment
        per_table = {}
        for t in mine:
            per_table[t.table_id] = per_table.get(t.table_id, 0) + t.rounds
            assert t.since <= t.until
            assert t.minutes >= 0
        assert per_table == {k: v for k, v in rounds.items() if k.startswith(game)}, equipment


def test_the_expected_starting_positions_follow_fair_dice():
    # PA 621a.6(c): from the dealer, a count of 9 or 17 comes back to the dealer: 28/216.
    chances = [Fraction(0)] * 8
    for total, chance in zip(DICE_TOTALS, FAIR_3D6, strict=True):
        chances[starting_position(total, PA_NJ_LAYOUT)] += chance
    assert chances[PA_NJ_LAYOUT.dealer] == Fraction(28, 216)
    assert sorted(chances) == sorted(Fraction(k, 216) for k in (28, 28, 28, 28, 27, 27, 25, 25))


def test_start_windows_expect_what_each_round_could_give(mixed_floor):
    _, results, _ = run(mixed_floor)
    starts = [r for r in results if r.window.screen == "start-dealer"]
    assert starts
    for r in starts:
        assert r.window.dealer_id == r.window.subject
        assert all(e >= 0 for e in r.window.expected)
        assert r.fit is None or r.fit.p_value > 1e-4


def test_a_loaded_shaker_is_found_and_fair_ones_stay_silent():
    config = ShiftConfig(5, 1_000, frequencies=DICE_ONLY, loaded_dice_tables=2)
    events = list(simulate_shift(config, random.Random(21)))
    labels = loaded_dice_labels(config, random.Random(21))
    loaded = {label.table_id for label in labels}
    assert len(loaded) == 2
    findings = [f for f in verify_for_scoring(events) if f.code in SCREEN_KINDS]
    dice = [f for f in findings if f.code == "STAT-DICE-TOTALS"]
    assert {f.table_id for f in dice} == loaded  # and none at the three fair tables
    for table in loaded:  # the table's day, its dice sets' and its dealers' days all stray
        titles = " ".join(f.title for f in dice if f.table_id == table)
        assert f"(table {table}," in titles
        assert "(set " in titles
        assert "(dealer " in titles
    assert {f.table_id for f in findings} <= loaded
    f = dice[0]
    assert (f.severity, f.round_id, f.position) == (Severity.WARNING, None, None)
    assert f.rule.startswith(("PA 621a.2(d)", "NJ 19:47-10.3(a)", "CA "))
    assert "chi-squared" in f.recorded
    report = score(findings, labels)
    assert report.codes["STAT-DICE-TOTALS"].recall == 1.0
    assert report.codes["STAT-DICE-TOTALS"].fp == 0


def test_a_loaded_shaker_with_little_play_is_not_judged_on_chance():
    # 25 rounds: too few throws for the 16 cells, pooled to few; this load does not show.
    config = ShiftConfig(2, 25, frequencies=DICE_ONLY, loaded_dice_tables=1,
                         loaded_dice=LoadedDice(weight=0.05))  # fmt: skip
    _, results, _ = run(simulate_shift(config, random.Random(3)))
    assert results
    assert not any(r.alarm for r in results)
    assert any(r.fit is not None and r.fit.df < 15 for r in results)


def test_an_alarm_becomes_a_finding_with_the_counts():
    config = ShiftConfig(1, 600, frequencies=DICE_ONLY, loaded_dice_tables=1,
                         loaded_dice=LoadedDice(weight=0.5))  # fmt: skip
    _, results, _ = run(simulate_shift(config, random.Random(5)))
    table = next(r for r in results if r.window.screen == "dice-table")
    assert table.alarm
    finding = screen_finding(table)
    assert finding.code == "STAT-DICE-TOTALS"
    assert finding.recorded.startswith(f"{table.window.n} counted (3:")
    assert "18:" in finding.recorded
    assert finding.event_ids == (table.window.first_event, table.window.last_event)
    assert (
        finding.finding_id
        != screen_finding(next(r for r in results if r.window.screen == "dice-dealer")).finding_id
    )


def test_a_bad_load_is_refused():
    for bad in (dict(face=7), dict(weight=0.0), dict(weight=1.5)):
        with pytest.raises(InvalidLoadError):
            LoadedDice(**bad)
    assert replace(LoadedDice(), weight=1.0).weight == 1.0


def test_a_round_left_open_is_forgotten_when_its_table_closes(mixed_floor):
    dropped = next(i for i, e in enumerate(mixed_floor) if e.type_name() == "round_completed")
    screens, _, _ = run(mixed_floor[:dropped] + mixed_floor[dropped + 1 :])
    assert screens.rounds == {}
