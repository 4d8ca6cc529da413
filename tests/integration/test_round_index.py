"""The round index: each round's table, found without reading the store, on both databases."""

from __future__ import annotations

import random

import pytest

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from consumers.replay_cli import find_table
from projections.round_index import RoundIndexProjection


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_every_started_round_is_indexed_at_its_table_once(store_config):
    events = list(simulate_shift(ShiftConfig(3, 4, games=(("paigow", 0.6), ("baccarat21", 0.4))),
                                 random.Random(5)))  # fmt: skip
    store = FactStore(store_config)
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", 0)
    index = RoundIndexProjection(store)
    assert index.catch_up() == len({(e.table_id, e.round_id) for e in events if e.round_id})
    assert RoundIndexProjection(store).catch_up() == 0  # exactly once
    for event in events:
        if event.type_name() == "round_started":
            assert index.view.tables_of(event.round_id) == [event.table_id]
            assert find_table(store, event.round_id) == event.table_id
    assert index.view.tables_of("no-such-round") == []
