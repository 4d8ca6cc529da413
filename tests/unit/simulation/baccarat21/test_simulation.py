"""The simulated 21 Baccarat table: seeded, rule-correct, and its books reconcile to the cent."""

import random
from collections import Counter, defaultdict
from itertools import pairwise

import pytest

from audit.accounting.baccarat21 import Baccarat21Money
from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.accounting.reconcile import Reconciler
from audit.events.catalogue import event_dict, parse_event
from audit.games.baccarat21.drawing import deal_round
from audit.games.baccarat21.settlement import MAIN_BETS, Bet, RoundResult, Wager, settle_wager
from audit.games.cards.deck import parse_cards
from audit.games.money import to_cents
from audit.simulation.accounting import keep_books
from audit.simulation.baccarat21.shift import baccarat_table_events, set_up_baccarat_table
from audit.simulation.baccarat21.table import Rates
from audit.simulation.count_room import closing_time, count_room
from audit.simulation.shift import ShiftConfig


def play(seed, rounds=150, numbers=(3, 7), shifts=1, books=False, rates=None):
    config = ShiftConfig(rounds_per_table=rounds, shifts=shifts)
    rng = random.Random(seed)
    tables = [
        set_up_baccarat_table(n, config, random.Random(rng.getrandbits(64)), rates) for n in numbers
    ]
    kept = keep_books(tables, shifts, rounds) if books else []
    events = [e for table in tables for e in baccarat_table_events(table, rounds)]
    return tables, kept, events


def test_a_seed_gives_the_same_stream():
    assert play(4, rounds=30)[2] == play(4, rounds=30)[2]


def test_every_event_round_trips_through_the_catalogue():
    for event in play(5, rounds=60)[2]:
        assert parse_event(event_dict(event)) == event


def test_tables_open_as_21_baccarat_under_pa_681a_and_close():
    tables, _, events = play(6, rounds=5)
    for table in tables:
        own = [e for e in events if e.table_id == table.table_id]
        assert table.table_id.startswith("B21-")
        assert (own[0].type, own[0].game, own[0].rule_set) == (
            "table_opened", "baccarat21", "pa-681a",
        )  # fmt: skip
        assert own[-1].type == "table_closed"
        assert [e.seq for e in own] == list(range(len(own)))


def test_rounds_are_the_engines_deal_and_settlement():
    """Replay each round's recorded cards through deal_round: same hands, same money."""
    tables, _, events = play(7, rounds=200)
    paytables = {t.table_id: t.rule_set.paytable for t in tables}
    rounds = defaultdict(list)
    for event in events:
        if event.round_id is not None:
            rounds[event.round_id].append(event)
    for round_events in rounds.values():
        cards = [e for e in round_events if e.type == "b21_card_dealt"]
        placed = [e for e in round_events if e.type == "b21_wager_placed"]
        bonus = any(e.bet not in MAIN_BETS and e.bet is not Bet.TIE for e in placed)
        deal = deal_round(parse_cards(e.card for e in cards), bonus)
        assert [(d.hand, d.bonus_only) for d in deal.cards] == [
            (e.hand, e.bonus_only) for e in cards
        ]
        result = RoundResult.from_deal(deal)
        settled = [e for e in round_events if e.type == "b21_wager_settled"]
        assert len(settled) == len(placed)
        wagers = {(e.position, e.bet): e for e in placed}
        for event in settled:
            wager = wagers[(event.position, event.bet)]
            paytable = paytables[event.table_id]
            line = settle_wager(Wager(wager.position, wager.bet, to_cents(wager.amount)),
                                result, paytable)  # fmt: skip
            assert (event.outcome, to_cents(event.paid), to_cents(event.collected),
                    to_cents(event.returned)) == (
                line.outcome.value, line.paid, line.collected, line.returned,
            )  # fmt: skip


def test_every_position_has_a_main_wager_and_seats_are_one_to_eight():
    _, _, events = play(8, rounds=100)
    by_position = defaultdict(set)
    for event in events:
        if event.type == "b21_wager_placed":
            assert 1 <= event.position <= 8
            by_position[(event.round_id, event.position)].add(event.bet)
    assert all(bets & MAIN_BETS for bets in by_position.values())
    assert {bet for bets in by_position.values() for bet in bets} == set(Bet)


def test_the_shoe_is_reshuffled_after_the_cover_card_and_batches_alternate():
    tables, _, events = play(9, rounds=400, numbers=(2, 5, 11, 14))
    for table in tables:
        own = [e for e in events if e.table_id == table.table_id]
        kinds = [e.type for e in own]
        assert kinds.count("cover_card_appeared") >= 1
        for i, kind in enumerate(kinds):
            if kind == "cover_card_appeared":  # the round is completed, then a fresh shoe
                after = kinds[i:]
                assert "round_started" not in after[: after.index("round_completed")]
                if "round_started" in after:
                    assert after.index("shoe_loaded") < after.index("round_started")
        loaded = [e.batch for e in own if e.type == "shoe_loaded"]
        if table.rule_set.batches:
            assert all(a != b for a, b in pairwise(loaded))
        else:
            assert set(loaded) == {0}


def test_a_new_dealer_burns_before_dealing():
    _, _, events = play(10, rounds=300, numbers=(4, 8, 9))
    changes = 0
    for i, event in enumerate(events):
        if event.type == "dealer_changed":
            changes += 1
            following = [e.type for e in events[i + 1 :] if e.table_id == event.table_id]
            assert following.index("card_burned") < following.index("b21_card_dealt")
    assert changes


def test_a_face_up_card_is_discarded_and_not_dealt():
    _, _, events = play(11, rounds=80, rates=Rates(face_up_card=0.05))
    found = [e for e in events if e.type == "card_found_face_up"]
    assert found
    assert {e.disposition for e in found} == {"discarded"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_reader_replays_the_engines_house_net_to_the_cent(seed):
    tables, books, events = play(seed, rounds=200, numbers=(1, 6, 13), books=True)
    replayed = {}
    for table in tables:
        money, replay = Baccarat21Money(), ReplayedWin()
        rounds = sum(money.observe(e, replay, HoldBand()) for e in events
                     if e.table_id == table.table_id)  # fmt: skip
        assert rounds == 200
        replayed[table.table_id] = replay.total
    assert replayed == {book.table.table_id: book.engine_win for book in books}
    assert Counter(e.type for e in events)["buy_in_recorded"] >= len(tables)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_table_with_books_reconciles_accounting_win_to_replayed_win(seed):
    tables, books, events = play(seed, rounds=120, numbers=(2, 9), shifts=2, books=True)
    reconciler = Reconciler()
    for event in events:
        assert reconciler.feed(event) == []
    for event in count_room(books, random.Random(seed), closing_time(tables), None):
        assert reconciler.feed(event) == []
    assert reconciler.slip_gaps() == []
    assert {key.shift for key in reconciler.ledgers} == {"day", "swing"}
    for key, ledger in reconciler.ledgers.items():
        assert ledger.game == "baccarat21"
        assert ledger.accounting_win is not None, key
        assert ledger.accounting_win == ledger.replay.total, key
    by_table = defaultdict(int)
    for key, ledger in reconciler.ledgers.items():
        by_table[key.table_id] += ledger.replay.total
    assert by_table == {book.table.table_id: book.engine_win for book in books}
