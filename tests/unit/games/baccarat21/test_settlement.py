"""Paying and collecting (PA 681a.7(h)-(k), 681a.8), and that money is conserved."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.baccarat21.bonus import BONUS_HANDS, BONUS_PAYTABLES, BonusHand
from audit.games.baccarat21.drawing import deal_round, play_round
from audit.games.baccarat21.settlement import (
    Bet,
    RoundResult,
    SettlementLine,
    Wager,
    bonus_on_table,
    house_net,
    positions_without_main_wager,
    settle_round,
    settle_wager,
)
from audit.games.cards.deck import CARDS, parse_cards
from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.wagering import HOUSE, Outcome

NOTHING, PAIR = BonusHand.NOTHING, BonusHand.PAIR
TABLE = BONUS_PAYTABLES["A"]


def result(player, banker, player_bonus=NOTHING, banker_bonus=NOTHING):
    return RoundResult(player, banker, player_bonus, banker_bonus)


@pytest.mark.parametrize(
    ("bet", "amount", "res", "expected"),
    [
        # PA 681a.8(a): 1 to 1 ...
        (Bet.PLAYER, 1000, result(20, 19), {"paid": 1000}),
        (Bet.BANKER, 1000, result(23, 18), {"paid": 1000}),
        (Bet.PLAYER, 1000, result(22, 24), {"paid": 1000}),
        # ... except a win with 17, soft or hard, against a lower total or a hand over 21: 1 to 2.
        (Bet.PLAYER, 1000, result(17, 22), {"paid": 500}),
        (Bet.BANKER, 1000, result(12, 17), {"paid": 500}),
        (Bet.PLAYER, 1001, result(17, 25), {"paid": 500}),  # half a cent rounded down
        # A hand at 17 that ties or loses is returned or collected as usual.
        (Bet.PLAYER, 1000, result(17, 17), {"returned": 1000}),
        (Bet.BANKER, 1000, result(18, 17), {"collected": 1000}),
        (Bet.PLAYER, 1000, result(18, 20), {"collected": 1000}),
        (Bet.BANKER, 1000, result(24, 24), {"returned": 1000}),
        # PA 681a.8(b): Tie 10 to 1, over 21 too (681a.6(d)(1) "equal in value").
        (Bet.TIE, 500, result(20, 20), {"paid": 5000}),
        (Bet.TIE, 500, result(23, 23), {"paid": 5000}),
        (Bet.TIE, 500, result(20, 21), {"collected": 500}),
        # PA 681a.8(c): Bonus from the paytable; no Bonus hand loses.
        (Bet.BONUS_PLAYER, 500, result(20, 20, PAIR), {"paid": 1500}),
        (Bet.BONUS_BANKER, 500, result(20, 20, PAIR), {"collected": 500}),
        (Bet.BONUS_BANKER, 500, result(25, 22, NOTHING, BonusHand.STRAIGHT), {"paid": 5500}),
    ],
)
def test_settle_wager(bet, amount, res, expected):
    wager = Wager(1, bet, amount)
    line = settle_wager(wager, res, TABLE)
    kind = next(iter(expected))
    outcome = {"paid": Outcome.WIN, "returned": Outcome.PUSH, "collected": Outcome.LOSE}[kind]
    assert line == SettlementLine(wager, outcome, **expected)


def test_a_natural_of_21_is_paid_even_money_and_a_bonus_card_does_not_change_it():
    # Banker 6 6 would draw; beside the Player's natural it takes one card for the Bonus only.
    deal = deal_round(parse_cards("AS 6H KD 6C 4S"), bonus_on_table=True)
    res = RoundResult.from_deal(deal)
    assert (res.player_total, res.banker_total, res.banker_bonus) == (21, 12, PAIR)
    wagers = [Wager(1, Bet.PLAYER, 1000), Wager(2, Bet.BANKER, 1000), Wager(2, Bet.TIE, 100),
              Wager(2, Bet.BONUS_BANKER, 100)]  # fmt: skip
    round_ = settle_round(wagers, res, TABLE)
    assert [line.net for line in round_.lines] == [1000, -1000, -100, 300]
    assert round_.nets() == {1: 1000, 2: -800, HOUSE: -200}


def test_wagers_are_checked():
    with pytest.raises(InvalidAmountError):
        Wager(1, Bet.PLAYER, 0)
    with pytest.raises(InvalidSettlementError, match="'player'"):
        Wager(1, "player", 100)
    with pytest.raises(InvalidSettlementError, match="-1"):
        Wager(-1, Bet.PLAYER, 100)
    with pytest.raises(InvalidSettlementError, match="two wagers"):
        settle_round([Wager(1, Bet.TIE, 100), Wager(1, Bet.TIE, 200)], result(20, 20), TABLE)
    with pytest.raises(InvalidSettlementError, match="not a bonus paytable"):
        settle_round([], result(20, 20), "A")


def test_repr_round_trips():
    line = settle_wager(Wager(4, Bet.BANKER, 700), result(17, 18), TABLE)
    namespace = {"SettlementLine": SettlementLine, "Wager": Wager, "Bet": Bet, "Outcome": Outcome}
    assert eval(repr(line), namespace) == line


def test_bonus_on_table_and_main_wager_checks():
    assert not bonus_on_table([Wager(1, Bet.PLAYER, 100), Wager(1, Bet.TIE, 100)])
    assert bonus_on_table([Wager(1, Bet.PLAYER, 100), Wager(2, Bet.BONUS_BANKER, 100)])
    wagers = [Wager(1, Bet.BONUS_PLAYER, 100), Wager(2, Bet.BANKER, 100), Wager(2, Bet.TIE, 5)]
    assert positions_without_main_wager(wagers) == [1]


# A wager is at least one 1-dollar chip: at 1 cent, a 1 to 2 win would round to nothing paid.
amounts = st.integers(100, 10**7)
results = st.builds(
    RoundResult,
    st.integers(2, 31),
    st.integers(2, 31),
    st.sampled_from(BONUS_HANDS),
    st.sampled_from(BONUS_HANDS),
)
wager_lists = st.lists(
    st.builds(Wager, st.integers(0, 7), st.sampled_from(list(Bet)), amounts),
    max_size=20,
    unique_by=lambda w: (w.position, w.bet),
)


@given(wager_lists, results, st.sampled_from(sorted(BONUS_PAYTABLES)))
def test_settlement_conserves_money(wagers, res, letter):
    round_ = settle_round(wagers, res, BONUS_PAYTABLES[letter])
    assert round_.is_balanced()
    nets = round_.nets()
    assert nets[HOUSE] == -sum(v for k, v in nets.items() if k != HOUSE)
    for line in round_.lines:
        # Exactly one flow, as the outcome says; never more collected than wagered.
        flows = {"paid": line.paid, "collected": line.collected, "returned": line.returned}
        assert sum(1 for v in flows.values() if v) == 1
        assert line.collected in (0, line.wager.amount)
        assert line.returned in (0, line.wager.amount)
        assert (line.outcome is Outcome.WIN) == (line.paid > 0)


@given(wager_lists, results)
def test_player_and_banker_wagers_mirror_each_other(wagers, res):
    """Swapping the hands swaps what the Player and Banker Wagers get (681a.7(i) and (j))."""
    swap = {Bet.PLAYER: Bet.BANKER, Bet.BANKER: Bet.PLAYER}
    mirrored = RoundResult(res.banker_total, res.player_total, res.banker_bonus, res.player_bonus)
    main = [w for w in wagers if w.bet in swap]
    for wager in main:
        line = settle_wager(wager, res, TABLE)
        other = settle_wager(Wager(wager.position, swap[wager.bet], wager.amount), mirrored, TABLE)
        assert (line.outcome, line.net) == (other.outcome, other.net)


@given(st.lists(st.sampled_from(CARDS), min_size=40, max_size=40),
       st.tuples(amounts, amounts, amounts, amounts, amounts))  # fmt: skip
def test_the_fast_path_moves_the_same_money(shoe, stakes):
    tally = play_round(shoe, 0, bonus_on_table=True)
    wagers = [Wager(1, bet, amount) for bet, amount in zip(Bet, stakes, strict=True)]
    round_ = settle_round(wagers, RoundResult.from_tally(tally), TABLE)
    assert house_net(tally, stakes, TABLE) == round_.nets()[HOUSE]
