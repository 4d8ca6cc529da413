"""Build a tampered shift (an overpaid winner, a missing event) and ingest it into a store."""

import random

from audit.events.catalogue import event_dict, parse_event
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.ingest import Accepted, Ingestor


def tampered_shift(seed=4):
    """A small shift in which the dealer overpays one winner and a table loses an event."""
    raw = [event_dict(e) for e in simulate_shift(ShiftConfig(3, 8), random.Random(seed))]
    winner = next(r for r in raw if r["type"] == "wager_settled" and r["outcome"] == "win")
    winner["paid"] = "999.00"
    del raw[40]  # a gap in one table's sequence
    return [parse_event(r) for r in raw], winner


def ingest(store, events, start=0):
    Ingestor(store).record_batch(
        [Accepted(e, "t") for e in events], "test", start + len(events) - 1
    )
