"""The simulator's books against the reconciliation: clean shifts agree to the cent, and every
injected variance is found with its amount."""

from __future__ import annotations

import random
from collections import defaultdict
from decimal import Decimal

import pytest

from audit.accounting.controls import ACCOUNTING_KINDS
from audit.accounting.reconcile import Reconciler
from audit.games.money import to_cents
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.simulation.accounting import keep_books
from audit.simulation.count_room import closing_time, count_room
from audit.simulation.irregularities import careless_shift, kind_named
from audit.simulation.scoring import score, verify_for_scoring
from audit.simulation.shift import ShiftConfig, set_up_floor, simulate_shift, table_events


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_clean_day_reconciles_to_the_cent_and_matches_the_engine(seed):
    config = ShiftConfig(tables=8, rounds_per_table=60, shifts=2)
    rng = random.Random(seed)
    tables = set_up_floor(config, rng)
    books = keep_books(tables, config.shifts, config.rounds_per_table)
    reconciler = Reconciler()
    for table in tables:
        for event in table_events(table, config.rounds_per_table):
            assert reconciler.feed(event) == []
    for event in count_room(books, random.Random(seed), closing_time(tables), None):
        findings = [f for f in reconciler.feed(event) if f.code != "ACC-HOLD-BAND"]
        assert findings == []
    assert reconciler.slip_gaps() == []
    replayed: dict[str, int] = defaultdict(int)
    for key, ledger in reconciler.ledgers.items():
        assert ledger.accounting_win is not None, key
        assert ledger.accounting_win == ledger.replay.total, key
        replayed[key.table_id] += ledger.replay.total
    assert {key.shift for key in reconciler.ledgers} == {"day", "swing"}
    # The rounds' events, read by the reconciliation, move exactly what the engine settled.
    assert replayed == {book.table.table_id: book.engine_win for book in books}


def test_every_injected_variance_is_found_with_no_false_alarm():
    config = ShiftConfig(tables=12, rounds_per_table=40, shifts=2)
    events, labels = careless_shift(config, random.Random(8), 0.5, kinds=())
    played = list(events)
    variance_labels = [label for label in labels if label.round_id is None]
    assert {label.kind for label in variance_labels} >= {
        "short_drop", "count_mismatch", "chips_missing", "fill_unrecorded",
    }  # fmt: skip
    report = score(verify_for_scoring(played), labels)
    assert report.perfect, report.lines()
    accounting = [c for c in report.codes if c.startswith("ACC-")]
    assert {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE", "ACC-COUNT-DISAGREE"} <= set(accounting)
    # The books' mishaps inject exactly the accounting kinds the catalogue marks injectable.
    injected = {code for label in variance_labels for code in label.codes}
    assert injected == {code for code, kind in ACCOUNTING_KINDS.items() if kind.injectable}


def test_an_injected_short_drop_is_found_at_its_amount():
    config = ShiftConfig(tables=20, rounds_per_table=20, shifts=1)
    events, labels = careless_shift(config, random.Random(5), 1.0, kinds=())
    played = list(events)
    shorts = {label.table_id for label in labels if label.kind == "short_drop"}
    assert shorts
    counted = {e.for_table_id: e for e in played if e.type_name() == "drop_counted"
               and e.count == "first"}  # fmt: skip
    bought = defaultdict(Decimal)
    for e in played:
        if e.type_name() == "buy_in_recorded":
            bought[e.table_id] += e.amount
    for finding in verify_for_scoring(played):
        if finding.code == "ACC-DROP-BUYINS":
            assert finding.table_id in shorts
            box = counted[finding.table_id]
            fees = sum((e.amount for e in played if e.type_name() == "collection_fee_taken"
                        and e.table_id == finding.table_id), Decimal(0))  # fmt: skip
            assert finding.at_stake == bought[finding.table_id] + fees - box.amount
            assert finding.at_stake in {Decimal(n * bill) for n in (1, 2, 3) for bill in (50, 100)}


def test_uncollected_vigorish_is_its_own_line_and_no_variance():
    config = ShiftConfig(tables=6, rounds_per_table=40, rule_set_mix=(("pa-2019", 1.0),))
    events, labels = careless_shift(
        config, random.Random(12), 0.3, kinds=(kind_named("vigorish_uncollected"),),
        variances=False,
    )  # fmt: skip
    played = list(events)
    assert labels
    reconciler = Reconciler()
    found = [f for e in played for f in reconciler.feed(e)]
    assert not [f for f in found if f.code != "ACC-HOLD-BAND"]  # the tray never got it
    labelled = {(label.table_id, label.round_id) for label in labels}
    rounding = {e.table_id: e.options.get("vig_rounding", "cent") for e in played
                if e.type_name() == "table_opened"}  # fmt: skip
    owed = sum(
        vigorish(to_cents(e.paid), VigRounding(rounding[e.table_id]))
        for e in played
        if e.type_name() == "wager_settled" and (e.table_id, e.round_id) in labelled
        and e.outcome == "win" and e.kind.value == "pai_gow" and not e.vigorish
    )  # fmt: skip
    uncollected = sum(ledger.replay.vigorish_uncollected for ledger in reconciler.ledgers.values())
    assert uncollected == owed > 0


def test_the_hold_band_is_calibrated_on_clean_floors_of_both_games():
    """Over clean table-shifts the replayed win sits a standard normal's distance from the
    band's centre: the band neither cries wolf nor sleeps."""
    import math
    import statistics

    scores = []
    for seed in range(3):
        games = (("paigow", 0.5), ("baccarat21", 0.5))
        config = ShiftConfig(tables=12, rounds_per_table=100, shifts=2, games=games)
        reconciler = Reconciler()
        for event in simulate_shift(config, random.Random(seed)):
            reconciler.feed(event)
        for ledger in reconciler.ledgers.values():
            band = ledger.band
            if band.variance > 0:
                scores.append((band.observed - band.expected) / math.sqrt(band.variance))
    assert len(scores) >= 60  # both games keep a band
    assert abs(statistics.mean(scores)) < 0.35
    assert 0.75 < statistics.pstdev(scores) < 1.3
