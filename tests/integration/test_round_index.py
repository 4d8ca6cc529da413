"""The round index: each round's table, found without reading the store, on both databases."""

from __future__ import annotations

import random
import uuid
from dataclasses import replace

import pytest

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
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


def test_a_round_never_started_is_indexed_in_each_context_it_has_facts_in(tmp_path):
    events = list(simulate_shift(ShiftConfig(1, 3), random.Random(8)))
    table = events[0].table_id
    reopened = next(e for e in events if e.type_name() == "table_opened")
    late = next(e for e in events if e.round_id and e.type_name() != "round_started")
    unstarted = [
        e for e in events if e.round_id != late.round_id or e.type_name() != "round_started"
    ]
    # The table opens again and the round gets one more fact (the same fact under a new id).
    again = [replace(reopened, event_id=uuid.uuid4(), seq=len(events)),
             replace(late, event_id=uuid.uuid4(), seq=len(events) + 1)]  # fmt: skip
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    Ingestor(store).record_batch([Accepted(e, "t") for e in [*unstarted, *again]], "test", 0)
    index = RoundIndexProjection(store)
    index.catch_up()
    assert find_table(store, late.round_id) == table  # no round_started: found all the same
    first, second = index.view.contexts_of(table, late.round_id)
    assert 0 < first < second
    assert index.view.rounds_in(table, second, second) == [late.round_id]
    assert len(index.view.rounds_in(table, first, first)) == 3
