"""A simulated 21 Baccarat shift is clean: its rounds, shoes and settlements raise no finding."""

import random

import pytest

from audit.simulation.accounting import keep_books
from audit.simulation.baccarat21.shift import baccarat_table_events, set_up_baccarat_table
from audit.simulation.baccarat21.table import Rates
from audit.simulation.shift import ShiftConfig
from audit.verification.baccarat21.verify import StreamVerifier
from audit.verification.stream import as_stored


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_simulated_rounds_are_clean(seed):
    config = ShiftConfig(shifts=2)
    rng = random.Random(seed)
    rates = Rates(face_up_card=0.01, floorperson_reshuffle=0.02)  # the rare, often
    tables = [
        set_up_baccarat_table(n, config, random.Random(rng.getrandbits(64)), rates)
        for n in (1, 5, 9)
    ]
    keep_books(tables, config.shifts, 250)
    verifier = StreamVerifier()
    kinds = set()
    for table in tables:
        for event in as_stored(baccarat_table_events(table, 250)):
            kinds.add(event.type)
            assert verifier.feed(event) == [], event
    assert verifier.finish() == []
    assert verifier.open_rounds == {}
    assert {"cover_card_appeared", "card_found_face_up", "dealer_changed"} <= kinds
