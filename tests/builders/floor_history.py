"""Several gaming days of the same tables, played by careless dealers, for the tests of costs
flat in history (issue #16): a table's context and its money carry from day to day."""

import json
import random
from datetime import UTC, datetime, timedelta

from audit.events.catalogue import event_json, parse_event
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from projections.findings import FindingsProjection
from projections.round_index import RoundIndexProjection

START = datetime(2026, 11, 21, 20, tzinfo=UTC)


def floor_day(day, *, tables=4, rounds=6, rate=0.3):
    """One gaming day of the same tables every day (renamed: the simulation draws numbers)."""
    config = ShiftConfig(
        tables, rounds, start=START + timedelta(days=day), shifts=2,
        games=(("paigow", 0.5), ("baccarat21", 0.5)),
    )  # fmt: skip
    events, _ = careless_shift(config, random.Random(1000 + day), rate)
    events = list(events)
    names: dict[str, str] = {}
    for table_id in sorted({e.table_id for e in events}):
        prefix = table_id.split("-")[0]
        same_game = sum(1 for name in names.values() if name.startswith(prefix))
        names[table_id] = f"{prefix}-T{same_game}"
    renamed = []
    for event in events:
        changes = {"table_id": names.get(event.table_id, event.table_id)}
        counted = getattr(event, "for_table_id", None)  # the count room names the table
        if counted is not None:
            changes["for_table_id"] = names.get(counted, counted)
        renamed.append(_with(event, **changes))
    return renamed


def _with(event, **changes):
    return parse_event(json.dumps({**json.loads(event_json(event)), **changes}))


def history(days, *, rounds=6):
    """Return the days' events in order, each table's seq running on from the day before."""
    next_seq: dict[str, int] = {}
    found = []
    for day in days:
        ends: dict[str, int] = {}
        for event in floor_day(day, rounds=rounds):
            seq = event.seq + next_seq.get(event.table_id, 0)
            ends[event.table_id] = max(seq, ends.get(event.table_id, -1))
            found.append(_with(event, seq=seq))
        next_seq.update((table, seq + 1) for table, seq in ends.items())
    return found


BATCH = 500
"""Events a test writes per transaction: the ingest's default batch. (One transaction of a
whole history, tens of megabytes, used to hang on PostgreSQL: psycopg left the part of the
batch one flush could not send unsent while it waited for the server's reply, the server
waiting for the rest (pg_stat_activity: active, ClientRead). The store now sends it all:
``send_pipeline`` in ``audit/store/ingest_state.py``.)"""


def store_days(config, days, *, rounds=6, projections=(FindingsProjection, RoundIndexProjection)):
    """Ingest the days (``rounds`` a day at each table) into a store and bring the
    projections up to date with it."""
    store = FactStore(config)
    events = history(days, rounds=rounds)
    ingestor = Ingestor(store)
    for start in range(0, len(events), BATCH):  # batches the size an ingest writes
        batch = events[start : start + BATCH]
        ingestor.record_batch([Accepted(e, "t") for e in batch], "days", start + len(batch) - 1)
    for projection in projections:
        projection(store).catch_up()
    return store
