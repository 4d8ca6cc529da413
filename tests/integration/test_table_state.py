"""The table-state projection: one row per table, upserted with the view's position."""

import random
import sqlite3
from datetime import datetime, timedelta

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from projections.table_state import TRACKING_NAME, TableStateProjection

MIX = (("pa-2019", 0.6), ("california", 0.4))


def shift(seed=5):
    """Two PA tables (player banks among their rounds) and a California table."""
    return list(simulate_shift(ShiftConfig(3, 6, rule_set_mix=MIX), random.Random(seed)))


def ingest(store, events, name="test"):
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], name, len(events) - 1)


def comparable(projection):
    return [
        {k: v for k, v in row.items() if k != "notification_id"} for row in projection.view.select()
    ]


def expected(events):
    """Each table's state, worked out from its events directly."""
    tables = {}
    for e in events:
        if e.type_name() == "drop_counted":
            continue  # the count room is a station, not a table
        state = tables.setdefault(
            e.table_id, {"rounds_played": 0, "rounds_in_game": 0, "bank": (None, 0)}
        )
        state["last_event_at"] = e.occurred_at.isoformat()
        kind = e.type_name()
        if kind == "table_opened":
            state.update(rule_set=e.rule_set, gaming_day=e.gaming_day.isoformat(), is_open=True)
        elif kind == "table_closed":
            state["is_open"] = False
        elif kind == "tile_set_received" and "tile_set_id" not in state:
            state.update(tile_set_id=e.tile_set_id, tiles_since=e.occurred_at.isoformat())
        elif kind == "tile_set_replaced":  # the dealer restacks: a new game
            state.update(tile_set_id=e.new_tile_set_id, tiles_since=e.occurred_at.isoformat())
            state["rounds_in_game"] = 0
        elif kind == "dice_placed_in_shaker":
            state.update(dice_set_id=e.dice_set_id, dice_since=e.occurred_at.isoformat())
        elif kind == "round_started":
            state["banked_by"] = None
            state["dealer_id"] = e.dealer_id
        elif kind == "bank_accepted":
            state["banked_by"] = e.position
        elif kind == "round_completed":
            state["rounds_played"] += 1
            state["rounds_in_game"] += 1
            position, streak = state["bank"]
            banked_by = state["banked_by"]
            if banked_by is None:
                state["bank"] = (None, 0)
            else:
                state["bank"] = (banked_by, streak + 1 if position == banked_by else 1)
    return tables


def test_one_row_per_table_as_its_events_tell_it(store_config):
    events = shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = TableStateProjection(store)
    assert projection.catch_up() == 3
    rows = projection.view.select()
    want = expected(events)
    assert [r["table_id"] for r in rows] == sorted(want)
    for row in rows:
        table = want[row["table_id"]]
        for name in (
            "rule_set",
            "gaming_day",
            "is_open",
            "tile_set_id",
            "tiles_since",
            "dice_set_id",
            "dice_since",
            "rounds_played",
            "rounds_in_game",
            "last_event_at",
            "dealer_id",
        ):
            assert row[name] == table[name], (row["table_id"], name)  # fmt: skip
        assert (row["bank_position"], row["bank_streak"]) == table["bank"]
    assert any(r["rule_set"] == "california" for r in rows)

    row = rows[0]
    later = max(r["last_event_at"] for r in rows)
    now = datetime.fromisoformat(later) + timedelta(hours=1)
    ages = projection.view.ages(now)
    assert set(ages) == {r["table_id"] for r in rows}
    assert ages[row["table_id"]]["tiles"] == now - datetime.fromisoformat(row["tiles_since"])
    assert ages[row["table_id"]]["dice"] > timedelta(hours=1)

    assert projection.catch_up() == 0
    restarted = TableStateProjection(FactStore(store_config))
    assert restarted.catch_up() == 0
    assert comparable(restarted) == comparable(projection)


def test_incremental_upserts_equal_all_at_once(store_config, tmp_path):
    events = shift(seed=8)
    store = FactStore(store_config)
    half = len(events) // 2
    ingest(store, events[:half])
    incremental = TableStateProjection(store)
    incremental.catch_up()
    assert all(r["is_open"] for r in incremental.view.select())  # mid-shift: every table open
    ingest(store, events[half:], name="test2")
    resumed = TableStateProjection(FactStore(store_config))  # a restart between the halves
    resumed.catch_up(batch=50)
    assert resumed.position == store.last_notification_id()
    rows = resumed.view.select()
    assert len(rows) == 3
    assert not any(r["is_open"] for r in rows)

    whole = FactStore(StoreConfig.sqlite(tmp_path / "whole.sqlite"))
    ingest(whole, events)
    at_once = TableStateProjection(whole)
    at_once.catch_up()
    assert comparable(resumed) == comparable(at_once)


def test_a_rebuild_from_zero_gives_the_same_rows(tmp_path):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    store = FactStore(config)
    ingest(store, shift(seed=3))
    first = TableStateProjection(store)
    first.catch_up()
    before = first.view.select()
    with sqlite3.connect(config.sqlite_path) as conn:  # drop the view, keep the facts
        conn.execute("DELETE FROM table_state")
        conn.execute("DELETE FROM tracking WHERE application_name = ?", (TRACKING_NAME,))
    rebuilt = TableStateProjection(FactStore(config))
    rebuilt.catch_up()
    assert rebuilt.view.select() == before


def test_a_21_baccarat_table_shows_its_shoe_in_play(store_config):
    config = ShiftConfig(2, 80, games=(("paigow", 0.5), ("baccarat21", 0.5)))
    events = list(simulate_shift(config, random.Random(5)))
    store = FactStore(store_config)
    ingest(store, events)
    projection = TableStateProjection(store)
    projection.catch_up()
    rows = {r["table_id"]: r for r in projection.view.select()}
    [b21] = [
        e.table_id for e in events if e.type_name() == "table_opened" and e.game == "baccarat21"
    ]
    mine = [e for e in events if e.table_id == b21]
    loads = [i for i, e in enumerate(mine) if e.type_name() == "shoe_loaded"]
    assert len(loads) >= 2  # a cover card came out: a second shoe is in play
    last = mine[loads[-1]]
    shuffled = [e for e in mine[: loads[-1]] if e.type_name() == "shoe_shuffled"][-1]
    since = mine[loads[-1] :]
    row = rows[b21]
    assert (row["game"], row["shoe_number"], row["shoe_decks"]) == (
        "baccarat21",
        len(loads),
        shuffled.decks,
    )
    assert row["shoe_since"] == last.occurred_at.isoformat()
    assert row["shoe_rounds"] == sum(e.type_name() == "round_completed" for e in since)
    assert row["rounds_played"] == sum(e.type_name() == "round_completed" for e in mine)
    assert (row["tile_set_id"], row["dice_set_id"], row["is_open"]) == (None, None, False)
    pai_gow = [r for t, r in rows.items() if t != b21]
    assert all(r["game"] == "paigow" and r["shoe_number"] is None for r in pai_gow)


def test_a_table_from_before_the_game_columns_gets_them(tmp_path):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    with sqlite3.connect(config.sqlite_path) as conn:  # the table as version 2 left it
        conn.execute(
            "CREATE TABLE table_state (table_id TEXT PRIMARY KEY, rule_set TEXT NOT NULL, "
            "gaming_day TEXT, is_open INTEGER NOT NULL, dealer_id TEXT, tile_set_id TEXT, "
            "tiles_since TEXT, dice_set_id TEXT, dice_since TEXT, rounds_played INTEGER NOT NULL, "
            "rounds_in_game INTEGER NOT NULL, bank_position INTEGER, bank_streak INTEGER NOT NULL, "
            "last_event_at TEXT, notification_id INTEGER NOT NULL)"
        )
        conn.execute("INSERT INTO table_state VALUES ('PG-01', 'nj', NULL, 0, NULL, NULL, NULL, "
                     "NULL, NULL, 0, 0, NULL, 0, NULL, 1)")  # fmt: skip
    projection = TableStateProjection(FactStore(config))
    [old] = projection.view.select()
    assert (old["game"], old["shoe_number"]) == ("paigow", None)
