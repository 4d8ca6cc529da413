"""The equipment view: the same windows and tenures as the offline screens, on SQLite and
PostgreSQL, across a restart; and ``tablewatch equipment`` from the store and from a file."""

from __future__ import annotations

import json
import random

import pytest

from audit.events.catalogue import event_json
from audit.simulation.frequencies import Frequencies
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from audit.verification.equipment import EquipmentScreens
from consumers.cli import main
from projections.equipment_stats import EquipmentStatsProjection

MIXED = (("paigow", 0.75), ("baccarat21", 0.25))


def _shift(loaded: int = 0):
    config = ShiftConfig(4, 120, games=MIXED, frequencies=Frequencies(rng_table=0.0),
                         loaded_dice_tables=loaded)  # fmt: skip
    return list(simulate_shift(config, random.Random(9)))


def _offline(events):
    screens = EquipmentScreens()
    windows, tenures = [], []
    for event in events:
        closed, ended = screens.feed(event)
        windows += closed
        tenures += ended
    return windows, tenures


def _cells(results):
    return sorted((r.window.screen, r.window.subject, tuple(r.window.counts)) for r in results)


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_the_view_gives_what_the_offline_screens_give(store_config):
    events = _shift()
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    half = len(events) // 2
    ingestor.record_batch([Accepted(e, "t") for e in events[:half]], "test", 0)
    EquipmentStatsProjection(store).catch_up()
    ingestor.record_batch([Accepted(e, "t") for e in events[half:]], "test", 1)
    EquipmentStatsProjection(store).catch_up()  # a restart: warm-up, then the rest
    view = EquipmentStatsProjection(store).view
    windows, tenures = _offline(events)
    stored = view.windows(0.9999)
    assert _cells(stored) == _cells(windows)
    assert {r.window.screen for r in stored} == {
        "dice-set", "dice-table", "dice-dealer", "start-dealer", "b21-shoe",
    }  # fmt: skip
    by_key = {(r.window.screen, r.window.subject): r for r in windows}
    for r in stored:
        offline = by_key[(r.window.screen, r.window.subject)]
        assert r.window.expected == pytest.approx(offline.window.expected)
        assert (r.fit is None) == (offline.fit is None)
        if r.fit is not None:
            assert r.fit.p_value == pytest.approx(offline.fit.p_value)
    assert sorted(view.tenures(), key=repr) == sorted(tenures, key=repr)
    assert EquipmentStatsProjection(store).catch_up() == 0  # nothing new: nothing written


def test_tablewatch_equipment_from_the_store_and_from_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from consumers.settings import Settings
    from consumers.wiring import open_store

    events = _shift(loaded=1)
    store = open_store(Settings.from_env())
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", 0)
    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in events))
    resent = tmp_path / "resent.jsonl"  # an at-least-once producer's file: each line twice
    resent.write_text("".join(2 * (event_json(e) + "\n") for e in events))

    outputs = []
    for source in ([], [str(path)], [str(resent)]):
        status = main(["equipment", *source, "--screen", "dice", "--json"])
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        outputs.append((status, sorted((r["screen"], r["subject"], r["n"]) for r in rows)))
        assert {r["screen"] for r in rows} == {"dice-set", "dice-table", "dice-dealer"}
        assert status == (1 if any(r["alarm"] for r in rows) else 0)
    assert outputs[0] == outputs[1] == outputs[2]  # a repeat counts once, as in the store

    assert main(["equipment", str(path), "--screen", "tenure"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["equipment", "table"]
    assert {line.split()[0] for line in out[1:]} >= {"tile", "dice", "shoe"}

    assert main(["equipment", str(path), "--screen", "shoe", "--confidence", "0.5"]) in (0, 1)
    assert "(at 0.5)" in capsys.readouterr().out
    assert main(["equipment", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def _days_store(store):
    from tests.builders.gaming_days import Feed, gaming_day

    feed, events = Feed(store), []
    for day in range(3):
        events += gaming_day(day, seed=day)
        feed(events[-len(gaming_day(day, seed=day)) :])
    return events


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_gaming_day_or_a_table_reads_its_own_windows_and_tenures(store_config):
    """#16: a day's screen is that day's windows, read by the day, not every day stored."""
    store = FactStore(store_config)
    _days_store(store)
    projection = EquipmentStatsProjection(store)
    projection.catch_up()
    view = projection.view
    every, tenures = view.windows(0.999), view.tenures()
    days = sorted({r.window.gaming_day for r in every})
    tables = sorted({r.window.table_id for r in every})
    assert len(days) == 3
    assert len(tables) >= 3
    for day in days:
        mine = view.windows(0.999, gaming_day=day)
        assert mine
        assert _cells(mine) == _cells(r for r in every if r.window.gaming_day == day)
        assert view.tenures(gaming_day=day) == [t for t in tenures if t.gaming_day == day]
    table = next(r.window.table_id for r in every if r.window.gaming_day == days[1])
    both = view.windows(0.999, gaming_day=days[1], table_id=table)
    assert both
    assert _cells(both) == _cells(
        r for r in every if (r.window.gaming_day, r.window.table_id) == (days[1], table)
    )
    assert view.tenures(table_id=table) == [t for t in tenures if t.table_id == table]
    assert view.windows(0.999, gaming_day="2020-01-01") == []
    if store_config.sqlite_path is not None:  # SQLite's plan: the day's rows by the index
        plan = view.query(
            "EXPLAIN QUERY PLAN SELECT * FROM equipment_windows WHERE gaming_day = {p} "
            "ORDER BY notification_id",
            [days[0]],
        )
        text = " ".join(str(row[3]) for row in plan)
        assert "USING INDEX equipment_windows_day (gaming_day=?)" in text, text
        assert "TEMP B-TREE" not in text, text


def test_tablewatch_equipment_narrows_to_a_day_and_a_table(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from consumers.settings import Settings
    from consumers.wiring import open_store

    events = _days_store(open_store(Settings.from_env()))
    path = tmp_path / "days.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in events))

    def shown(*args):
        main(["equipment", *args, "--json"])
        return sorted(
            (r["screen"], r["subject"], r["gaming_day"], r["table_id"], r["n"])
            for r in map(json.loads, capsys.readouterr().out.splitlines())
        )

    every = shown()
    day, table = every[0][2], every[0][3]
    assert len({row[2] for row in every}) == 3
    narrowed = (["--gaming-day", day], ["--table", table], ["--gaming-day", day, "--table", table])
    for args in narrowed:
        from_store, from_file = shown(*args), shown(str(path), *args)
        assert from_store == from_file
        assert from_store == [
            row for row in every
            if ("--gaming-day" not in args or row[2] == day)
            and ("--table" not in args or row[3] == table)
        ]  # fmt: skip
        assert 0 < len(from_store) < len(every)
    assert main(["equipment", "--gaming-day", "21.11.2026"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--gaming-day" in err
    assert "Traceback" not in err
