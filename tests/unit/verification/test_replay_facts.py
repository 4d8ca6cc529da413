"""The replay's steps as data (audit/verification/replay_model.py): each step's recorded facts
beside the engine's, tiles and cards by name, money in cents, each step's time."""

from decimal import Decimal

from audit.events.paigow import wagers
from audit.games.baccarat21.settlement import Bet
from audit.verification.baccarat21 import replay as baccarat21_replay
from audit.verification.paigow.replay import StepKind, replay_round
from audit.verification.replay_model import Amount
from tests.builders.baccarat21_rounds import Table
from tests.builders.paigow_rounds import ROUND, clean_round


def facts(replay, kind):
    return replay.step(kind).facts


def test_every_step_of_a_clean_pai_gow_round_has_its_time_and_no_mismatch():
    rnd = clean_round()
    replay = replay_round(rnd.events, ROUND)
    assert replay.game == "paigow"
    times = [step.at for step in replay.steps if step.kind != StepKind.OTHER]
    assert all(times), [s.kind for s in replay.steps if s.at is None]
    assert times == sorted(times)  # the steps follow the round's clock
    started = next(e for e in rnd.events if e.type_name() == "round_started")
    assert replay.step(StepKind.ROUND).at == started.occurred_at
    assert all(f.same is not False for step in replay.steps for f in step.facts)


def test_each_delivery_carries_its_tiles_beside_the_expected_tiles():
    rnd = clean_round()
    delivered = [e for e in rnd.events if e.type_name() == "stack_delivered"]
    deal = facts(replay_round(rnd.events, ROUND), StepKind.DEAL)
    assert [f.pieces for f in deal] == [tuple(e.tiles) for e in delivered]
    assert all(set(f.pieces) == set(f.expected_pieces) and f.same for f in deal)
    assert [f.at for f in deal] == [e.occurred_at for e in delivered]


def test_a_switched_tile_is_a_delivery_unlike_the_expected():
    rnd = clean_round()
    dealt = rnd.first("stack_delivered", position=1)
    tiles = list(dealt.tiles)
    tiles[0] = "6-6a"
    rnd.replace(dealt, tiles=tiles)
    deal = facts(replay_round(rnd.events, ROUND), StepKind.DEAL)
    wrong = [f for f in deal if f.same is False]
    assert len(wrong) == 1
    assert wrong[0].recorded == "Position 1"
    assert "6-6a" in wrong[0].pieces
    assert "6-6a" not in wrong[0].expected_pieces


def test_the_dealers_hand_is_beside_the_house_way_and_a_players_hand_stands_alone():
    rnd = clean_round()
    hand = rnd.first("hand_set", position=0)
    rnd.replace(hand, high=[hand.high[0], hand.low[0]], low=[hand.high[1], hand.low[1]])
    replay = replay_round(rnd.events, ROUND)
    by_label = {f.label: f for f in facts(replay, StepKind.HANDS)}
    dealer = by_label["Dealer"]
    assert dealer.pieces == (hand.high[0], hand.low[0], hand.high[1], hand.low[1])
    assert dealer.same is False
    assert sorted(dealer.expected_pieces) == sorted(dealer.pieces)
    assert dealer.expected.startswith("house way")
    player = by_label["Position 1"]
    assert (player.expected, player.same, player.expected_pieces) == (None, None, ())
    # The finding sits under the step whose facts show it.
    assert "PG-SET-HOUSE-WAY" in [f.code for f in replay.step(StepKind.HANDS).findings]


def test_a_late_wager_is_a_fact_marked_against_no_more_bets():
    rnd = clean_round()
    rnd.insert_after(rnd.first("no_more_bets"), wagers.WagerPlaced, position=5,
                     amount=Decimal("50.00"), kind=wagers.WagerKind.PAI_GOW,
                     player_id="P-5")  # fmt: skip
    placed = facts(replay_round(rnd.events, ROUND), StepKind.WAGERS)
    late = next(f for f in placed if f.label == "Position 5")
    assert late.same is False
    assert late.amounts == (Amount("wager", 50_00),)
    assert all(f.same for f in placed if f.label.startswith("Position") and f is not late)


def test_a_wrong_payout_is_a_money_flow_unlike_the_engines():
    rnd = clean_round(wagers_at={1: "25.00"})
    settled = rnd.first("wager_settled", position=1)
    rnd.replace(settled, collected=Decimal("20.00"))
    rows = facts(replay_round(rnd.events, ROUND), StepKind.SETTLEMENT)
    row = next(f for f in rows if f.label == "Position 1")
    assert row.same is False
    flows = {a.name: a for a in row.amounts}
    assert flows["wager"].recorded == 25_00
    assert flows["collected"].recorded == 20_00
    assert flows["collected"].expected == 25_00
    assert flows["collected"].same is False
    assert flows["paid"].same is True
    nets = next(f for f in rows if f.label == "nets")
    assert sum(a.expected for a in nets.amounts) == 0  # money moves, none appears
    assert {a.same for a in nets.amounts} == {None}  # the engine's alone: nothing to compare


def test_a_baccarat_round_carries_its_cards_one_fact_each():
    table = Table().open()
    round_id = table.round([(1, Bet.PLAYER, 100_00)], "P AS, B 6H, P KD, B 6C")
    replay = baccarat21_replay.replay_round(table.events, round_id)
    assert replay.game == "baccarat21"
    cards = replay.step("cards").facts
    assert [f.pieces for f in cards] == [("AS",), ("6H",), ("KD",), ("6C",)]
    assert all(f.same for f in cards)
    result = {f.label: f.pieces for f in replay.step("result").facts}
    assert result == {"Player's Hand": ("AS", "KD"), "Banker's Hand": ("6H", "6C")}
    assert replay.step("cards").at == next(
        e.occurred_at for e in table.events if e.type_name() == "b21_card_dealt"
    )


def test_a_card_sent_to_the_wrong_hand_and_an_overpayment_are_marked():
    table = Table().open()
    round_id = table.round(
        [(1, Bet.BANKER, 100_00)],
        "P TS, P 5D, B 9H, B 9C, P 2S",
        settled={(1, Bet.BANKER): ("win", 105_00, 0, 0)},
    )
    replay = baccarat21_replay.replay_round(table.events, round_id)
    cards = replay.step("cards").facts
    assert cards[1].same is False
    assert cards[1].expected.startswith("banker")
    row = replay.step("settlement").facts[0]
    paid = next(a for a in row.amounts if a.name == "paid")
    assert paid.recorded == 105_00
    assert paid.same is False
    assert "B21-DEAL-ORDER" in [f.code for f in replay.step("cards").findings]
