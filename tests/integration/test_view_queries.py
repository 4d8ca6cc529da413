"""The query commands read their views: against a caught-up store they read no stored fact."""

import json
import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder

from audit.accounting.report import mgr_lines
from audit.events.catalogue import event_dict, event_json, parse_event
from audit.games.money import to_dollars
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.fact_pages import FactPages
from consumers import view_reads
from consumers.cli import main
from consumers.replay_cli import find_table
from consumers.report_cli import mgr_report, shift_findings, shift_money
from consumers.serve import READ_MODELS
from consumers.settings import Settings
from consumers.store_lease import StoreLease
from consumers.view_reads import Following
from consumers.wiring import open_store
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter
from projections.reconciliation import ReconciliationProjection


def gaming_day(day):
    """A day of three tables, one of whose dealers overpays a winner and loses an event."""
    config = ShiftConfig(
        3, 10, start=datetime(2026, 11, 21, 20, tzinfo=UTC) + timedelta(days=day),
        games=(("paigow", 0.6), ("baccarat21", 0.4)), shifts=2,
    )  # fmt: skip
    raw = [event_dict(e) for e in simulate_shift(config, random.Random(20 + day))]
    winner = next(r for r in raw if r["type"] == "wager_settled" and r["outcome"] == "win")
    winner["paid"] = "999.00"
    del raw[40]  # a gap in one table's sequence
    return [parse_event(r) for r in raw]


@pytest.fixture
def stored_only(store_config, tmp_path, monkeypatch):
    """Two gaming days stored through the ingest command, and no view caught up yet."""
    if store_config.postgres_url is not None:
        monkeypatch.setenv("DATABASE_URL", store_config.postgres_url)
        assert main(["db", "migrate"]) == 0  # the commands run no DDL on PostgreSQL
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(store_config.sqlite_path.parent))
    path = tmp_path / "days.jsonl"
    path.write_text("".join(event_json(e) + "\n" for day in (0, 1) for e in gaming_day(day)))
    assert main(["ingest", "--from-file", str(path)]) == 0
    return open_store(Settings.from_env())


@pytest.fixture
def caught_up(stored_only):
    """The same two days, every view caught up by the commands that read them."""
    assert main(["findings"]) == main(["report", "mgr"]) == main(["stats"]) == 0  # catch up
    store = stored_only
    started = next(e for e in gaming_day(1) if e.type_name() == "round_started")
    assert find_table(store, started.round_id) == started.table_id  # the round index too
    return store


@pytest.fixture
def notifications_read(monkeypatch):
    """Count the stored events every recorder reads from the notification log from now on."""
    read = []
    for recorder in (SQLiteApplicationRecorder, PostgresApplicationRecorder):
        original = recorder.select_notifications

        def counted(self, *args, _original=original, **kwargs):
            found = _original(self, *args, **kwargs)
            read.append(len(found))
            return found

        monkeypatch.setattr(recorder, "select_notifications", counted)
    page = FactPages.page  # how the projections read the log (audit/store/fact_pages.py)

    def paged(self, *args, **kwargs):
        found = page(self, *args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(FactPages, "page", paged)
    return read


def test_the_query_commands_read_no_fact_of_a_caught_up_store(
    caught_up, notifications_read, capsys
):
    started = next(e for e in gaming_day(1) if e.type_name() == "round_started")
    table, round_id = started.table_id, started.round_id
    capsys.readouterr()
    assert main(["findings", "--table", table]) == 0
    assert f"{table} " in capsys.readouterr().out
    assert main(["report", "mgr", "--gaming-day", "2026-11-22"]) == 0
    assert "2026-11-22" in capsys.readouterr().out
    assert main(["report", "variance", "--gaming-day", "2026-11-22"]) == 0
    assert main(["stats"]) == 0
    assert find_table(caught_up, round_id) == table
    assert sum(notifications_read) == 0
    next(caught_up.facts())  # the count is live: a read of the log shows in it
    assert sum(notifications_read) > 0


def test_the_mgr_counts_each_shift_s_findings_as_from_every_finding(caught_up):
    every = FindingsProjection(caught_up).view.select(FindingFilter())
    for day in ("2026-11-21", "2026-11-22"):
        ledgers = ReconciliationProjection(caught_up).view.ledgers(day)
        lines = mgr_lines(ledgers, lambda ledger: shift_findings(ledger, every))
        by_all_rows = [line.findings for line in lines]
        assert any(by_all_rows)
        report = json.loads(mgr_report(caught_up, day, "json"))
        assert [row["findings"] for row in report["rows"]] == by_all_rows


def test_the_mgr_shows_each_shift_s_money_at_stake_and_exposure_apart(caught_up):
    every = FindingsProjection(caught_up).view.select(FindingFilter())
    for day in ("2026-11-21", "2026-11-22"):
        ledgers = ReconciliationProjection(caught_up).view.ledgers(day)
        lines = mgr_lines(
            ledgers,
            lambda ledger: shift_findings(ledger, every),
            lambda ledger: shift_money(ledger, every),
        )
        report = json.loads(mgr_report(caught_up, day, "json"))
        shown = [(row["at_stake"], row["exposure"]) for row in report["rows"]]
        assert shown == [
            (str(to_dollars(ln.at_stake)), str(to_dollars(ln.exposure))) for ln in lines
        ]
        assert any(Decimal(at_stake) > 0 for at_stake, _ in shown)  # the overpaid winner
        day_total = next(t for t in report["totals"] if t["table"] == "total day")
        assert Decimal(day_total["at_stake"]) == sum(Decimal(a) for a, _ in shown)
        assert Decimal(day_total["exposure"]) == sum(Decimal(e) for _, e in shown)


def test_beside_a_running_service_the_commands_read_its_views_and_write_none(
    stored_only, capsys, monkeypatch
):
    """Catching a view up beside ``serve`` would race it for the view's positions, and the
    second writer would stop on the conflict: a command reads the service's views instead."""
    store = stored_only
    started = next(e for e in gaming_day(1) if e.type_name() == "round_started")
    service = StoreLease(store)
    assert service.try_acquire()  # as a running serve holds it
    monkeypatch.setattr(view_reads, "BEHIND_NOTICE", 1)
    try:
        capsys.readouterr()
        assert main(["findings", "--json"]) == 0
        out, err = capsys.readouterr()
        assert out == ""  # the service has judged nothing yet
        behind = store.last_notification_id()
        assert f"keeps this store's views and is {behind:,} stored events behind" in err
        assert main(["report", "mgr", "--gaming-day", "2026-11-22", "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["rows"] == []
        assert main(["stats"]) == 0
        assert main(["replay", started.round_id, "--table", started.table_id]) != 0
        err = capsys.readouterr().err
        assert "not yet in the round index" in err
        assert "Traceback" not in err
        assert [kind(store).position for kind in READ_MODELS] == [0] * len(READ_MODELS)
    finally:
        service.release()
    assert main(["findings", "--json"]) == 0  # no service now: the command catches up itself
    out, err = capsys.readouterr()
    assert out
    assert "behind" not in err
    assert FindingsProjection(store).position == store.last_notification_id()
    assert main(["replay", started.round_id]) == 0


def test_a_follower_catches_up_while_no_service_keeps_the_store_and_after_one_wrote(
    stored_only, tmp_path
):
    """``alerts --follow`` keeps its findings projection warm from poll to poll; a service
    that held the store meanwhile moved the view past it, so it is opened afresh."""
    store = stored_only
    follower = Following(store, FindingsProjection)
    service = StoreLease(store)
    assert service.try_acquire()
    try:
        assert follower.catch_up().position == 0  # the service's to write
        FindingsProjection(store).catch_up()  # which it does
    finally:
        service.release()
    path = tmp_path / "day2.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in gaming_day(2)))
    assert main(["ingest", "--from-file", str(path)]) == 0
    projection = follower.catch_up()  # free now: from where the service left it, no conflict
    assert projection.position == store.last_notification_id()
    assert projection.view.select(FindingFilter(gaming_day="2026-11-23"))
