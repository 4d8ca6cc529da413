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

    outputs = []
    for source in ([], [str(path)]):
        status = main(["equipment", *source, "--screen", "dice", "--json"])
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        outputs.append((status, sorted((r["screen"], r["subject"], r["n"]) for r in rows)))
        assert {r["screen"] for r in rows} == {"dice-set", "dice-table", "dice-dealer"}
        assert status == (1 if any(r["alarm"] for r in rows) else 0)
    assert outputs[0] == outputs[1]

    assert main(["equipment", str(path), "--screen", "tenure"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["equipment", "table"]
    assert {line.split()[0] for line in out[1:]} >= {"tile", "dice", "shoe"}

    assert main(["equipment", str(path), "--screen", "shoe", "--confidence", "0.5"]) in (0, 1)
    assert "(at 0.5)" in capsys.readouterr().out
    assert main(["equipment", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
