"""The bytes each fact arrived as: stored beside it in the batch's transaction, read back
byte for byte (``tablewatch fact EVENT_ID --raw``), and held by the hash chain.

Real broker, real SQLite and PostgreSQL stores.
"""

import hashlib
import json
import sqlite3
import uuid
from contextlib import closing
from dataclasses import replace

import psycopg
import pytest

from audit.events.examples import EXAMPLES
from audit.facts.chain import LINK_RECEIVED
from audit.facts.received import RECEIVED_TABLE
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from audit.store.verify import verify_chain
from consumers.cli import main
from consumers.ingest import file_source, ingest_file
from consumers.kafka_ingest import consume
from consumers.kafka_io import ensure_topics, flush, make_producer, publish
from consumers.settings import Settings
from consumers.wiring import SQLITE_FILE


def event(seq: int, **changes) -> dict:
    kind = "table_opened" if seq == 0 else "no_more_bets"
    return {**EXAMPLES[kind], "table_id": "PG-07", "seq": seq, "event_id": str(uuid.uuid4()),
            **changes}  # fmt: skip


def odd_messages() -> list[bytes]:
    """Valid events in spellings the catalogue's stored JSON does not keep."""
    crlf = json.dumps(event(3), indent=3).replace("\n", "\r\n")
    return [
        json.dumps(event(0, recorded_by="croupière-Ζ 7"), ensure_ascii=False).encode(),
        b" \t" + json.dumps(event(1, recorded_by="dealer\u00e9")).encode() + b"  \t ",
        json.dumps(dict(reversed(event(2).items())), separators=(",", ":")).encode(),
        crlf.encode() + b"\r\n",
        json.dumps(event(4, recorded_by="\u6e05\u6c34 \U0001f004")).encode("utf-8") + b"\n",
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def cli_store(request, tmp_path, monkeypatch) -> StoreConfig:
    """A store where the command line finds it, in each database."""
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    if request.param == "sqlite":
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
        return StoreConfig.sqlite(tmp_path / SQLITE_FILE)
    url = request.getfixturevalue("pg_url")
    monkeypatch.setenv("DATABASE_URL", url)
    return StoreConfig.postgres(url)


def raw_of(event_id: str, capsysbinary, *args: str) -> bytes:
    capsysbinary.readouterr()
    assert main(["fact", event_id, "--raw", *args]) == 0
    return capsysbinary.readouterr().out


def received_rows(config: StoreConfig) -> int:
    if config.sqlite_path is not None:
        with closing(sqlite3.connect(config.sqlite_path)) as conn:
            row = conn.execute(f"SELECT count(*) FROM {RECEIVED_TABLE}").fetchone()
            assert row is not None
            return row[0]
    assert config.postgres_url is not None
    with psycopg.connect(config.postgres_url) as conn:
        row = conn.execute(f"SELECT count(*) FROM {RECEIVED_TABLE}").fetchone()
        assert row is not None
        return row[0]


def test_kafka_values_come_back_byte_for_byte_and_are_chained(
    cli_store, kafka_bootstrap, capsysbinary
):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = replace(Settings(), events_topic=topic, dlq_topic=f"{topic}.dlq", partitions=1,
                       poll_timeout_ms=200)  # fmt: skip
    ensure_topics(kafka_bootstrap, {topic: 1, settings.dlq_topic: 1})
    messages = odd_messages()
    repeat = messages[2]  # an exact repeat: dropped, so no second copy of its bytes
    gap = json.dumps(event(9)).encode()  # seq 5-8 missing: a gap observation, which has none
    with make_producer(kafka_bootstrap) as producer:
        for value in [*messages, repeat, gap]:
            publish(producer, topic, b"PG-07", value)
        flush(producer)
    store = FactStore(cli_store)
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)
    assert (summary.stored, summary.duplicates, summary.observations) == (6, 1, 1)
    assert received_rows(cli_store) == 6

    for value in [*messages, gap]:
        event_id = json.loads(value)["event_id"]
        assert raw_of(event_id, capsysbinary) == value
    report = verify_chain(store)
    assert report.ok, report.problems
    chained = [f for f in store.facts() if f.fact["recorded_by"] != "tablewatch-ingest"]
    assert len(chained) == 6

    capsysbinary.readouterr()
    event_id = json.loads(messages[0])["event_id"]
    assert main(["fact", event_id]) == 0
    listing = capsysbinary.readouterr().out.decode()
    assert f"sha256 {hashlib.sha256(messages[0]).hexdigest()}" in listing
    assert f"from {topic}[0]@0" in listing
    assert main(["fact", str(uuid.uuid4()), "--raw"]) == 2
    err = capsysbinary.readouterr().err.decode().strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("tablewatch: no received bytes stored for event id")


def test_file_lines_come_back_without_their_line_ending_only(cli_store, tmp_path, capsysbinary):
    lines = [m.rstrip(b"\r\n") for m in odd_messages() if b"\n" not in m.rstrip(b"\r\n")]
    path = tmp_path / "shift.jsonl"
    endings = [b"\n", b"\r\n", b"\n", b"\r\n"]
    path.write_bytes(b"".join(a + b for a, b in zip(lines, endings, strict=True)))
    store = FactStore(cli_store)
    assert ingest_file(path, Ingestor(store)).stored == len(lines)
    for line in lines:
        assert raw_of(json.loads(line)["event_id"], capsysbinary) == line
    assert verify_chain(store).ok


def test_a_reused_id_keeps_both_messages_and_raw_asks_which(cli_store, tmp_path, capsysbinary):
    first = event(0)
    again = {**event(1), "event_id": first["event_id"]}  # the same id, other content
    path = tmp_path / "reused.jsonl"
    path.write_bytes(json.dumps(first).encode() + b"\n" + json.dumps(again).encode() + b"\n")
    FactStore(cli_store)
    assert main(["ingest", "--from-file", str(path)]) == 0
    capsysbinary.readouterr()
    assert main(["fact", first["event_id"], "--raw"]) == 2
    assert "choose one with --origin" in capsysbinary.readouterr().err.decode()
    origin = f"{file_source(path)}:2"  # the second line
    assert raw_of(first["event_id"], capsysbinary, "--origin", origin) == json.dumps(again).encode()


def _tamper(config: StoreConfig, statement: str) -> None:
    """Change the received bytes behind the triggers' back, as the database's owner could."""
    if config.sqlite_path is not None:
        with closing(sqlite3.connect(config.sqlite_path)) as conn:
            conn.execute(f"DROP TRIGGER {RECEIVED_TABLE}_no_update")
            conn.execute(f"DROP TRIGGER {RECEIVED_TABLE}_no_delete")
            conn.execute(statement)
            conn.commit()
        return
    assert config.postgres_url is not None
    with psycopg.connect(config.postgres_url) as conn:
        conn.execute(f"ALTER TABLE {RECEIVED_TABLE} DISABLE TRIGGER USER")
        conn.execute(statement)


def _refused(config: StoreConfig, statement: str) -> None:
    if config.sqlite_path is not None:
        with (
            closing(sqlite3.connect(config.sqlite_path)) as conn,
            pytest.raises(sqlite3.IntegrityError, match="immutable"),
        ):
            conn.execute(statement)
        return
    assert config.postgres_url is not None
    with (
        psycopg.connect(config.postgres_url) as conn,
        pytest.raises(psycopg.errors.RaiseException, match="immutable"),
    ):
        conn.execute(statement)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("UPDATE {t} SET received = received || ' '", "does not match its link"),
        ("DELETE FROM {t}", "the bytes it was received as are missing"),
    ],
)
def test_received_bytes_are_immutable_and_a_change_breaks_the_chain(
    cli_store, tmp_path, change, problem
):
    path = tmp_path / "shift.jsonl"
    path.write_bytes(b"\n".join(json.dumps(event(seq)).encode() for seq in range(3)) + b"\n")
    store = FactStore(cli_store)
    ingest_file(path, Ingestor(store))
    assert all(f.fact["seq"] < 3 for f in store.facts())
    assert {json.loads(e.state)["chain_version"] for e in
            store.process_recorder.select_notifications(1, 100)
            if e.topic == "tablewatch:FactRecorded"} == {LINK_RECEIVED}  # fmt: skip
    assert verify_chain(store).ok
    for statement in (f"UPDATE {RECEIVED_TABLE} SET received = received",
                      f"DELETE FROM {RECEIVED_TABLE}"):  # fmt: skip
        _refused(cli_store, statement)
    _tamper(cli_store, change.format(t=RECEIVED_TABLE))
    problems = verify_chain(store).problems
    assert len(problems) == 3, problems
    assert all(problem in each for each in problems), problems
