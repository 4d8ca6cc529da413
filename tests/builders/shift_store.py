"""A small store of a careless shift, ingested and with every read model caught up."""

import random
from pathlib import Path

from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from consumers.serve import Service

TABLES, ROUNDS, SHIFTS, SEED, RATE = 4, 24, 2, 2033, 0.15
"""Seed 2033 gives round irregularities and accounting variances (fills, counts) alike."""


def careless_store(path: Path) -> tuple[FactStore, list]:
    """Return a store of a seeded careless shift (views caught up) and its labels."""
    config = ShiftConfig(tables=TABLES, rounds_per_table=ROUNDS, shifts=SHIFTS)
    stream, labels = careless_shift(config, random.Random(SEED), RATE)
    events = list(stream)
    store = FactStore(StoreConfig.sqlite(path))
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", len(events) - 1)
    Service(store).run_pass()
    return store, labels
