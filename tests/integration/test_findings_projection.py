"""The findings projection: exactly once, incremental equals all at once, rebuildable from zero."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from audit.events.catalogue import event_json
from audit.findings.finding import Severity
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from consumers.cli import main
from projections.findings import TRACKING_NAME, FindingsProjection
from projections.findings_view import FindingFilter
from tests.builders.findings_shift import (
    ingest,
    tampered_shift,
)


def rows(projection):
    return [(r["finding_id"], r["code"]) for r in projection.view.select(FindingFilter())]


def test_findings_are_written_once_with_their_rule_and_stake(store_config):
    events, winner = tampered_shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = FindingsProjection(store)
    assert projection.catch_up() >= 2
    found = projection.view.select(FindingFilter(code="PG-SETTLE-PAYOUT"))
    [payout] = [f for f in found if f["round_id"] == winner["round_id"]]
    assert payout["rule"].startswith(("PA 621a.8", "NJ 19:47-10.7", "CA Pai Gow"))
    assert payout["position"] == winner["position"]
    assert projection.view.select(FindingFilter(code="DATA-SEQ-GAP"))
    assert projection.catch_up() == 0  # nothing new, nothing written twice
    restarted = FindingsProjection(FactStore(store_config))
    assert restarted.catch_up() == 0
    assert rows(restarted) == rows(projection)


def test_incremental_catch_up_equals_all_at_once(store_config, tmp_path):
    events, _ = tampered_shift(seed=8)
    store = FactStore(store_config)
    half = len(events) // 2
    ingest(store, events[:half])
    incremental = FindingsProjection(store)
    incremental.catch_up()
    Ingestor(store).record_batch([Accepted(e, "t") for e in events[half:]], "test2", 0)
    incremental.catch_up()
    assert incremental.position == store.last_notification_id()
    from audit.store.application import StoreConfig

    whole = FactStore(StoreConfig.sqlite(tmp_path / "whole.sqlite"))
    ingest(whole, events)
    at_once = FindingsProjection(whole)
    at_once.catch_up()
    assert sorted(code for _, code in rows(incremental)) == sorted(
        code for _, code in rows(at_once)
    )


def test_a_rebuild_from_zero_gives_the_same_rows(tmp_path):
    from audit.store.application import StoreConfig

    events, _ = tampered_shift()
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    store = FactStore(config)
    ingest(store, events)
    first = FindingsProjection(store)
    first.catch_up()
    before = rows(first)
    import sqlite3

    with sqlite3.connect(config.sqlite_path) as conn:  # drop the view, keep the facts
        conn.execute("DELETE FROM findings")
        conn.execute("DELETE FROM tracking WHERE application_name = ?", (TRACKING_NAME,))
    rebuilt = FindingsProjection(FactStore(config))
    rebuilt.catch_up()
    assert sorted(rows(rebuilt)) == sorted(before)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path / "data"


def test_the_findings_command_filters(data_dir, tmp_path, capsys):
    events, winner = tampered_shift()
    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in events))
    assert main(["ingest", "--from-file", str(path)]) == 0
    capsys.readouterr()
    assert main(["findings", "--json", "--severity", "critical"]) == 0
    critical = [line for line in capsys.readouterr().out.splitlines() if line]
    assert critical
    assert all('"severity": "critical"' in line for line in critical)
    assert main(["findings", "--code", "PG-SETTLE-PAYOUT", "--table", winner["table_id"]]) == 0
    out = capsys.readouterr().out
    assert "PG-SETTLE-PAYOUT" in out
    assert "1 finding(s)" in out or "finding(s): PG-SETTLE-PAYOUT" in out
    assert main(["findings", "--since", "2026-11-21T20:00:00"]) == 2  # no offset: refused


def test_severity_filter_is_at_least(store_config):
    events, _ = tampered_shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = FindingsProjection(store)
    projection.catch_up()
    everything = projection.view.select(FindingFilter())
    warnings_up = projection.view.select(FindingFilter(min_severity=Severity.WARNING))
    assert {r["severity"] for r in warnings_up} <= {"warning", "critical"}
    assert len(warnings_up) == sum(r["severity"] != "info" for r in everything)


def test_since_and_until_are_compared_in_utc_whatever_the_offset(data_dir, tmp_path, capsys):
    events, _ = tampered_shift()
    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in events))
    assert main(["ingest", "--from-file", str(path)]) == 0
    capsys.readouterr()
    assert main(["findings", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    times = sorted(r["occurred_at"] for r in rows if r["occurred_at"])
    assert [r["occurred_at"] for r in rows if r["occurred_at"]] == times  # time order
    middle = datetime.fromisoformat(times[len(times) // 2])
    # The same instant written in UTC and at UTC-5 must select the same findings.
    answers = []
    for instant in (middle, middle.astimezone(timezone(timedelta(hours=-5)))):
        assert main(["findings", "--json", "--since", instant.isoformat()]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1]
    assert len(answers[0].splitlines()) == sum(t >= middle.isoformat() for t in times)


def test_a_time_without_an_offset_is_refused_with_an_example_that_works(data_dir, capsys):
    assert main(["findings", "--since", "2026-11-21"]) == 2
    message = capsys.readouterr().err.strip()
    example = message.split("e.g. ")[1].split(": ")[0]
    assert datetime.fromisoformat(example).tzinfo is not None  # the example itself is accepted
