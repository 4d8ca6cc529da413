"""The Pai Gow dealer's hooks: a careless dealer changes what is done or recorded, never a draw.

A plan that only records wrongly (a payout, a flag, a fee, a hand shown reversed) overrides a
hook of the clean steps, so its round draws exactly what the clean round draws: every event
keeps its id, ``seq`` and time, and only what it records differs. (Later rounds may part:
wrong money moves chips, and players wager from their chips.)
"""

from __future__ import annotations

import random

import pytest

from audit.simulation.irregularities import careless_shift, kind_named
from audit.simulation.paigow.dealer import RULES, Dealer
from audit.simulation.shift import ShiftConfig, simulate_shift

PA = (("pa-2019", 1.0),)
CALIFORNIA = (("california", 1.0),)
RECORD_ONLY = [
    ("few_shakes", PA),
    ("dice_total_miscalled", PA),
    ("no_roll_not_called", PA),
    ("unwagered_not_collected", PA),
    ("tile_set_tampered", PA),
    ("hand_misordered", PA),
    ("wrong_payout", PA),
    ("vigorish_short", PA),
    ("pair_fortunes_wrong", PA),
    ("bank_surplus_vigorish_kept", PA),
    ("co_bank_split_wrong", (("nj", 1.0),)),
    ("california_fee", CALIFORNIA),
]


def _first_round(events, round_ids):
    """Return each table's events up to the end of its first round in ``round_ids``, by seq."""
    by_seq = sorted(events, key=lambda e: (e.table_id, e.seq))
    first: dict[str, str] = {}
    for e in by_seq:
        if e.round_id in round_ids:
            first.setdefault(e.table_id, e.round_id)
    end = {
        e.table_id: e.seq for e in by_seq if e.table_id in first and first[e.table_id] == e.round_id
    }
    return [e for e in by_seq if e.table_id in end and e.seq <= end[e.table_id]]


def _stamps(events):
    """Each event's draws: its id, its place and its time, not what it records."""
    return [(e.table_id, e.seq, e.event_id, e.occurred_at, e.type) for e in events]


@pytest.mark.parametrize(("name", "mix"), RECORD_ONLY, ids=[name for name, _ in RECORD_ONLY])
def test_a_plan_that_records_wrongly_draws_what_the_clean_round_draws(name, mix):
    config = ShiftConfig(tables=2, rounds_per_table=40, rule_set_mix=mix)
    clean = list(simulate_shift(config, random.Random(11)))
    events, labels = careless_shift(
        config, random.Random(11), 1.0, kinds=(kind_named(name),), variances=False
    )
    careless = list(events)
    injected = {label.round_id for label in labels if label.kind == name}
    assert injected  # the plan was played, not skipped
    played, previewed = _first_round(careless, injected), _first_round(clean, injected)
    assert _stamps(played) == _stamps(previewed)
    assert played != previewed  # what was recorded differs


def test_the_rules_dealer_overrides_nothing():
    hooks = [name for name in vars(Dealer) if not name.startswith("_")]
    assert hooks
    assert all(getattr(type(RULES), hook) is getattr(Dealer, hook) for hook in hooks)
