"""The fact store and ingest core, one suite run on SQLite and on real PostgreSQL."""

import sqlite3
import uuid
from contextlib import closing

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from audit.events.catalogue import parse_event
from audit.events.examples import EXAMPLES
from audit.facts.chain import GENESIS
from audit.store.aggregates import Table
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor, Rejected, Rejections
from audit.store.verify import verify_chain


def event(kind, seq, table="PG-01", round_id="PG-01-r1", **changes):
    data = {**EXAMPLES[kind], "seq": seq, "table_id": table, **changes}
    data["event_id"] = changes.get(
        "event_id", str(uuid.uuid5(uuid.NAMESPACE_URL, f"{table}/{seq}"))
    )
    if "round_id" in data:
        data["round_id"] = round_id
    return parse_event(data)


def opening(table="PG-01"):
    return [
        event("table_opened", 0, table),
        event("round_started", 1, table),
        event("wager_placed", 2, table),
        event("no_more_bets", 3, table),
    ]


def accept(events, origin="test"):
    return [Accepted(e, f"{origin}@{i}") for i, e in enumerate(events)]


def stored_types(store):
    return [f.fact["type"] for f in store.facts()]


def test_write_records_events_and_position_once(store_config):
    store = FactStore(store_config)
    table = Table(table_id="PG-01", gaming_day="2026-11-21")
    table.record("x", '{"type": "x", "table_id": "PG-01"}', "src", "0" * 64, "1" * 64)
    assert store.write(table.collect_events(), "table-events[0]", 41) == 2
    assert store.position("table-events[0]") == 41
    # The same position again writes nothing, whatever it carries: exactly once.
    again = Table(table_id="PG-02", gaming_day="2026-11-21")
    with pytest.raises(IntegrityError):
        store.write(again.collect_events(), "table-events[0]", 41)
    assert store.last_notification_id() == 2


def test_ingest_stores_every_fact_in_table_order(store_config):
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    result = ingestor.record_batch(accept(opening("PG-01") + opening("PG-02")), "file:a", 7)
    assert (result.stored, result.duplicates, result.observations) == (8, 0, 0)
    facts = list(store.facts())
    for table in ("PG-01", "PG-02"):
        assert [f.fact["seq"] for f in facts if f.fact["table_id"] == table] == [0, 1, 2, 3]
    assert ingestor.resume_position("file:a") == 8
    assert [f["type"] for f in store.round("PG-01", "PG-01-r1").facts] == [
        "round_started",
        "wager_placed",
        "no_more_bets",
    ]
    assert store.table_day("PG-01", "2026-11-21").facts[0]["type"] == "table_opened"


def test_exact_duplicate_is_dropped_and_reuse_is_kept_as_a_fact(store_config):
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    first = opening()
    ingestor.record_batch(accept(first), "s", 3)
    conflicting = event("no_more_bets", 4, event_id=str(first[3].event_id))
    result = ingestor.record_batch(accept([first[3], conflicting]), "s", 5)
    assert (result.stored, result.duplicates, result.observations) == (0, 1, 1)
    reused = [f.fact for f in store.facts() if f.fact["type"] == "event_id_reused"]
    assert len(reused) == 1
    assert reused[0]["reused_event_id"] == str(first[3].event_id)
    assert reused[0]["conflicting_event"]["seq"] == 4  # nothing is lost


def test_gap_and_reorder_are_recorded_as_facts(store_config):
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    events = opening()
    ingestor.record_batch(accept([events[0], events[1], events[3], events[2]]), "s", 3)
    gaps = [f.fact for f in store.facts() if f.fact["type"] == "sequence_gap_observed"]
    assert [(g["expected_seq"], g["observed_seq"]) for g in gaps] == [(2, 3), (4, 2)]
    assert stored_types(store).count("wager_placed") == 1  # the late event is still stored


def test_rejections_are_kept_with_their_reason(store_config):
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    bad = Rejected(b'{"type": "nonsense"}', "table-events[0]@9", "unknown event type 'nonsense'")
    result = ingestor.record_batch([bad], "table-events[0]", 9)
    assert result.rejected == 1
    rejections = store.repository.get(Rejections.create_id("table-events[0]"))
    assert rejections.count == 1
    assert ingestor.resume_position("table-events[0]") == 10


def test_a_restarted_ingestor_continues_sequence_dedupe_and_chain(store_config):
    store = FactStore(store_config)
    events = opening()
    Ingestor(store).record_batch(accept(events[:2]), "s", 1)
    restarted = Ingestor(FactStore(store_config))
    result = restarted.record_batch(accept(events[1:]), "s", 3)
    assert (result.stored, result.duplicates, result.observations) == (2, 1, 0)
    assert verify_chain(restarted.store).ok


def test_a_failed_batch_writes_nothing(store_config):
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    ingestor.record_batch(accept(opening()[:2]), "s", 1)
    with pytest.raises(IntegrityError):
        ingestor.record_batch(accept(opening()[2:]), "s", 1)  # position 1 again
    assert stored_types(store) == ["table_opened", "round_started"]
    result = ingestor.record_batch(accept(opening()[2:]), "s", 3)
    assert result.stored == 2
    assert verify_chain(store).ok


def _raw_connection(config: StoreConfig):
    if config.sqlite_path is not None:
        return closing(sqlite3.connect(config.sqlite_path))
    assert config.postgres_url is not None
    return psycopg.connect(config.postgres_url, autocommit=True)


def test_stored_events_cannot_be_updated_or_deleted(store_config):
    store = FactStore(store_config)
    Ingestor(store).record_batch(accept(opening()), "s", 3)
    table = store.events_table
    for statement in (f"UPDATE {table} SET originator_version = 99", f"DELETE FROM {table}"):
        with _raw_connection(store_config) as conn, pytest.raises(Exception, match="immutable"):
            conn.execute(statement)
    assert len(list(store.facts())) == 4


def _tamper(config: StoreConfig, table: str, statement: str) -> None:
    """Change rows behind the application's back, as an intruder with owner rights would."""
    with _raw_connection(config) as conn:
        if config.sqlite_path is not None:
            conn.execute(f"DROP TRIGGER {table}_no_update")
            conn.execute(f"DROP TRIGGER {table}_no_delete")
            conn.execute(statement)
            conn.commit()
        else:
            conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            conn.execute(statement)
            conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


def _state_column_update(store: FactStore, notification_id: int, old: str, new: str) -> str:
    table = store.events_table
    if store.is_postgres:
        return (
            f"UPDATE {table} SET state = convert_to(replace(convert_from(state, 'UTF8'),"
            f" '{old}', '{new}'), 'UTF8') WHERE notification_id = {notification_id}"
        )
    return (
        f"UPDATE {table} SET state = CAST(replace(CAST(state AS TEXT), '{old}', '{new}') AS BLOB)"
        f" WHERE rowid = {notification_id}"
    )


def test_verify_chain_catches_an_altered_amount(store_config):
    store = FactStore(store_config)
    Ingestor(store).record_batch(accept(opening()), "s", 3)
    assert verify_chain(store).ok
    wager = next(f for f in store.facts() if f.fact["type"] == "wager_placed")
    update = _state_column_update(store, wager.notification_id, "25.00", "2500.00")
    _tamper(store_config, store.events_table, update)
    report = verify_chain(FactStore(store_config))
    assert not report.ok
    assert any("wager_placed, seq 2" in p and "altered" in p for p in report.problems)


def test_verify_chain_catches_a_deleted_fact(store_config):
    store = FactStore(store_config)
    Ingestor(store).record_batch(accept(opening()), "s", 3)
    middle = next(f for f in store.facts() if f.fact["type"] == "wager_placed")
    id_column = "notification_id" if store.is_postgres else "rowid"
    delete = f"DELETE FROM {store.events_table} WHERE {id_column} = {middle.notification_id}"
    _tamper(store_config, store.events_table, delete)
    report = verify_chain(FactStore(store_config))
    assert any("missing or reordered" in p for p in report.problems)
    assert any("jumps from version" in p for p in report.problems)


def test_the_chain_follows_arrival_order_across_table_and_round_facts(store_config):
    """A table-level fact between round facts of one batch keeps its place in the chain."""
    store = FactStore(store_config)
    mixed = [
        event("table_opened", 0),
        event("round_started", 1),
        event("dealer_changed", 2),
        event("wager_placed", 3),
        event("table_closed", 4),
    ]
    Ingestor(store).record_batch(accept(mixed), "s", 4)
    assert [f.fact["seq"] for f in store.facts()] == [0, 1, 2, 3, 4]
    assert verify_chain(store).ok


def test_a_late_fact_for_a_round_no_longer_cached_continues_its_aggregate(
    store_config, monkeypatch
):
    """The ingest keeps only recent aggregates' versions; an older one is read from the store."""
    monkeypatch.setattr("audit.store.ingest._MAX_CACHED_VERSIONS", 1)
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    events = [
        *opening(),
        event("round_started", 4, round_id="PG-01-r2"),
        event("round_started", 5, round_id="PG-01-r3"),
    ]
    ingestor.record_batch(accept(events), "s", 5)
    late = event("no_more_bets", 6)  # round r1 again
    result = ingestor.record_batch(accept([late]), "s", 6)
    assert result.stored == 1
    assert [f["seq"] for f in store.round("PG-01", "PG-01-r1").facts] == [1, 2, 3, 6]
    assert verify_chain(store).ok


def test_rejections_continue_their_aggregate_after_a_restart(store_config):
    store = FactStore(store_config)
    bad = Rejected(b"{", "table-events[0]@0", "not JSON")
    Ingestor(store).record_batch([bad], "table-events[0]", 0)
    again = Rejected(b"[", "table-events[0]@1", "not JSON")
    Ingestor(FactStore(store_config)).record_batch([again], "table-events[0]", 1)
    assert store.repository.get(Rejections.create_id("table-events[0]")).count == 2


def test_a_restart_finds_a_sources_rejection_head_from_its_newest_not_its_history(store_config):
    """#16: a source's rejections are one stream, years long; an ingest starting again reads
    its newest rejection for the version and chain head, and chains on from them."""
    source = "table-events[0]"
    for batch in range(3):
        bad = [Rejected(b"{" * (n + 1), f"{source}@{batch * 40 + n}", "not JSON")
               for n in range(40)]  # fmt: skip
        Ingestor(FactStore(store_config)).record_batch(bad, source, batch * 40 + 39)
    restarted = Ingestor(FactStore(store_config))
    restarted.record_batch([Rejected(b"[", f"{source}@120", "not JSON")], source, 120)
    assert restarted.rejections_read == 1
    report = verify_chain(FactStore(store_config))
    assert report.problems == ["no facts stored: an empty store proves nothing"]  # only that
    assert report.rejection_counts[source] == 121


def test_rejections_stored_before_the_chain_are_passed_over_to_chain_from_genesis(store_config):
    """A source whose stored rejections predate the chain (no link): the next one is linked
    from GENESIS after them, as loading them all would have done."""
    store, source = FactStore(store_config), "old-source"
    old = Rejections(source=source)
    for n in range(3):  # as rejections were stored before they were chained
        old.trigger_event(Rejections.MessageRejected, origin=f"{source}@{n}", reason="not JSON",
                          size=1, raw_base64="ew==")  # fmt: skip
    store.save(old)
    ingestor = Ingestor(FactStore(store_config))
    ingestor.record_batch([Rejected(b"{", f"{source}@3", "not JSON")], source, 3)
    assert ingestor.rejections_read == 4  # the three and the stream's creation
    newest = next(iter(store.events.get(Rejections.create_id(source), desc=True, limit=1)))
    assert (newest.originator_version, newest.chain_prev) == (5, GENESIS)
    report = verify_chain(FactStore(store_config))
    assert report.problems == ["no facts stored: an empty store proves nothing"]  # only that
    assert report.rejection_heads[source] == newest.chain_hash


def test_facts_of_reads_what_every_fact_read_holds_and_counts_a_rounds_facts(store_config, shift):
    """``facts_of`` reads the four fields from the stored state (not eventsourcing's decode of
    the whole event, #16): the same StoredFacts as ``facts``; ``fact_count`` is the round's."""
    from audit.store.aggregates import round_aggregate_id, table_day_id
    from tests.builders.alerts import ingest

    store = FactStore(store_config)
    ingest(store, shift)
    everything = list(store.facts())
    first = next(e for e in map(parse_event, (f.fact_json for f in everything)) if e.round_id)
    ids = {round_aggregate_id(first.table_id, first.round_id),
           table_day_id(first.table_id, str(first.occurred_at.date()))}  # fmt: skip
    wanted = [f for f in everything if f.aggregate_id in ids]
    assert len(wanted) > 10
    assert list(store.facts_of(ids, batch=7)) == wanted  # across pages too
    assert list(store.facts_of(ids, start=wanted[3].notification_id)) == wanted[3:]
    round_id = round_aggregate_id(first.table_id, first.round_id)
    assert store.fact_count(round_id) == len(store.round(first.table_id, first.round_id).fact_jsons)
    assert store.fact_count(round_aggregate_id(first.table_id, "no-such-round")) == 0
