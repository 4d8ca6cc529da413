"""The ingest's state in the database: a restart reads a row per table, never the history.

One suite, run on SQLite and on real PostgreSQL (``store_config``).
"""

import random
import sqlite3
import uuid
from contextlib import closing

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from audit.events.catalogue import event_dict, parse_event
from audit.events.envelope import Event
from audit.facts.chain import digest
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor, check
from audit.store.ingest_state import EVENT_IDS_TABLE, HEADS_TABLE, IngestState
from audit.store.verify import verify_chain

BATCH = 50


def shift(tables: int, rounds: int, seed: int = 5) -> list[Event]:
    return list(simulate_shift(ShiftConfig(tables, rounds), random.Random(seed)))


def ingest(ingestor: Ingestor, events: list[Event], source: str = "s", start: int = 0) -> int:
    """Record ``events`` in batches from position ``start``; return the next position."""
    for first in range(0, len(events), BATCH):
        batch = events[first : first + BATCH]
        ingestor.record_batch([Accepted(e, "t") for e in batch], source, start + len(batch) - 1)
        start += len(batch)
    return start


def copy(event: Event, **changes) -> Event:
    """Return ``event`` with ``changes``; the same ``event_id`` unless one is given."""
    return parse_event({**event_dict(event), **changes})


def fresh(event: Event, **changes) -> Event:
    """Return ``event`` with ``changes`` under a new ``event_id``."""
    return copy(event, event_id=str(uuid.uuid5(event.event_id, repr(changes))), **changes)


class Reads:
    """Count what a store reads: rows from the state tables, and any walk over the facts."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.state_rows = 0
        self.fact_walks = 0
        rows, facts = IngestState._rows, FactStore.facts

        def counted_rows(state, statement, params=()):
            found = rows(state, statement, params)
            self.state_rows += len(found)
            return found

        def counted_facts(store, *args, **kwargs):
            self.fact_walks += 1
            return facts(store, *args, **kwargs)

        monkeypatch.setattr(IngestState, "_rows", counted_rows)
        monkeypatch.setattr(FactStore, "facts", counted_facts)


def _sql(config: StoreConfig, statement: str) -> None:
    if config.sqlite_path is not None:
        with closing(sqlite3.connect(config.sqlite_path)) as conn:
            conn.execute(statement)
            conn.commit()
    else:
        assert config.postgres_url is not None
        with psycopg.connect(config.postgres_url, autocommit=True) as conn:
            conn.execute(statement)


@pytest.mark.parametrize("rounds", [4, 16])
def test_a_restart_reads_one_row_per_table_whatever_the_history(store_config, monkeypatch, rounds):
    events = shift(tables=3, rounds=rounds)
    tables = len({e.table_id for e in events})  # the pit's tables and the count room
    ingest(Ingestor(FactStore(store_config)), events)
    reads = Reads(monkeypatch)
    restarted = Ingestor(FactStore(store_config))
    assert (reads.fact_walks, reads.state_rows, restarted.migrated_facts) == (0, tables, 0)
    assert restarted.tables == tables
    restarted.recover()
    assert (reads.fact_walks, reads.state_rows) == (0, 2 * tables)


def test_a_duplicate_from_long_ago_is_dropped_after_a_restart(store_config):
    events = shift(tables=2, rounds=12)
    position = ingest(Ingestor(FactStore(store_config)), events)
    restarted = Ingestor(FactStore(store_config))
    again = [Accepted(events[0], "t"), Accepted(events[len(events) // 2], "t")]
    result = restarted.record_batch(again, "s", position)
    assert (result.stored, result.duplicates, result.observations) == (0, 2, 0)
    # And within one run, long after its batch committed.
    result = restarted.record_batch([Accepted(events[1], "t")], "s", position + 1)
    assert result.duplicates == 1
    assert verify_chain(restarted.store).ok


def test_a_reused_id_from_long_ago_is_kept_as_a_fact_after_a_restart(store_config):
    events = shift(tables=2, rounds=8)
    position = ingest(Ingestor(FactStore(store_config)), events)
    store = FactStore(store_config)
    first = events[3]
    table_last = max(e.seq for e in events if e.table_id == first.table_id)
    conflicting = copy(first, seq=table_last + 1, recorded_by="someone-else")
    result = Ingestor(store).record_batch([Accepted(conflicting, "t")], "s", position)
    assert (result.stored, result.duplicates, result.observations) == (0, 0, 1)
    reused = [f.fact for f in store.facts() if f.fact["type"] == "event_id_reused"]
    assert len(reused) == 1
    assert reused[0]["reused_event_id"] == str(first.event_id)
    assert reused[0]["first_digest"] == check(first, "t").digest
    assert reused[0]["conflicting_digest"] == digest(check(conflicting, "t").text)
    # The reused id's seq arrived: the table's next event is in order.
    last = max((e for e in events if e.table_id == first.table_id), key=lambda e: e.seq)
    following = fresh(last, seq=table_last + 2)
    result = Ingestor(store).record_batch([Accepted(following, "t")], "s", position + 1)
    assert (result.stored, result.observations) == (1, 0)


def test_gaps_are_observed_against_the_stored_head_after_a_restart(store_config):
    events = shift(tables=1, rounds=3)
    position = ingest(Ingestor(FactStore(store_config)), events)
    store = FactStore(store_config)
    last = events[-1]
    skipped = fresh(last, seq=last.seq + 2)
    late = fresh(last, seq=last.seq + 1)
    Ingestor(store).record_batch([Accepted(skipped, "t")], "s", position)
    Ingestor(FactStore(store_config)).record_batch([Accepted(late, "t")], "s", position + 1)
    gaps = [f.fact for f in store.facts() if f.fact["type"] == "sequence_gap_observed"]
    assert [(g["expected_seq"], g["observed_seq"]) for g in gaps] == [
        (last.seq + 1, last.seq + 2),
        (last.seq + 3, last.seq + 1),
    ]
    assert verify_chain(store).ok


def test_a_failed_batch_leaves_the_state_tables_as_they_were(store_config):
    events = shift(tables=2, rounds=3)
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    position = ingest(ingestor, events[:-4])
    before = store.ingest_state.heads()
    with pytest.raises(IntegrityError):
        ingestor.record_batch([Accepted(e, "t") for e in events[-4:]], "s", position - 1)
    assert store.ingest_state.heads() == before
    assert (
        store.ingest_state.look_up([(str(e.event_id), e.table_id) for e in events[-4:]], []).digests
        == {}
    )
    result = ingestor.record_batch([Accepted(e, "t") for e in events[-4:]], "s", position)
    assert (result.stored, result.duplicates, result.observations) == (4, 0, 0)
    assert verify_chain(store).ok


def test_a_store_from_before_the_state_tables_is_migrated_once(store_config, monkeypatch):
    events = shift(tables=3, rounds=6)
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    position = ingest(ingestor, events)
    # History the migration must read as the live ingest judged it: a gap and a reused id.
    last = events[-1]
    gap = fresh(last, seq=last.seq + 2)
    first = next(e for e in events if e.table_id == last.table_id)
    reused = copy(first, seq=last.seq + 3, recorded_by="someone-else")
    ingestor.record_batch([Accepted(gap, "t"), Accepted(reused, "t")], "s", position)
    heads = sorted(store.ingest_state.heads(), key=lambda head: head.table_id)
    facts = len(list(store.facts()))
    # What a store written by the version before them looks like: facts, no state tables.
    _sql(store_config, f"DROP TABLE {EVENT_IDS_TABLE}")
    _sql(store_config, f"DROP TABLE {HEADS_TABLE}")

    reads = Reads(monkeypatch)
    migrated = Ingestor(FactStore(store_config))
    assert (reads.fact_walks, migrated.migrated_facts) == (1, facts)
    assert sorted(migrated.store.ingest_state.heads(), key=lambda head: head.table_id) == heads
    result = migrated.record_batch(
        [Accepted(events[5], "t"), Accepted(copy(events[7], seq=999), "t")], "s", position + 1
    )
    assert (result.stored, result.duplicates, result.observations) == (0, 1, 1)
    assert verify_chain(migrated.store).ok

    again = Ingestor(FactStore(store_config))
    assert (reads.fact_walks, again.migrated_facts) == (1, 0)


def test_a_migration_cut_short_is_run_again_to_the_same_state(store_config):
    events = shift(tables=2, rounds=4)
    store = FactStore(store_config)
    ingest(Ingestor(store), events)
    heads = sorted(store.ingest_state.heads(), key=lambda head: head.table_id)
    _sql(store_config, f"DELETE FROM {HEADS_TABLE}")
    # Ids written but no heads: as a crash between the migration's transactions leaves it.
    restarted = Ingestor(FactStore(store_config))
    assert restarted.migrated_facts == len(list(store.facts()))
    assert sorted(store.ingest_state.heads(), key=lambda head: head.table_id) == heads


def test_batches_prepared_before_a_commit_see_its_ids_and_after_it_the_database(store_config):
    events = shift(tables=2, rounds=2)
    ingestor = Ingestor(FactStore(store_config))
    first = ingestor.prepare([Accepted(e, "t") for e in events[:10]], "s", 9)
    # Prepared while the first is still to commit, as the Kafka loop does: 5 repeats.
    second = ingestor.prepare([Accepted(e, "t") for e in events[5:15]], "s", 19)
    assert (ingestor.commit(first).stored, ingestor.commit(second).duplicates) == (10, 5)
    third = ingestor.prepare([Accepted(e, "t") for e in events[:3]], "s", 20)
    assert ingestor.commit(third).duplicates == 3
    assert verify_chain(ingestor.store).ok


def test_one_polls_batches_are_prepared_together_with_repeats_across_them(store_config):
    events = shift(tables=2, rounds=2)
    ingestor = Ingestor(FactStore(store_config))
    prepared = ingestor.prepare_all(
        [
            ([Accepted(e, "t") for e in events[:20]], "p[0]", 19),
            ([Accepted(e, "t") for e in events[15:30]], "p[1]", 14),
        ]
    )
    results = [ingestor.commit(batch) for batch in prepared]
    assert [(r.stored, r.duplicates) for r in results] == [(20, 0), (10, 5)]
    assert (ingestor.resume_position("p[0]"), ingestor.resume_position("p[1]")) == (20, 15)
    assert verify_chain(ingestor.store).ok


def test_the_look_up_probes_the_index_on_a_table_never_analysed(pg_url):
    """A plain ``event_id = ANY(...)`` of a batch's ids is planned as a scan of the whole
    table while it has no statistics (a new or migrated store), a cost that grows with
    history; the look-up must stay one index probe per id."""
    store = FactStore(StoreConfig.postgres(pg_url))
    state = store.ingest_state
    rows = [(str(uuid.uuid4()), f"PG-{i % 40:02d}", "0" * 64) for i in range(100_000)]
    for start in range(0, len(rows), 10_000):
        state.write_ids(rows[start : start + 10_000])
    probes = [(event_id, table_id) for event_id, table_id, _ in rows[::200]]
    ids, tables = zip(*probes, strict=True)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        plan = "\n".join(
            row[0]
            for row in conn.execute(
                "EXPLAIN " + state._look_up_sql, (",".join(ids), ",".join(tables), "")
            )
        )
    assert f"Seq Scan on {EVENT_IDS_TABLE}" not in plan, plan
    assert f"Index Scan using {EVENT_IDS_TABLE}_pkey" in plan, plan
    assert len(state.look_up(probes, []).digests) == len(probes)


def test_rounds_never_completed_leave_at_most_a_caches_ids_and_their_facts_land_rightly(
    store_config, monkeypatch
):
    """#16: a round's aggregate id is kept worked out until it completes; rounds cut off
    (never completed) would stay for the process's life. The cache empties when full, and
    every fact still goes to its round's aggregate."""
    import audit.store.ingest as ingest_module

    monkeypatch.setattr(ingest_module, "_MAX_CACHED_ROUND_IDS", 3)
    events = shift(2, 6)
    cut_off = [e for e in events if e.type_name() != "round_completed"]
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    ingest(ingestor, cut_off)
    assert ingestor.round_ids_held <= 3
    for event in cut_off:
        if event.round_id is not None:
            recorded = {f["seq"] for f in store.round(event.table_id, event.round_id).facts}
            assert event.seq in recorded
    assert verify_chain(store).ok
