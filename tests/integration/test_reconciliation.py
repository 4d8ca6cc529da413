"""The reconciliation view and the auditors' reports, on SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import uuid
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest

from audit.events.accounting import OpenerRecorded
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from consumers.cli import main
from consumers.report_cli import mgr_report, variance_rows
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter
from projections.reconciliation import ReconciliationProjection
from tests.builders.paper_day import paper_day


def _store(store_config: StoreConfig, events) -> FactStore:
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    for start in range(0, len(events), 10):  # several batches, several view positions
        batch = events[start : start + 10]
        ingestor.record_batch([Accepted(e, "t") for e in batch], "test", start + len(batch) - 1)
    return store


def _short_drop():
    """The paper day, with the first count of PG-01's day box 100.00 short."""
    events = paper_day()
    for i, event in enumerate(events):
        if event.type_name() == "drop_counted" and (event.box_id, event.count) == ("DB-1", "first"):
            events[i] = replace(event, **{"markers": Decimal("900.00")})
    return events


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_the_mgr_from_the_store_matches_the_paper_day(store_config):
    store = _store(store_config, paper_day())
    document = json.loads(mgr_report(store, "2026-11-21", "json"))
    rows = [
        (r["table"], r["shift"], r["win"], r["hold_pct"], r["variance"]) for r in document["rows"]
    ]
    assert rows == [
        ("PG-01", "day", "260.00", "17.05", "0.00"),
        ("PG-01", "swing", "-100.00", None, "0.00"),
        ("PG-02", "day", "3.00", "0.99", "0.00"),
    ]
    assert document["totals"][-1]["win"] == "163.00"
    assert json.loads(mgr_report(store, "2026-11-22", "json"))["rows"] == []
    assert variance_rows(store, "2026-11-21") == []


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_variance_reaches_the_report_with_its_evidence_and_the_view_rebuilds(store_config):
    store = _store(store_config, _short_drop())
    rows = variance_rows(store, "2026-11-21")
    assert {r["code"] for r in rows} == {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE",
                                         "ACC-COUNT-DISAGREE"}  # fmt: skip
    win = next(r for r in rows if r["code"] == "ACC-WIN-VARIANCE")
    assert (win["at_stake"], win["severity"], win["table_id"]) == ("100.00", "critical", "PG-01")
    assert win["evidence"]["rounds"] == ["r1", "r2"]
    assert win["evidence"]["fill_slips"] == [90001]
    assert win["evidence"]["box"] == "DB-1"
    count = next(r for r in rows if r["code"] == "ACC-COUNT-DISAGREE")
    assert count["evidence"]["counts"] == {"first": "1425.00", "second": "1525.00"}
    mgr = json.loads(mgr_report(store, None, "json"))
    day = mgr["rows"][0]
    assert (day["win"], day["replayed_win"], day["variance"]) == ("160.00", "260.00", "-100.00")
    # The shift's findings: its three variances, and what the bare rounds r1 and r2 show.
    rounds = FindingsProjection(store).view.select(FindingFilter(table_id="PG-01"))
    in_day = {r["round_id"] for r in rounds if not r["code"].startswith("ACC-")}
    assert in_day <= {"r1", "r2", "r3"}
    day_rounds = sum(1 for r in rounds if r["round_id"] in ("r1", "r2"))
    assert day["findings"] == 3 + day_rounds
    # A second projection over the same view writes nothing new; one from zero the same.
    stored = ReconciliationProjection(store).view.ledgers()
    assert ReconciliationProjection(store).catch_up() == 0
    assert stored == ReconciliationProjection(store).view.ledgers()


def test_report_commands_print_the_three_formats(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from consumers.settings import Settings
    from consumers.wiring import open_store

    store = open_store(Settings.from_env())
    Ingestor(store).record_batch([Accepted(e, "t") for e in _short_drop()], "test", 0)
    assert main(["report", "mgr", "--gaming-day", "2026-11-21"]) == 0
    text = capsys.readouterr().out
    assert "Master Game Report, gaming day 2026-11-21" in text
    assert "total day" in text
    assert main(["report", "mgr", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["table"] for r in table][-1] == "total day"
    assert main(["report", "variance", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    assert main(["report", "variance"]) == 0
    assert "3 variance(s)" in capsys.readouterr().out
    assert main(["report", "mgr", "--gaming-day", "21/11/2026"]) == 2
    assert "--gaming-day is not a date" in capsys.readouterr().err


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_an_opener_mismatch_is_shown_with_the_shift_it_opened(store_config):
    events = paper_day()
    for i, event in enumerate(events):
        if event.type_name() == "opener_recorded" and event.shift == "swing":
            short = [replace(c, **{"count": c.count - 1}) if c.denomination == 100
                     else c for c in event.chips]  # fmt: skip
            events[i] = replace(event, **{"chips": tuple(short)})
    rows = variance_rows(_store(store_config, events), "2026-11-21")
    opener = next(r for r in rows if r["code"] == "ACC-OPENER-MISMATCH")
    assert (opener["at_stake"], opener["evidence"]["shift"]) == ("100.00", "swing")
    assert opener["evidence"]["opener_slip"] == 5001


@pytest.mark.parametrize("store_config", ["sqlite"], indirect=True)
def test_a_days_variance_report_holds_that_days_variances_only(store_config):
    events = _short_drop()
    # The next gaming day opens PG-01 with an opener that is not the prior closer.
    swing_closer = next(e for e in reversed(events) if e.type_name() == "closer_recorded"
                        and e.table_id == "PG-01")  # fmt: skip
    last = max(e.seq for e in events if e.table_id == "PG-01")
    short = tuple(replace(c, **{"count": c.count - 1}) if c.denomination == 100 else c
                  for c in swing_closer.chips)  # fmt: skip
    opener = OpenerRecorded(
        event_id=uuid.uuid4(), table_id="PG-01", seq=last + 1,
        occurred_at=swing_closer.occurred_at + timedelta(hours=10), recorded_by="pit-1",
        slip_number=swing_closer.slip_number, gaming_day=date(2026, 11, 22), shift="day",
        chips=short, counted_by=swing_closer.counted_by, verified_by=swing_closer.verified_by,
    )  # fmt: skip
    store = _store(store_config, [*events, opener])
    day_one = {r["code"] for r in variance_rows(store, "2026-11-21")}
    assert "ACC-OPENER-MISMATCH" not in day_one  # the next day's, though its prior closer is here
    assert {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE"} <= day_one
    day_two = variance_rows(store, "2026-11-22")
    assert [r["code"] for r in day_two] == ["ACC-OPENER-MISMATCH"]
    assert variance_rows(store, "2026-11-20") == []  # no ledgers that day: nothing


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_days_variance_report_reads_only_that_days_findings(store_config, monkeypatch):
    """#16: a day's report costs that day's findings, not every day's stored before it."""
    events = _short_drop()
    store = _store(store_config, events)
    view = FindingsProjection(store).view
    read: list[str | None] = []
    select = type(view).select

    def counted(self, query):
        rows = select(self, query)
        read.extend(row["gaming_day"] for row in rows)
        return rows

    monkeypatch.setattr(type(view), "select", counted)
    everything = variance_rows(store, None)
    assert {"ACC-DROP-BUYINS", "ACC-WIN-VARIANCE"} <= {r["code"] for r in everything}
    assert set(read) == {"2026-11-21"}
    read.clear()
    assert variance_rows(store, "2026-11-22") == []
    assert read == []  # day one's variances are stored, and not one was read for day two
    read.clear()
    assert {r["code"] for r in variance_rows(store, "2026-11-21")} == {
        r["code"] for r in everything
    }
    assert read
    assert set(read) == {"2026-11-21"}


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_shift_with_no_opener_owns_its_days_table_findings_not_the_tables_history(
    store_config,
):
    """A shift recorded without its opener has no first hour: the MGR counts its table's
    round-less findings of its gaming day, not every one since the store began."""
    from eventsourcing.persistence import Tracking

    from audit.findings.finding import Severity
    from tests.builders.alerts import AN_INFO_FINDING

    events = [e for e in paper_day() if not (e.type_name() == "opener_recorded"
              and e.table_id == "PG-01" and e.shift == "swing")]  # fmt: skip
    store = _store(store_config, events)

    def counts():
        document = json.loads(mgr_report(store, "2026-11-21", "json"))
        return [(r["table"], r["shift"], r["findings"], r["at_stake"]) for r in document["rows"]]

    before = counts()
    assert any(ledger["opened_at"] is None and ledger["key"]["table_id"] == "PG-01"
               for ledger in ReconciliationProjection(store).view.ledgers())  # fmt: skip
    older = replace(AN_INFO_FINDING, code="TEST-OLDER", severity=Severity.WARNING,
                    table_id="PG-01", gaming_day="2026-10-01", at_stake=Decimal("500.00"),
                    occurred_at="2026-10-01T21:00:00+00:00")  # fmt: skip
    FindingsProjection(store).view.record([(older, 0)], Tracking("test-older", 1))
    assert counts() == before
