"""PostgreSQL roles: the owner migrates, the writer only appends, the reader only reads.

Each test makes its own roles (unique names), makes one the database's owner,
and drops the database and the roles afterwards.
"""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from eventsourcing.persistence import Tracking
from psycopg import errors

from audit.events.examples import EXAMPLES
from audit.store.application import FactStore, StoreConfig
from audit.store.schema import SCHEMA_VERSION
from consumers.alerts import WEBHOOK_TRACKING_NAME
from consumers.cli import main
from consumers.rebuild_views import rebuild_views
from consumers.serve import Service
from projections.findings import FindingsProjection
from projections.read_models import READ_MODELS
from tests.builders.alerts import ingest, warnings
from tests.builders.db_roles import (
    as_role,
    migrate_with_roles,
)

ROOT = Path(__file__).resolve().parents[2]


def shift_file(path):
    lines = []
    for seq, kind in enumerate(["table_opened", "round_started", "wager_placed", "no_more_bets"]):
        event = {**EXAMPLES[kind], "seq": seq, "event_id": str(uuid.uuid4())}
        if "round_id" in event:
            event["round_id"] = "r1"
        lines.append(json.dumps(event))
    lines.append("{not json")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_writer_ingests_but_cannot_change_or_unprotect_stored_events(
    roles, monkeypatch, tmp_path, capsys
):
    migrate_with_roles(monkeypatch, roles, tmp_path, capsys)
    as_role(monkeypatch, roles["writer"], tmp_path)
    assert main(["ingest", "--from-file", str(shift_file(tmp_path / "shift.jsonl"))]) == 0
    assert "4 stored" in capsys.readouterr().out
    with psycopg.connect(roles["writer"], autocommit=True) as conn:
        for statement in (
            "ALTER TABLE tablewatch_events DISABLE TRIGGER USER",
            "ALTER TABLE tablewatch_events ADD COLUMN note TEXT",
            "DROP TRIGGER tablewatch_events_immutable ON tablewatch_events",
            "UPDATE tablewatch_events SET originator_version = 99",
            "DELETE FROM tablewatch_events",
            "DROP TABLE tablewatch_events",
            # The bytes as received: INSERT and SELECT only.
            "UPDATE tablewatch_received SET received = 'x'",
            "DELETE FROM tablewatch_received",
            "TRUNCATE tablewatch_received",
            "ALTER TABLE tablewatch_received DISABLE TRIGGER USER",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
        with pytest.raises(errors.RaiseException, match="immutable"):
            conn.execute("TRUNCATE tablewatch_events")  # granted for LOCK TABLE; refused
        count = conn.execute("SELECT count(*) FROM tablewatch_events").fetchone()
        kept = conn.execute("SELECT count(*) FROM tablewatch_received").fetchone()
    assert count[0] > 4
    assert kept[0] == 4
    assert main(["verify-chain"]) == 0


def test_the_reader_reports_but_cannot_write_facts_or_positions(
    roles, monkeypatch, tmp_path, capsys
):
    migrate_with_roles(monkeypatch, roles, tmp_path, capsys)
    as_role(monkeypatch, roles["writer"], tmp_path)
    assert main(["ingest", "--from-file", str(shift_file(tmp_path / "shift.jsonl"))]) == 0
    as_role(monkeypatch, roles["reader"], tmp_path)
    monkeypatch.setenv("TABLEWATCH_HEADS_KEY", "a filing key of some length")
    for command in (
        ["findings"],
        ["report", "mgr"],
        ["verify-chain"],
        ["heads", "export", "--out", str(tmp_path / "heads.json")],
    ):
        assert main(command) == 0, command
    capsys.readouterr()
    with psycopg.connect(roles["reader"], autocommit=True) as conn:
        for statement in (
            "INSERT INTO tablewatch_events (originator_id, originator_version, topic, state)"
            " VALUES (gen_random_uuid(), 1, 'x', 'x')",
            "UPDATE tablewatch_table_heads SET chain_head = 'x'",
            "DELETE FROM tablewatch_event_ids",
            "INSERT INTO tablewatch_received VALUES (gen_random_uuid(), 1, gen_random_uuid(), 'x')",
            "INSERT INTO tablewatch_tracking VALUES ('file:shift.jsonl#forged', 10)",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
        # The ingest's positions are not its rows to update: row-level security hides them.
        moved = conn.execute(
            "UPDATE tablewatch_tracking SET notification_id = 1000000"
            " WHERE application_name LIKE 'file:%'"
        )
        assert moved.rowcount == 0
        # Its own views' positions it keeps: the findings view's is there.
        names = {row[0] for row in conn.execute("SELECT application_name FROM tablewatch_tracking")}
    assert "findings<-tablewatch" in names
    # Run as the wrong role, a command is refused in one line.
    assert main(["ingest", "--from-file", str(shift_file(tmp_path / "more.jsonl"))]) == 2
    last = capsys.readouterr().err.splitlines()[-1]  # after the ingest's "store:" line
    assert last.startswith("tablewatch: the database refused: new row violates row-level")


def test_an_unmigrated_store_is_refused_in_one_line_without_ddl(
    roles, monkeypatch, tmp_path, capsys
):
    as_role(monkeypatch, roles["writer"], tmp_path)
    for command in (["ingest", "--from-file", str(shift_file(tmp_path / "s.jsonl"))], ["findings"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "is not migrated" in err
        assert "run 'tablewatch db migrate' as the database's owner" in err
    assert main(["db", "migrate"]) == 2  # the writer owns nothing: it cannot migrate
    err = capsys.readouterr().err
    assert err.startswith("tablewatch: the database refused: permission denied for schema public")
    with psycopg.connect(roles["owner"], autocommit=True) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ).fetchone()
    assert tables[0] == 0


def test_concurrent_migrations_on_a_fresh_database_all_succeed(roles):
    env = {
        **os.environ,
        "DATABASE_URL": roles["owner"],
        "PYTHONPATH": str(ROOT),
    }
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "consumers.cli", "db", "migrate"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0, 0], results
    with psycopg.connect(roles["owner"], autocommit=True) as conn:
        version = conn.execute("SELECT version FROM tablewatch_schema").fetchone()
    assert version == (SCHEMA_VERSION,)


def test_the_reader_rebuilds_its_views_and_records_the_alerts_horizons(
    roles, monkeypatch, tmp_path, capsys, shift
):
    """``serve --rebuild-views`` runs as the views' role: it may empty the views, set their
    positions to 0 and record the alert legs' horizons, and nothing else (#16)."""
    migrate_with_roles(monkeypatch, roles, tmp_path, capsys)
    ingest(FactStore(StoreConfig.postgres(roles["writer"]), create=False), shift)
    store = FactStore(StoreConfig.postgres(roles["reader"]), create=False)
    Service(store).run_pass()
    view = FindingsProjection(store).view
    first = warnings(view)[0]
    view.insert_tracking(Tracking(WEBHOOK_TRACKING_NAME, first["row_number"]))  # one delivered
    emptied = rebuild_views(store)
    assert emptied.horizons == {WEBHOOK_TRACKING_NAME: first["notification_id"]}
    assert all(kind(store).position == 0 for kind in READ_MODELS)
    Service(store).run_pass()
    assert warnings(view)[0]["finding_id"] == first["finding_id"]  # judged again, same id
    with (
        psycopg.connect(roles["reader"], autocommit=True) as conn,
        pytest.raises(errors.InsufficientPrivilege),
    ):
        conn.execute("INSERT INTO tablewatch_tracking VALUES ('alerts<-findings:forged', 1)")
