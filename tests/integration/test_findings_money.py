"""The findings view's money, gaming day and player (issue #22): columns, filters, and the
migration of a store whose view was made before them."""

import json
import sqlite3
from contextlib import closing

import psycopg
import pytest

from audit.events.catalogue import event_json
from audit.store.application import FactStore
from consumers.cli import main
from projections.findings import FindingsProjection, open_findings_view
from projections.findings_view import FindingFilter
from tests.builders.findings_shift import ingest, tampered_shift

_BEFORE = (
    "CREATE TABLE findings ("
    "row_number {serial} PRIMARY KEY, finding_id TEXT UNIQUE NOT NULL, "
    "code TEXT NOT NULL, severity TEXT NOT NULL, rule TEXT NOT NULL, "
    "title TEXT NOT NULL, table_id TEXT NOT NULL, round_id TEXT, position INTEGER, "
    "dealer_id TEXT, recorded TEXT NOT NULL, expected TEXT NOT NULL, "
    "at_stake {money} NOT NULL, occurred_at TEXT, event_ids TEXT NOT NULL, "
    "notification_id {bigint} NOT NULL)"
)
"""The findings table as the view made it before issue #22."""
_OLD_ROWS = [
    # code, severity as judged then, rule, at_stake as stored then
    ("PG-DEAL-DICE-TOTAL", "warning", "PA 621a.6(c)", "175.00"),
    ("PG-SETTLE-VIG-SHORT", "warning", "PA 621a.8(k)", "0.25"),
    ("PG-ROT-CONSECUTIVE", "warning", "CA Pai Gow Tiles, Type of Game", "50.00"),
    ("ACC-HOLD-BAND", "info", "tablewatch statistical review (no regulation)", "812.00"),
]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path / "data"


def _connect(config):
    if config.postgres_url is not None:
        return psycopg.connect(config.postgres_url, autocommit=True), "%s"
    return sqlite3.connect(config.sqlite_path, isolation_level=None), "?"


def _store_from_before(config):
    """Make a store whose findings table is the old one, holding three judged rows."""
    FactStore(config).close()
    conn, mark = _connect(config)
    with closing(conn):
        postgres = config.postgres_url is not None
        conn.execute(_BEFORE.format(
            serial="BIGSERIAL" if postgres else "INTEGER",
            money="NUMERIC(14, 2)" if postgres else "TEXT",
            bigint="BIGINT" if postgres else "INTEGER",
        ))  # fmt: skip
        for number, (code, severity, rule, at_stake) in enumerate(_OLD_ROWS):
            conn.execute(
                "INSERT INTO findings (finding_id, code, severity, rule, title, table_id, "
                "recorded, expected, at_stake, event_ids, notification_id) VALUES "
                f"({', '.join([mark] * 11)})",
                (f"f-{number}", code, severity, rule, "t", "PG-01", "r", "e", at_stake, "[]", 1),
            )


def test_a_view_made_before_gains_the_columns_and_its_rows_their_money(store_config):
    _store_from_before(store_config)
    for _ in range(2):  # opened twice: the second open changes nothing
        store = FactStore(store_config)
        rows = {r["code"]: r for r in open_findings_view(store).select(FindingFilter())}
        store.close()
        dice, vig, rotation, band = (rows[code] for code, *_ in _OLD_ROWS)
        # A procedure breach's stored amount was the action it touched: now exposure.
        assert (dice["at_stake"], dice["exposure"], dice["severity"]) == (
            "0.00",
            "175.00",
            "warning",
        )
        # Vigorish collected short is money moved wrongly: critical by the default table.
        assert (vig["at_stake"], vig["exposure"], vig["severity"]) == ("0.25", "0.00", "critical")
        # A kind a rule set overrides keeps the severity it was judged with.
        assert (rotation["exposure"], rotation["severity"]) == ("50.00", "warning")
        # A statistical prompt stored its deviation as at stake: no money went wrong.
        assert (band["at_stake"], band["exposure"], band["severity"]) == ("0.00", "0.00", "info")
        assert {(r["gaming_day"], r["player_id"]) for r in rows.values()} == {(None, None)}


def test_the_view_filters_by_gaming_day_and_player(store_config):
    events, winner = tampered_shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = FindingsProjection(store)
    projection.catch_up()
    everything = projection.view.select(FindingFilter())
    [payout] = [
        r for r in everything
        if r["code"] == "PG-SETTLE-PAYOUT" and r["round_id"] == winner["round_id"]
    ]  # fmt: skip
    placed = next(
        e for e in events
        if e.type_name() == "wager_placed" and e.round_id == winner["round_id"]
        and e.position == winner["position"]
    )  # fmt: skip
    assert payout["player_id"] == placed.player_id is not None
    day = payout["gaming_day"]
    of_day = projection.view.select(FindingFilter(gaming_day=day))
    assert of_day
    assert all(r["gaming_day"] == day for r in of_day)
    assert projection.view.select(FindingFilter(gaming_day="1999-01-01")) == []
    of_player = projection.view.select(FindingFilter(player_id=placed.player_id))
    assert payout in of_player
    assert all(r["player_id"] == placed.player_id for r in of_player)


def test_the_findings_command_filters_by_day_and_player(data_dir, tmp_path, capsys):
    events, _winner = tampered_shift()
    path = tmp_path / "shift.jsonl"
    path.write_text("".join(event_json(e) + "\n" for e in events))
    assert main(["ingest", "--from-file", str(path)]) == 0
    capsys.readouterr()
    assert main(["findings", "--json"]) == 0
    every = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    player = next(r["player_id"] for r in every if r["player_id"])
    day = every[0]["gaming_day"]
    assert main(["findings", "--json", "--gaming-day", day, "--player", player]) == 0
    chosen = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    assert chosen == [r for r in every if r["gaming_day"] == day and r["player_id"] == player]
    assert main(["findings", "--player", player]) == 0
    out = capsys.readouterr().out
    assert f"player {player}" in out
    assert "money at stake $" in out
    assert "exposure" in out


@pytest.mark.parametrize("day", ["21-11-2026", "2026-13-01"])
def test_a_gaming_day_that_is_not_a_date_is_one_line(data_dir, capsys, day):
    assert main(["findings", "--gaming-day", day]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert repr(day) in err
