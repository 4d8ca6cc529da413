"""Tamper evidence to the last fact: each tampering done for real, behind the store's back.

Every test changes rows directly, with the immutability triggers out of the way
as the tables' owner (or a superuser) can, then runs ``tablewatch verify-chain``
as a person would: with the heads filed by ``tablewatch heads export`` before the
tampering, and where the chain alone can show it, without them.
"""

import json
import sqlite3
import uuid
from contextlib import closing
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from audit.events.catalogue import parse_event
from audit.events.examples import EXAMPLES
from audit.facts.chain import GENESIS, LINK_FACT_ONLY, digest, fact_link, link
from audit.facts.heads import KEY_VARIABLE
from audit.facts.sequencing import fact_json
from audit.store.aggregates import FactRecorded, Table
from audit.store.application import FactStore, StoreConfig
from audit.store.encoding import fact_recorded
from audit.store.ingest import Accepted, Ingestor, Rejected, Rejections
from audit.store.ingest_state import HEADS_TABLE
from audit.store.verify import verify_chain
from consumers.cli import main

KEY = "a filing key of some length"


def event(kind, seq, table):
    data = {**EXAMPLES[kind], "seq": seq, "table_id": table}
    data["event_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{table}/{seq}"))
    if "round_id" in data:
        data["round_id"] = f"{table}-r1"
    return parse_event(data)


def opening(table, start=0):
    kinds = ["table_opened", "round_started", "wager_placed", "no_more_bets"]
    return [
        Accepted(event(kind, start + i, table), f"s@{start + i}") for i, kind in enumerate(kinds)
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def config(request, tmp_path, monkeypatch) -> StoreConfig:
    """A store the CLI opens too: the environment names it, and the heads key."""
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    if request.param == "sqlite":
        monkeypatch.delenv("DATABASE_URL", raising=False)
        return StoreConfig.sqlite(tmp_path / "data" / "tablewatch.sqlite")
    url = request.getfixturevalue("pg_url")
    monkeypatch.setenv("DATABASE_URL", url)
    return StoreConfig.postgres(url)


@pytest.fixture
def filed(config, tmp_path, capsys):
    """Two tables and a source's rejections stored, verified, and their heads filed."""
    ingestor = Ingestor(FactStore(config))
    ingestor.record_batch(opening("PG-01") + opening("PG-02"), "s", 7)
    ingestor.record_batch([Rejected(b"{no", "s@8", "not JSON")], "s", 8)
    ingestor.record_batch(opening("PG-01", start=4), "s", 12)
    ingestor.record_batch([Rejected(b"[]", "s@13", "not an object")], "s", 13)
    path = tmp_path / "heads.json"
    assert main(["heads", "export", "--out", str(path)]) == 0
    capsys.readouterr()
    return path


def _connect(config: StoreConfig):
    if config.sqlite_path is not None:
        return closing(sqlite3.connect(config.sqlite_path, isolation_level=None))
    assert config.postgres_url is not None
    return psycopg.connect(config.postgres_url, autocommit=True)


def _id_column(config):
    return "rowid" if config.sqlite_path is not None else "notification_id"


def _tamper(config: StoreConfig, *statements) -> None:
    """Run statements with the triggers out of the way, as an owner or superuser can."""
    store_table = "stored_events" if config.sqlite_path is not None else "tablewatch_events"
    sqlite = config.sqlite_path is not None
    with _connect(config) as conn:
        if sqlite:
            conn.execute(f"DROP TRIGGER {store_table}_no_update")
            conn.execute(f"DROP TRIGGER {store_table}_no_delete")
        else:
            conn.execute(f"ALTER TABLE {store_table} DISABLE TRIGGER USER")
        for statement, *params in statements:
            conn.execute(statement.replace("%s", "?") if sqlite else statement, *params)
        if not sqlite:
            conn.execute(f"ALTER TABLE {store_table} ENABLE TRIGGER USER")
    # Opening the store again puts SQLite's triggers back: the rows stay as tampered.
    FactStore(config)


def _events_table(config):
    return "stored_events" if config.sqlite_path is not None else "tablewatch_events"


def _facts(config, table):
    store = FactStore(config)
    return [f for f in store.facts() if f.fact["table_id"] == table]


def _verify(capsys, *args):
    status = main(["verify-chain", *args])
    out = capsys.readouterr().out
    return status, [line for line in out.splitlines() if line.startswith("BROKEN: ")]


def _set_state_head(config, table, head):
    return (f"UPDATE {HEADS_TABLE} SET chain_head = %s WHERE table_id = %s", (head, table))


def test_untouched_store_verifies_with_and_without_the_filed_heads(config, filed, capsys):
    assert _verify(capsys) == (0, [])
    assert _verify(capsys, "--heads", str(filed)) == (0, [])
    document = json.loads(filed.read_text())
    assert document["tables"]["PG-01"]["count"] == 8
    assert document["rejections"]["s"]["count"] == 2
    assert KEY not in filed.read_text()


def test_a_deleted_tail_is_caught(config, filed, capsys):
    facts = _facts(config, "PG-01")
    newest = ", ".join(str(f.notification_id) for f in facts[-2:])
    delete = f"DELETE FROM {_events_table(config)} WHERE {_id_column(config)} IN ({newest})"
    _tamper(config, (delete,))
    status, problems = _verify(capsys)  # the ingest's state still names the old head
    assert status == 1
    assert problems == [
        f"BROKEN: table PG-01: the chain ends at {facts[-3].chain_hash[:12]}, but the ingest "
        f"recorded {facts[-1].chain_hash[:12]}: facts were deleted or added behind its back"
    ]
    # An intruder who also moves the ingest's state back is caught by the filed heads.
    _tamper(config, _set_state_head(config, "PG-01", facts[-3].chain_hash))
    assert _verify(capsys) == (0, [])
    status, problems = _verify(capsys, "--heads", str(filed))
    assert status == 1
    assert (
        "BROKEN: table PG-01: 6 record(s) stored, 8 filed: its newest records were deleted"
        in problems
    )


def test_a_deleted_stream_is_caught(config, filed, capsys):
    facts = _facts(config, "PG-02")
    aggregates = sorted({f.aggregate_id for f in facts})
    column = "originator_id"
    ids = [a.hex if config.sqlite_path is not None else str(a) for a in aggregates]
    marks = ", ".join("%s" for _ in ids)
    _tamper(config, (f"DELETE FROM {_events_table(config)} WHERE {column} IN ({marks})", ids))
    status, problems = _verify(capsys)
    assert status == 1
    assert any(
        "table PG-02: the ingest recorded its chain head" in p and "stream was deleted" in p
        for p in problems
    )
    _tamper(config, (f"DELETE FROM {HEADS_TABLE} WHERE table_id = %s", ("PG-02",)))
    assert _verify(capsys) == (0, [])
    status, problems = _verify(capsys, "--heads", str(filed))
    assert status == 1
    assert problems == [
        "BROKEN: table PG-02: 4 record(s) filed, none stored: its stream was deleted"
    ]


def _rechain(config, table, edit):
    """Edit a table's first fact and re-link every fact after it, as a thorough intruder would."""
    store = FactStore(config)
    updates = []
    head = GENESIS
    for stored in _facts(config, table):
        event = store.mapper.to_domain_event(
            next(n for n in store.process_recorder.select_notifications(stored.notification_id, 1))
        )
        assert isinstance(event, FactRecorded)
        text = edit(event.fact_json) if head == GENESIS else event.fact_json
        stamp = event.timestamp.isoformat()
        new = fact_link(head, str(event.originator_id), event.originator_version, stamp,
                        event.fact_type, event.source, digest(text))  # fmt: skip
        encoded = fact_recorded(event.originator_id, event.originator_version, stamp,
                                event.fact_type, text, event.source, head, new)  # fmt: skip
        updates.append(
            (f"UPDATE {_events_table(config)} SET state = %s WHERE {_id_column(config)} = %s",
             (encoded.state, stored.notification_id))
        )  # fmt: skip
        head = new
    return [*updates, _set_state_head(config, table, head)]


def test_a_rechained_history_is_caught_by_the_filed_heads(config, filed, capsys):
    _tamper(config, *_rechain(config, "PG-01", lambda text: text.replace('"seq":0', '"seq":0 ')))
    assert _verify(capsys) == (0, [])  # every link holds: only the filed head can tell
    status, problems = _verify(capsys, "--heads", str(filed))
    assert status == 1
    assert len(problems) == 1
    assert problems[0].startswith("BROKEN: table PG-01: record 8 is no longer the filed one")
    assert problems[0].endswith("its history was rewritten and re-chained")


def test_a_forged_fact_appended_with_a_valid_link_is_caught(config, filed, capsys):
    store = FactStore(config)
    last = _facts(config, "PG-01")[-1]
    text = json.dumps({**last.fact, "seq": 99})
    stamp = datetime.now(UTC).isoformat()
    forged = fact_link(last.chain_hash, str(last.aggregate_id), last.version + 1, stamp,
                       last.fact["type"], "s@99", digest(text))  # fmt: skip
    row = fact_recorded(last.aggregate_id, last.version + 1, stamp, last.fact["type"], text,
                        "s@99", last.chain_hash, forged)  # fmt: skip
    originator = (
        row.originator_id.hex if store.config.sqlite_path is not None else row.originator_id
    )
    _tamper(
        config,
        (f"INSERT INTO {_events_table(config)} (originator_id, originator_version, topic, state)"
         " VALUES (%s, %s, %s, %s)", (originator, row.originator_version, row.topic, row.state)),
    )  # fmt: skip
    status, problems = _verify(capsys)
    assert status == 1
    assert problems == [
        f"BROKEN: table PG-01: the chain ends at {forged[:12]}, but the ingest recorded "
        f"{last.chain_hash[:12]}: facts were deleted or added behind its back"
    ]


@pytest.mark.parametrize(
    ("field", "old", "new"),
    [
        ("time", None, None),
        ("source", '"source":"s@2"', '"source":"s@9"'),
        ("type", '"fact_type":"wager_placed"', '"fact_type":"no_more_bets"'),
    ],
)
def test_a_changed_time_source_or_type_breaks_the_link(config, filed, capsys, field, old, new):
    wager = next(f for f in _facts(config, "PG-01") if f.fact["type"] == "wager_placed")
    store = FactStore(config)
    state = store.process_recorder.select_notifications(wager.notification_id, 1)[0].state.decode()
    if field == "time":
        stamp = json.loads(state)["timestamp"]["_data_"]
        old, new = stamp, (datetime.fromisoformat(stamp) - timedelta(hours=1)).isoformat()
    assert old in state
    update = f"UPDATE {_events_table(config)} SET state = %s WHERE {_id_column(config)} = %s"
    _tamper(config, (update, (state.replace(old, new).encode(), wager.notification_id)))
    status, problems = _verify(capsys)
    assert status == 1
    assert len(problems) == 1
    assert problems[0].startswith(
        f"BROKEN: table PG-01: fact at notification {wager.notification_id}"
    )
    assert problems[0].endswith("does not match its link: its stored fields were altered")


def test_an_altered_or_deleted_rejection_is_caught(config, filed, capsys):
    store = FactStore(config)
    rejection_id = Rejections.create_id("s")
    rows = store.process_recorder.select_events(rejection_id)
    first, last = rows[1], rows[2]  # after the aggregate's creation
    altered = first.state.decode().replace("not JSON", "not JSON at all").encode()
    where = "originator_id = %s AND originator_version = %s"
    key = rejection_id.hex if config.sqlite_path is not None else rejection_id
    update = f"UPDATE {_events_table(config)} SET state = %s WHERE {where}"
    _tamper(config, (update, (altered, key, first.originator_version)))
    status, problems = _verify(capsys)
    assert status == 1
    assert any(
        p.startswith("BROKEN: rejections of s: rejection at")
        and p.endswith("its stored fields were altered")
        for p in problems
    )
    _tamper(config, (update, (first.state, key, first.originator_version)))
    assert _verify(capsys) == (0, [])
    delete = f"DELETE FROM {_events_table(config)} WHERE {where}"
    _tamper(config, (delete, (key, last.originator_version)))
    status, problems = _verify(capsys, "--heads", str(filed))
    assert status == 1
    assert (
        "BROKEN: rejections of s: 1 record(s) stored, 2 filed: its newest records were deleted"
        in problems
    )


def test_a_heads_file_edited_or_checked_with_another_key_is_refused(
    config, filed, capsys, monkeypatch
):
    document = json.loads(filed.read_text())
    document["tables"]["PG-01"]["count"] = 6
    edited = filed.with_name("edited.json")
    edited.write_text(json.dumps(document))
    assert main(["verify-chain", "--heads", str(edited)]) == 2
    err = capsys.readouterr().err
    assert "signature does not verify" in err
    assert err.count("\n") == 1
    monkeypatch.setenv(KEY_VARIABLE, "another key, just as long")
    assert main(["verify-chain", "--heads", str(filed)]) == 2
    assert "signature does not verify" in capsys.readouterr().err
    monkeypatch.delenv(KEY_VARIABLE)
    assert main(["heads", "export"]) == 2
    assert (
        capsys.readouterr().err
        == f"tablewatch: {KEY_VARIABLE} is not set: the heads file is signed with it\n"
    )


def test_a_broken_store_gets_no_heads_filed(config, filed, capsys):
    facts = _facts(config, "PG-02")
    update = f"UPDATE {_events_table(config)} SET state = %s WHERE {_id_column(config)} = %s"
    store = FactStore(config)
    state = store.process_recorder.select_notifications(facts[1].notification_id, 1)[0].state
    _tamper(config, (update, (state.replace(b"PG-02-r1", b"PG-02-r2"), facts[1].notification_id)))
    assert main(["heads", "export", "--out", str(filed)]) == 1
    assert "heads not exported" in capsys.readouterr().err
    assert json.loads(filed.read_text())["tables"]["PG-02"]["count"] == 4  # the filed copy stays


def test_an_empty_store_never_passes(config, capsys):
    if config.sqlite_path is not None:
        assert main(["verify-chain"]) == 2
        assert capsys.readouterr().err == f"tablewatch: no store at {str(config.sqlite_path)!r}\n"
        assert not config.sqlite_path.parent.exists()  # nothing was created
    FactStore(config)
    status, problems = _verify(capsys)
    assert (status, problems) == (1, ["BROKEN: no facts stored: an empty store proves nothing"])


def test_old_format_facts_still_verify_and_the_chain_goes_on_in_the_new(config, capsys):
    """A store chained the old way (fact JSON only) verifies, and new facts follow in format 2."""
    store = FactStore(config)
    table = Table(table_id="PG-01", gaming_day="2026-11-21")
    head = GENESIS
    old = [event(kind, seq, "PG-01") for seq, kind in enumerate(["table_opened", "dealer_changed"])]
    for each in old:
        text = fact_json(each)
        new = link(head, digest(text))
        table.record(each.type_name(), text, "old", head, new, chain_version=LINK_FACT_ONLY)
        head = new
    # Stored as before the link format was named: no chain_version in the state at all.
    stored = [store.mapper.to_stored_event(each) for each in table.collect_events()]
    stored = [
        StoredEvent(s.originator_id, s.originator_version, s.topic,
                    s.state.replace(b',"chain_version":1', b""))
        for s in stored
    ]  # fmt: skip
    assert sum(b"chain_version" in s.state for s in stored) == 0
    store.write_stored(stored, "old", 1)
    ingestor = Ingestor(FactStore(config))  # builds its state from the old facts
    ingestor.record_batch(opening("PG-01", start=1)[1:], "s", 5)
    versions = [f.chain_version for f in _events(store) if isinstance(f, FactRecorded)]
    assert versions == [1, 1, 2, 2, 2]
    assert _verify(capsys) == (0, [])
    assert verify_chain(FactStore(config)).counts == {"PG-01": 5}


def _events(store):
    return [
        store.mapper.to_domain_event(n) for n in store.process_recorder.select_notifications(1, 100)
    ]


def test_a_fact_passed_off_as_the_old_link_format_is_caught(config, filed, capsys):
    """Relabelled format 1 (JSON only), a fact's time could change unseen: the fall back shows."""
    store = FactStore(config)
    last = _facts(config, "PG-01")[-1]
    notification = store.process_recorder.select_notifications(last.notification_id, 1)[0]
    event = store.mapper.to_domain_event(notification)
    earlier = (event.timestamp - timedelta(hours=1)).isoformat()
    old_link = link(event.chain_prev, digest(event.fact_json))
    row = fact_recorded(event.originator_id, event.originator_version, earlier, event.fact_type,
                        event.fact_json, event.source, event.chain_prev, old_link,
                        chain_version=LINK_FACT_ONLY)  # fmt: skip
    update = f"UPDATE {_events_table(config)} SET state = %s WHERE {_id_column(config)} = %s"
    _tamper(
        config,
        (update, (row.state, last.notification_id)),
        _set_state_head(config, "PG-01", old_link),
    )
    status, problems = _verify(capsys)
    assert status == 1
    assert problems == [
        f"BROKEN: table PG-01: fact at notification {last.notification_id} falls back to "
        "link format 1 after format 2"
    ]


def test_a_hole_in_an_aggregate_the_walk_no_longer_holds_is_caught_as_before(config, filed):
    """#16: the walk holds the versions of the aggregates seen lately only (every round is an
    aggregate); one it dropped is looked up in the store, and a hole there is reported as the
    walk that held every aggregate reports it."""
    store = FactStore(config)
    facts = [f for f in store.facts() if f.fact["table_id"] == "PG-01"]
    second_start = next(
        f for f in facts if f.fact["type"] == "round_started" and f.fact["seq"] == 5
    )
    delete = (f"DELETE FROM {_events_table(config)} "
              f"WHERE {_id_column(config)} = {second_start.notification_id}")  # fmt: skip
    _tamper(config, (delete,))
    store = FactStore(config)
    holding_all = verify_chain(store)
    holding_one = verify_chain(store, held=1)
    assert holding_one.problems == holding_all.problems
    assert any("jumps from version" in problem for problem in holding_one.problems)
    assert holding_all.versions_looked_up == 0
    assert holding_one.versions_looked_up > 0
    assert holding_one.most_aggregates_held <= 2 < holding_all.most_aggregates_held


def test_an_untouched_store_verifies_holding_one_aggregate(config, filed):
    store = FactStore(config)
    holding_one = verify_chain(store, held=1)
    assert holding_one.ok, holding_one.problems
    assert holding_one.versions_looked_up > 0
    assert holding_one.most_aggregates_held <= 2
    assert holding_one.heads == verify_chain(store).heads


def _alter_source(config, fact) -> None:
    store = FactStore(config)
    state = store.process_recorder.select_notifications(fact.notification_id, 1)[0].state
    update = f"UPDATE {_events_table(config)} SET state = %s WHERE {_id_column(config)} = %s"
    altered = state.decode().replace(f'"source":"{fact.source}"', '"source":"forged"')
    assert altered != state.decode()
    _tamper(config, (update, (altered.encode(), fact.notification_id)))


def test_a_walk_goes_on_with_what_was_stored_since_and_a_new_walk_proves_it_all(config, filed):
    """#16: a walk's later run reads only the events stored since, catching an edit among
    them; an edit of an event it walked before is for a new walk (the console starts one a
    day) to catch."""
    from audit.store.verify import ChainWalk

    walk = ChainWalk(FactStore(config))
    first = walk.advance()
    assert first.ok, first.problems
    Ingestor(FactStore(config)).record_batch(opening("PG-02", start=4), "s", 20)
    newest = _facts(config, "PG-02")[-1]
    _alter_source(config, newest)
    later = walk.advance()
    assert walk.read_last == 4  # the four events stored since, not the store
    assert [p for p in later.problems if "does not match its link" in p] == [
        f"table PG-02: fact at notification {newest.notification_id} ({newest.fact['type']}, "
        f"seq {newest.fact['seq']}) does not match its link: its stored fields were altered"
    ]
    assert later.problems == verify_chain(FactStore(config)).problems
    _alter_source(config, _facts(config, "PG-01")[0])  # walked before
    assert walk.advance().problems == later.problems  # nothing new read: not seen here
    assert len(verify_chain(FactStore(config)).problems) == len(later.problems) + 1
