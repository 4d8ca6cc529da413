"""The hand-history projection: every round, every position, rebuilt from the facts exactly once."""

import random
import sqlite3
from collections import defaultdict
from decimal import Decimal

from audit.events.catalogue import event_dict, parse_event
from audit.games.paigow.hands import describe_hand
from audit.games.paigow.tiles import parse_tile
from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Accepted, Ingestor
from projections.hand_history import TRACKING_NAME, HandHistoryProjection, _sql

MIX = (("pa-2019", 0.6), ("california", 0.4))


def shift(seed=3):
    """Two PA tables (a player bank and a co-bank among them) and a California table."""
    return list(simulate_shift(ShiftConfig(3, 6, rule_set_mix=MIX), random.Random(seed)))


def ingest(store, events, name="test"):
    Ingestor(store).record_batch([Accepted(e, "t") for e in events], name, len(events) - 1)


def comparable(projection):
    return [
        {k: v for k, v in row.items() if k != "notification_id"} for row in projection.view.select()
    ]


def expected_positions(events):
    """Each completed round's positions, worked out from the events directly."""
    rules = {e.table_id: e.rule_set for e in events if e.type_name() == "table_opened"}
    positions = defaultdict(set)
    banks = {}
    for e in events:
        kind = e.type_name()
        if kind == "wager_placed" and e.kind.value == "pai_gow":
            positions[(e.table_id, e.round_id)].add(e.position)
        elif kind == "bank_accepted":
            banks[(e.table_id, e.round_id)] = e.position
        elif kind == "dealer_wager_against_bank":  # the dealer's hand plays the bank too
            positions[(e.table_id, e.round_id)].add(0)
    completed = {(e.table_id, e.round_id) for e in events if e.type_name() == "round_completed"}
    for key in completed:
        bank = 0 if rules[key[0]] == "california" else banks.get(key, 0)
        positions[key].add(bank)
    return {key: positions[key] for key in completed}, rules, banks


def test_rows_reconstruct_every_round(store_config):
    events = shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = HandHistoryProjection(store)
    written = projection.catch_up()
    rows = projection.view.select()
    assert written == len(rows)
    by_round = defaultdict(set)
    for row in rows:
        by_round[(row["table_id"], row["round_id"])].add(row["position"])
    positions, rules, banks = expected_positions(events)
    assert by_round == positions

    # A known round: a Pai Gow winner's tiles, setting and money, as the events recorded them.
    win = next(
        e for e in events
        if e.type_name() == "wager_settled" and e.outcome == "win" and e.kind.value == "pai_gow"
    )  # fmt: skip
    same = [e for e in events if e.round_id == win.round_id]
    [row] = [
        r for r in projection.view.select(round_id=win.round_id) if r["position"] == win.position
    ]
    dealt = next(
        e for e in same if e.type_name() == "stack_delivered" and e.position == row["position"]
    )
    hand = next(e for e in same if e.type_name() == "hand_set" and e.position == row["position"])
    placed = sum(
        (e.amount for e in same
         if e.type_name() == "wager_placed" and e.position == win.position
         and e.kind.value == "pai_gow"),
        Decimal("0.00"),
    )  # fmt: skip
    assert row["tiles"] == " ".join(dealt.tiles)
    assert row["high"] == " ".join(hand.high)
    assert row["low"] == " ".join(hand.low)
    assert row["high_name"] == describe_hand(*map(parse_tile, hand.high)).name
    assert row["set_by"] == hand.set_by
    assert (row["outcome"], row["wager"]) == ("win", str(placed))
    assert (row["paid"], row["vigorish"]) == (str(win.paid), str(win.vigorish))
    assert row["started_at"] == same[0].occurred_at.isoformat()
    assert row["completed_at"] == same[-1].occurred_at.isoformat()
    assert not row["voided"]

    # Player-banked rounds on a PA table: the bank's hand and the banking column.
    co_banked = {e.round_id for e in events if e.type_name() == "co_bank_requested"}
    pa_banks = [(k, p) for k, p in banks.items() if rules[k[0]] != "california"]
    assert {k[1] in co_banked for k, _ in pa_banks} == {True, False}
    for (table_id, round_id), position in pa_banks:
        round_rows = projection.view.select(table_id=table_id, round_id=round_id)
        expected = "co-bank" if round_id in co_banked else "player bank"
        assert {r["banking"] for r in round_rows} == {expected}
        [banker] = [r for r in round_rows if r["is_bank"]]
        assert banker["position"] == position
        assert banker["high"] is not None

    # California: every row player-dealer, position 0 the banker with its own wager and fee.
    [ca_table] = [t for t, name in rules.items() if name == "california"]
    ca_rows = projection.view.select(table_id=ca_table)
    assert ca_rows
    assert {r["banking"] for r in ca_rows} == {"player-dealer"}
    dealers = [r for r in ca_rows if r["position"] == 0]
    assert len(dealers) == sum(1 for k in positions if k[0] == ca_table)
    assert all(r["is_bank"] and r["wager"] is not None for r in dealers)
    assert all(r["collection_fee"] is not None for r in dealers)
    assert all(r["vigorish"] in (None, "0.00") for r in ca_rows)

    dealer_id = rows[0]["dealer_id"]
    assert {r["dealer_id"] for r in projection.view.select(dealer_id=dealer_id)} == {dealer_id}
    assert len(projection.view.select(limit=3)) == 3

    # Nothing new: nothing written; a restart writes nothing twice.
    assert projection.catch_up() == 0
    restarted = HandHistoryProjection(FactStore(store_config))
    assert restarted.catch_up() == 0
    assert comparable(restarted) == comparable(projection)


def test_incremental_equals_all_at_once_and_open_rounds_close_at_table_closed(
    store_config, tmp_path
):
    events = shift(seed=8)
    # One round loses its round_completed: it is closed out when its table closes.
    dropped = next(i for i, e in enumerate(events) if e.type_name() == "round_completed")
    lost = events[dropped]
    events = events[:dropped] + events[dropped + 1 :]
    store = FactStore(store_config)
    half = len(events) // 2
    ingest(store, events[:half])
    incremental = HandHistoryProjection(store)
    incremental.catch_up()
    ingest(store, events[half:], name="test2")
    resumed = HandHistoryProjection(FactStore(store_config))  # a restart between the halves
    resumed.catch_up(batch=100)
    assert resumed.position == store.last_notification_id()

    whole = FactStore(StoreConfig.sqlite(tmp_path / "whole.sqlite"))
    ingest(whole, events)
    at_once = HandHistoryProjection(whole)
    at_once.catch_up()
    assert comparable(resumed) == comparable(at_once)
    open_rows = resumed.view.select(table_id=lost.table_id, round_id=lost.round_id)
    assert open_rows
    assert all(r["completed_at"] is None for r in open_rows)


def test_a_rebuild_from_zero_gives_the_same_rows(tmp_path):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    store = FactStore(config)
    ingest(store, [parse_event(event_dict(e)) for e in shift(seed=3)])
    first = HandHistoryProjection(store)
    first.catch_up()
    before = first.view.select()
    with sqlite3.connect(config.sqlite_path) as conn:  # drop the view, keep the facts
        conn.execute("DELETE FROM hand_history")
        conn.execute("DELETE FROM tracking WHERE application_name = ?", (TRACKING_NAME,))
    rebuilt = HandHistoryProjection(FactStore(config))
    rebuilt.catch_up()
    assert rebuilt.view.select() == before


def test_each_hand_keeps_its_player(store_config):
    events = shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = HandHistoryProjection(store)
    projection.catch_up()
    rules = {e.table_id: e.rule_set for e in events if e.type_name() == "table_opened"}
    wagered = {
        (e.table_id, e.round_id, e.position): e.player_id
        for e in events
        if e.type_name() == "wager_placed" and e.kind.value == "pai_gow"
    }
    banks = {(e.table_id, e.round_id): e for e in events if e.type_name() == "bank_accepted"}
    rows = projection.view.select()
    for row in rows:
        key = (row["table_id"], row["round_id"])
        bank = banks.get(key)
        if row["is_bank"] and bank is not None:  # a player bank, or CA's player-dealer at 0
            assert row["player_id"] == bank.player_id
        elif row["position"] == 0 and rules[row["table_id"]] != "california":
            assert row["player_id"] is None  # the house dealer's hand
        else:
            assert row["player_id"] == wagered[(*key, row["position"])]
    player = next(r["player_id"] for r in rows if r["player_id"])
    mine = projection.view.select(player_id=player)
    assert mine
    assert {r["player_id"] for r in mine} == {player}


def test_a_table_from_before_the_player_column_gets_it(tmp_path):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    store = FactStore(config)
    with sqlite3.connect(config.sqlite_path) as conn:  # the table as an older version left it
        conn.execute(_sql("TEXT", "INTEGER", "INTEGER").replace("player_id TEXT, ", ""))
    ingest(store, shift())
    projection = HandHistoryProjection(FactStore(config))
    with sqlite3.connect(config.sqlite_path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(hand_history)")}
    assert "player_id" in columns
    projection.catch_up()
    assert any(r["player_id"] for r in projection.view.select())
    assert projection.view.select(player_id="nobody") == []


# --- 21 Baccarat -------------------------------------------------------------------------------


def mixed_shift(seed=1):
    """A Pai Gow table and two 21 Baccarat tables (Tie and Bonus wagers among their rounds)."""
    config = ShiftConfig(3, 12, games=(("paigow", 1 / 3), ("baccarat21", 2 / 3)))
    return list(simulate_shift(config, random.Random(seed)))


def check_baccarat21_row(row, same):
    """Hold one 21 Baccarat row to its round's events."""
    cards = {h: [e.card for e in same if e.type_name() == "b21_card_dealt" and e.hand.value == h]
             for h in ("player", "banker")}  # fmt: skip
    assert (row["player_cards"], row["banker_cards"]) == tuple(
        " ".join(cards[h]) or None for h in cards
    )
    mine = [e for e in same if getattr(e, "position", None) == row["position"]]
    settled = [e for e in same if e.type_name() == "b21_wager_settled"]
    main = {e.bet.value: e.outcome for e in settled if e.bet.value in ("player", "banker")}
    if row["result"] == "tie":
        assert set(main.values()) <= {"push"}
    elif row["result"] is not None:
        other = "banker" if row["result"] == "player" else "player"
        assert main.get(row["result"], "win") == "win"
        assert main.get(other, "lose") == "lose"

    def money(bets, field):
        found = [e for e in mine if e.type_name() == "b21_wager_settled" and e.bet.value in bets]
        return str(sum((getattr(e, field) for e in found), Decimal("0.00"))) if found else None

    def staked(bets):
        cents = sum((e.amount for e in mine if e.type_name() == "b21_wager_placed"
                     and e.bet.value in bets), Decimal("0.00"))  # fmt: skip
        cents -= sum((e.amount for e in mine if e.type_name() == "b21_wager_removed"
                      and e.bet.value in bets), Decimal("0.00"))  # fmt: skip
        return str(cents) if cents else None

    bonus = {"bonus_player", "bonus_banker"}
    assert (row["wager"], row["tie_wager"], row["bonus_wager"]) == (
        staked({"player", "banker"}),
        staked({"tie"}),
        staked(bonus),
    )
    assert (row["paid"], row["collected"], row["returned"]) == tuple(
        money({"player", "banker"}, field) for field in ("paid", "collected", "returned")
    )
    assert (row["tie_paid"], row["bonus_paid"]) == (money({"tie"}, "paid"), money(bonus, "paid"))
    bets = {e.bet.value for e in mine if e.type_name() in ("b21_wager_placed", "b21_wager_settled")}
    assert set(row["bet"].split(", ")) <= bets


def test_a_21_baccarat_round_has_a_row_per_position_with_its_hands_and_money(store_config):
    events = mixed_shift()
    store = FactStore(store_config)
    ingest(store, events)
    projection = HandHistoryProjection(store)
    projection.catch_up()
    games = {e.table_id: e.game for e in events if e.type_name() == "table_opened"}
    rows = projection.view.select()
    assert {r["game"] for r in rows} == {"paigow", "baccarat21"}
    assert all(r["game"] == games[r["table_id"]] for r in rows)

    # Every completed round: one row per position that placed a wager, with its player.
    completed = {(e.table_id, e.round_id) for e in events if e.type_name() == "round_completed"}
    placed = defaultdict(set)
    players = {}
    for e in events:
        if e.type_name() == "b21_wager_placed":
            placed[(e.table_id, e.round_id)].add(e.position)
            players[(e.table_id, e.round_id, e.position)] = e.player_id
    b21 = [r for r in rows if r["game"] == "baccarat21"]
    by_round = defaultdict(set)
    for row in b21:
        by_round[(row["table_id"], row["round_id"])].add(row["position"])
        assert row["player_id"] == players[(row["table_id"], row["round_id"], row["position"])]
        assert (row["banking"], row["is_bank"], row["tiles"]) == ("dealer", False, None)
    assert by_round == {key: placed[key] for key in completed if games[key[0]] == "baccarat21"}

    # Every row worked out from its round's events: the hands as dealt, the result as the
    # main wagers were settled, and each bet's money.
    rounds = defaultdict(list)
    for e in events:
        rounds[(e.table_id, e.round_id)].append(e)
    for row in b21:
        same = rounds[(row["table_id"], row["round_id"])]
        check_baccarat21_row(row, same)
    assert any(r["tie_wager"] for r in b21)
    assert any(r["bonus_wager"] for r in b21)
    assert {r["result"] for r in b21} >= {"player", "banker"}

    # A restart writes nothing twice; a player's hands are found across both games' tables.
    restarted = HandHistoryProjection(FactStore(store_config))
    assert restarted.catch_up() == 0
    assert comparable(restarted) == comparable(projection)
    player = next(r["player_id"] for r in b21 if r["player_id"])
    assert {r["game"] for r in projection.view.select(player_id=player)} == {"baccarat21"}


def test_a_table_from_before_the_game_columns_gets_them_and_old_rows_read_pai_gow(tmp_path):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    with sqlite3.connect(config.sqlite_path) as conn:  # the table as version 2 left it
        first = _sql("TEXT", "INTEGER", "INTEGER")
        conn.execute(
            first[: first.index("game TEXT")] + "PRIMARY KEY (table_id, round_id, position))"
        )
        conn.execute(
            "INSERT INTO hand_history (table_id, round_id, position, banking, bank_position, "
            "is_bank, voided, notification_id) VALUES ('PG-01', 'r1', 1, 'dealer', 0, 0, 0, 1)"
        )
    store = FactStore(config)
    ingest(store, mixed_shift())
    projection = HandHistoryProjection(store)
    projection.catch_up()
    [old] = projection.view.select(round_id="r1")
    assert old["game"] == "paigow"
    assert old["bet"] is None
    assert any(r["game"] == "baccarat21" and r["player_cards"] for r in projection.view.select())


def test_a_dealers_or_players_hands_are_read_in_order_from_an_index(tmp_path):
    """#16: SQLite keeps no statistics here; a page of a dealer's or a player's hands must come
    in the query's order from an index, not from every hand of theirs in history sorted."""
    from projections.hand_history import _query

    projection = HandHistoryProjection(FactStore(StoreConfig.sqlite(tmp_path / "h.sqlite")))
    for filters in ({"dealer_id": "D-1"}, {"player_id": "P-1"}, {"table_id": "PG-01"}):
        sql, params = _query(filters, 100, "?")
        with projection.view.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row[3]) for row in cursor.fetchall())
        assert "USING INDEX" in plan, plan
        assert "TEMP B-TREE" not in plan, (filters, plan)
