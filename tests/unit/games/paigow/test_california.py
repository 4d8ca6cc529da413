import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.paigow.california import settle_california
from audit.games.paigow.collection import COLLECTION_SCHEDULES
from audit.games.paigow.settlement import BANK, BankingMode, SettlementLine, Wager
from audit.games.wagering import HOUSE, Outcome

WIN, PUSH, LOSE = Outcome.WIN, Outcome.PUSH, Outcome.LOSE


def test_coverage_runs_out_part_way_round_the_table():
    # The player-dealer wagers $100: seats 1 and 2 win $60 and $30 of it, seat 3 is
    # paid the last $10 of its $50, and seat 4's win is returned untouched.
    round_ = settle_california(
        [Wager(1, 6000, WIN), Wager(2, 3000, WIN), Wager(3, 5000, WIN), Wager(4, 2000, WIN)],
        10000,
    )
    assert round_.mode is BankingMode.CALIFORNIA
    assert [(line.paid, line.covered, line.returned) for line in round_.lines] == [
        (6000, 6000, 0),
        (3000, 3000, 0),
        (1000, 1000, 4000),
        (0, 0, 2000),
    ]
    assert round_.nets() == {1: 6000, 2: 3000, 3: 1000, 4: 0, BANK: -10000, HOUSE: 0}
    assert round_.is_balanced()


def test_winnings_are_capped_too():
    round_ = settle_california(
        [Wager(5, 4000, LOSE), Wager(6, 4000, LOSE), Wager(7, 4000, LOSE)], 10000
    )
    assert [(line.collected, line.returned) for line in round_.lines] == [
        (4000, 0),
        (4000, 0),
        (2000, 2000),
    ]
    assert round_.nets()[BANK] == 10000


def test_collected_losses_do_not_pay_later_winners():
    """CA: the player-dealer "can only receive action on the amount wagered": seat 1's
    losing $40 takes $40 of its $100 of action, and seat 2 is covered for the other $60."""
    round_ = settle_california([Wager(1, 4000, LOSE), Wager(2, 20000, WIN)], 10000)
    assert round_.lines[1] == SettlementLine(Wager(2, 20000, WIN), paid=6000, returned=14000)
    assert round_.nets()[BANK] == 4000 - 6000


def test_the_issues_example_a_loser_exhausts_the_coverage_and_the_winner_is_returned():
    # The player-dealer wagers $50; seat 3 loses $50, then seat 2 wins $100.
    round_ = settle_california([Wager(3, 5000, LOSE), Wager(2, 10000, WIN)], 5000)
    assert round_.lines[1] == SettlementLine(Wager(2, 10000, WIN), returned=10000)
    assert round_.nets() == {3: -5000, 2: 0, BANK: 5000, HOUSE: 0}


def test_a_push_takes_coverage_and_a_void_takes_none():
    round_ = settle_california(
        [Wager(1, 600, PUSH), Wager(2, 5000, voided=True), Wager(3, 1000, WIN)], 1000
    )
    assert [(line.paid, line.returned) for line in round_.lines] == [
        (0, 600),
        (0, 5000),
        (400, 600),  # the push took $6 of the $10 of action
    ]


def test_player_dealer_with_no_wager_covers_nothing():
    round_ = settle_california([Wager(1, 500, WIN), Wager(2, 500, LOSE)], 0)
    assert [line.returned for line in round_.lines] == [500, 500]
    assert set(round_.nets().values()) == {0}


def test_collection_fees_per_player_wager_and_player_dealer():
    wagers = [Wager(1, 10000, LOSE), Wager(2, 10050, voided=True), Wager(3, 50000, WIN)]
    round_ = settle_california(wagers, 100000, COLLECTION_SCHEDULES[2])
    # Schedule 2: $1-$100 pays $1, $100.50 falls in $101-$200 ($2), $401+ pays $5;
    # the player-dealer pays $2 a round. A voided wager was still placed.
    assert [line.fee for line in round_.lines] == [100, 200, 500]
    assert round_.player_dealer_fee == 200
    assert round_.fees == 1000
    assert round_.nets() == {
        1: -10100,
        2: -200,
        3: 49500,
        BANK: 10000 - 50000 - 200,
        HOUSE: 1000,
    }
    assert round_.is_balanced()


def test_collection_fee_on_table_action_comes_from_the_player_dealer():
    wagers = [Wager(1, 10000, LOSE), Wager(2, 5000, WIN)]
    # Schedule 7: $150 of game wagers plus $50 of bonus wagers is $200 of action: $4.
    round_ = settle_california(wagers, 20000, COLLECTION_SCHEDULES[7], bonus_action=5000)
    assert [line.fee for line in round_.lines] == [0, 0]
    assert round_.player_dealer_fee == 400
    assert round_.nets() == {1: -10000, 2: 5000, BANK: 5000 - 400, HOUSE: 400}
    without_bonus = settle_california(wagers, 20000, COLLECTION_SCHEDULES[7])
    assert without_bonus.player_dealer_fee == 200


def test_surrender_is_refused():
    wager = Wager(2, 100, surrendered=True)
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(wager))):
        settle_california([wager], 1000)


@pytest.mark.parametrize("bad", [-1, 10.0, "100", None])
def test_bad_player_dealer_wager_is_refused(bad):
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        settle_california([], bad)


def test_bad_bonus_action_is_refused():
    with pytest.raises(InvalidAmountError, match="-5"):
        settle_california([Wager(1, 100, WIN)], 100, COLLECTION_SCHEDULES[6], bonus_action=-5)


def test_bad_schedule_is_refused():
    with pytest.raises(InvalidSettlementError, match="6"):
        settle_california([Wager(1, 100, WIN)], 100, 6)


@st.composite
def tables(draw):
    count = draw(st.integers(0, 7))
    wagers = [
        Wager(seat, draw(st.integers(1, 200_000)), draw(st.sampled_from(list(Outcome))))
        if draw(st.integers(0, 9))
        else Wager(seat, draw(st.integers(1, 200_000)), voided=True)
        for seat in range(1, count + 1)
    ]
    return wagers, draw(st.integers(0, 500_000))


@given(tables())
def test_player_dealer_never_wins_or_loses_more_than_its_wager(table):
    wagers, player_dealer_wager = table
    round_ = settle_california(wagers, player_dealer_wager)
    result = round_.nets()[BANK]
    assert -player_dealer_wager <= result <= player_dealer_wager
    assert round_.is_balanced()


@given(tables())
def test_each_wager_takes_the_action_left_in_order_whatever_its_result(table):
    wagers, player_dealer_wager = table
    round_ = settle_california(wagers, player_dealer_wager)
    action_left = player_dealer_wager
    for wager, line in zip(wagers, round_.lines, strict=True):
        taken = 0 if wager.voided else min(wager.amount, action_left)
        if wager.outcome is WIN:
            assert (line.paid, line.returned) == (taken, wager.amount - taken)
        elif wager.outcome is LOSE:
            assert (line.collected, line.returned) == (taken, wager.amount - taken)
        else:  # a push or a void: nothing paid or collected
            assert line.returned == wager.amount
        action_left -= taken
    # CA: "Once the player-dealer's wager has been exhausted", nothing more is in action.
    assert sum(line.covered for line in round_.lines) <= player_dealer_wager


@given(tables())
def test_a_deep_enough_player_dealer_covers_everything(table):
    wagers, _ = table
    round_ = settle_california(wagers, sum(w.amount for w in wagers))
    for line in round_.lines:
        assert line.returned == (0 if line.outcome in (WIN, LOSE) else line.wager.amount)


def test_an_exhausted_player_dealer_returns_later_losers_too():
    """CA Type of Game: "Once the player-dealer's wager has been exhausted, the wagers
    not covered by the player-dealer shall be returned" -- a later loser included."""
    round_ = settle_california(
        [Wager(1, 5000, Outcome.WIN), Wager(2, 2000, Outcome.LOSE)], player_dealer_wager=5000
    )
    assert [(line.paid, line.collected, line.returned) for line in round_.lines] == [
        (5000, 0, 0),
        (0, 0, 2000),
    ]
    assert round_.nets()["bank"] == -5000
