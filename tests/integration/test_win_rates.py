"""The win-rate view: the same statistics as the offline computation, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest

from audit.events.catalogue import event_json
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from audit.verification.statistics import (
    GROUP_BYS,
    TRIAL_OUTCOMES,
    group_stats,
    settled_wagers,
    stats_of,
)
from consumers.cli import main
from projections.checkpoint import loads
from projections.win_rates import WinRatesProjection

MIXED = (("paigow", 0.5), ("baccarat21", 0.5))


def _shift():
    return list(simulate_shift(ShiftConfig(4, 30, games=MIXED), random.Random(7)))


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_the_view_gives_what_the_offline_computation_gives(store_config):
    events = _shift()
    store = FactStore(store_config)
    ingestor = Ingestor(store)
    half = len(events) // 2
    ingestor.record_batch([Accepted(e, "t") for e in events[:half]], "test", 0)
    projection = WinRatesProjection(store)
    projection.catch_up()
    ingestor.record_batch([Accepted(e, "t") for e in events[half:]], "test", 1)
    WinRatesProjection(store).catch_up()  # a restart: warm-up, then the rest
    view = WinRatesProjection(store).view
    for by in GROUP_BYS:
        stored = stats_of(view.tallies(by), by)
        offline = group_stats(settled_wagers(events), by)
        assert [(r.group, r.n, r.wins, r.pushes, r.losses) for r in stored] == [
            (r.group, r.n, r.wins, r.pushes, r.losses) for r in offline
        ]
        assert [round(r.expected, 9) for r in stored] == [round(r.expected, 9) for r in offline]
        money = [(r.wagered, r.won, r.expected_won, r.won_low, r.won_high) for r in stored]
        assert money == [(r.wagered, r.won, r.expected_won, r.won_low, r.won_high) for r in offline]
    players = stats_of(view.tallies("player"), "player")
    assert players
    assert all(r.group.startswith("player-") for r in players)
    assert {r.group[:3] for r in stats_of(view.tallies("table"), "table")} == {"PG-", "B21"}


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_restart_loads_no_tally_however_many_players_were_seen(store_config):
    events = _shift()
    store = FactStore(store_config)
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], "test", 0)
    projection = WinRatesProjection(store)
    projection.checkpoint_every = 1  # a checkpoint at the batch's write
    projection.catch_up()
    stored = projection.view.checkpoint(projection.tracking_name)
    assert stored is not None
    state = loads(stored.state)
    assert set(state) == {"reader"}  # the tallies live in the table alone
    reader = state["reader"]
    assert reader.rounds == {}  # every round completed: nothing of one kept
    assert len(projection.view.tallies("player")) > len(reader.rules)  # groups outnumber tables


def test_tablewatch_stats_reads_the_store_without_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from consumers.settings import Settings
    from consumers.wiring import open_store

    store = open_store(Settings.from_env())
    Ingestor(store).record_batch([Accepted(e, "t") for e in _shift()], "test", 0)
    assert main(["stats", "--by", "table"]) in (0, 1)
    out = capsys.readouterr().out
    assert "groups: 4" in out
    assert main(["stats", "--by", "dealer,player", "--json"]) in (0, 1)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows
    assert all(r["group"].count(",") == 1 for r in rows)
    assert all(Decimal(r["won_low"]) <= Decimal(r["won"]) <= Decimal(r["won_high"]) for r in rows)
    one = rows[-1]["group"]  # #16: one group by its key, the same row as among all
    assert main(["stats", "--by", "dealer,player", "--group", one, "--json"]) in (0, 1)
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [rows[-1]]
    assert main(["stats", "--by", "dealer,player", "--group", "nobody", "--json"]) == 0
    assert capsys.readouterr().out == ""


def test_tablewatch_stats_from_a_file_counts_a_repeat_once_as_the_store_does(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from consumers.settings import Settings
    from consumers.wiring import open_store

    events = _shift()
    Ingestor(open_store(Settings.from_env())).record_batch(
        [Accepted(e, "t") for e in events], "test", 0
    )
    resent = tmp_path / "resent.jsonl"  # an at-least-once producer's file: each line twice
    resent.write_text("".join(2 * (event_json(e) + "\n") for e in events))
    outputs = []
    for source in ([], [str(resent)]):
        assert main(["stats", *source, "--by", "table", "--json"]) in (0, 1)
        outputs.append([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert outputs[0] == outputs[1]
    assert sum(row["n"] for row in outputs[1]) == sum(w.outcome in TRIAL_OUTCOMES
                                                     for w in settled_wagers(events))  # fmt: skip
