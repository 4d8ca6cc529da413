import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.paigow.banking import (
    centre_totals,
    co_bank_flows,
    dealer_wager_limit,
    is_dealer_wager_allowed,
    player_bank_flows,
    settle_co_bank,
    settle_player_bank,
)
from audit.games.paigow.settlement import (
    BANK,
    DEALER,
    BankingMode,
    CentrePayment,
    DealerWager,
    Wager,
    settle_wager,
)
from audit.games.paigow.vigorish import VigRounding
from audit.games.wagering import HOUSE, Outcome

WIN, PUSH, LOSE = Outcome.WIN, Outcome.PUSH, Outcome.LOSE
CENT, QUARTER = VigRounding.CENT, VigRounding.QUARTER


# -- player bank -----------------------------------------------------------------------------


def test_bank_exhausted_part_way_through_the_settlement_order():
    # Centre: the dealer's lost 20.00, seat 1's 15.00 and seat 6's surrender 4.00 = 39.00.
    # Seat 2 (30.00) is paid from it, seat 3 (10.00) takes the last 9.00 plus 1.00 of
    # the bank's pay-in, and seat 5 (25.00) is paid wholly from the pay-in.
    round_ = settle_player_bank(
        [
            Wager(1, 1500, LOSE),
            Wager(2, 3000, WIN),
            Wager(3, 1000, WIN),
            Wager(4, 500, PUSH),
            Wager(5, 2500, WIN),
            Wager(6, 400, surrendered=True),
        ],
        CENT,
        DealerWager(2000, LOSE),
    )
    assert round_.mode is BankingMode.PLAYER_BANK
    assert round_.payments == (
        CentrePayment(2, from_centre=3000, from_pay_in=0),
        CentrePayment(3, from_centre=900, from_pay_in=100),
        CentrePayment(5, from_centre=0, from_pay_in=2500),
    )
    assert round_.shortfall_from_bank == round_.shortfall == 2600
    assert round_.surplus == round_.surplus_vigorish == round_.surplus_to_bank == 0
    assert [line.vigorish for line in round_.lines] == [0, 150, 50, 0, 125, 0]
    assert round_.dealer_result == -2000
    assert round_.nets() == {
        1: -1500,
        2: 2850,
        3: 950,
        4: 0,
        5: 2375,
        6: -400,
        BANK: -2600,
        HOUSE: 325 - 2000,
    }
    assert round_.is_balanced()


def test_winning_dealer_is_paid_first_and_pays_no_vigorish():
    round_ = settle_player_bank(
        [Wager(1, 800, LOSE), Wager(2, 500, WIN)], CENT, DealerWager(1000, WIN)
    )
    assert round_.payments == (
        CentrePayment(DEALER, from_centre=800, from_pay_in=200),
        CentrePayment(2, from_centre=0, from_pay_in=500),
    )
    assert round_.shortfall == 700
    assert round_.vigorish == 25  # seat 2 only (PA 621a.9(q) charges players)
    assert round_.nets() == {1: -800, 2: 475, BANK: -700, HOUSE: 1000 + 25}
    assert round_.is_balanced()


def test_dealer_push_goes_back_to_inventory():
    round_ = settle_player_bank([Wager(1, 800, LOSE)], CENT, DealerWager(1000, PUSH))
    assert round_.payments == ()
    assert round_.surplus == 800
    assert round_.dealer_result == 0
    assert round_.nets() == {1: -800, BANK: 760, HOUSE: 40}


@pytest.mark.parametrize(
    ("rounding", "player_vig", "surplus_vig"),
    [(CENT, 55, 195), (QUARTER, 75, 200)],
)
def test_surplus_pays_vigorish_and_the_rest_goes_to_the_bank(rounding, player_vig, surplus_vig):
    round_ = settle_player_bank([Wager(1, 5000, LOSE), Wager(2, 1100, WIN)], rounding)
    assert round_.surplus == 3900
    assert round_.surplus_vigorish == surplus_vig
    assert round_.surplus_to_bank == 3900 - surplus_vig
    assert round_.shortfall == 0
    assert round_.payments == (CentrePayment(2, from_centre=1100),)
    assert round_.nets() == {
        1: -5000,
        2: 1100 - player_vig,
        BANK: 3900 - surplus_vig,
        HOUSE: player_vig + surplus_vig,
    }


def test_surplus_vigorish_never_exceeds_the_surplus():
    # A 10¢ surplus rounds to a 25¢ quarter; the vigorish is paid out of the surplus.
    round_ = settle_player_bank([Wager(1, 110, LOSE), Wager(2, 100, WIN)], QUARTER)
    assert round_.surplus == round_.surplus_vigorish == 10
    assert round_.surplus_to_bank == 0
    assert round_.is_balanced()


def test_dealer_wager_limit():
    assert dealer_wager_limit(2500) == 2500
    assert is_dealer_wager_allowed(2500, 2500)
    assert is_dealer_wager_allowed(1000, 2500)
    assert not is_dealer_wager_allowed(2501, 2500)
    with pytest.raises(InvalidAmountError, match="-1"):
        dealer_wager_limit(-1)


def test_a_dealer_wager_over_the_limit_is_settled_as_wagered():
    round_ = settle_player_bank([], CENT, DealerWager(9000, LOSE))
    assert not is_dealer_wager_allowed(9000, 2500)
    assert round_.nets() == {BANK: 9000 - 450, HOUSE: -9000 + 450}


def test_player_bank_refuses_something_else_as_a_dealer_wager():
    with pytest.raises(InvalidSettlementError, match=re.escape("(1000, <Outcome.WIN: 'win'>)")):
        settle_player_bank([], CENT, (1000, WIN))


# -- co-banking --------------------------------------------------------------------------------


def test_co_bank_shortfall_halves_odd_cent_to_the_co_bank():
    round_ = settle_co_bank([Wager(1, 1000, LOSE), Wager(2, 2001, WIN)], CENT)
    assert round_.mode is BankingMode.CO_BANK
    assert round_.shortfall == 1001
    assert round_.shortfall_from_bank == 501
    assert round_.shortfall_from_house == 500
    assert round_.payments == (CentrePayment(2, from_centre=1000, from_pay_in=1001),)
    assert round_.lines[1].vigorish == 101  # 100.05¢ rounds up
    assert round_.nets() == {1: -1000, 2: 1900, BANK: -501, HOUSE: 101 - 500}
    assert round_.is_balanced()


def test_co_bank_even_shortfall_splits_evenly():
    round_ = settle_co_bank([Wager(1, 1000, WIN)], QUARTER)
    assert (round_.shortfall_from_bank, round_.shortfall_from_house) == (500, 500)
    assert round_.nets() == {1: 950, BANK: -500, HOUSE: 50 - 500}


@pytest.mark.parametrize(("rounding", "surplus_vig"), [(CENT, 55), (QUARTER, 75)])
def test_co_bank_surplus_halves_odd_cent_to_the_house(rounding, surplus_vig):
    round_ = settle_co_bank([Wager(1, 3201, LOSE), Wager(2, 1000, WIN)], rounding)
    assert round_.surplus == 2201
    assert round_.surplus_to_house == 1101
    assert round_.surplus_vigorish == surplus_vig  # 5% of the co-bank's 1100
    assert round_.surplus_to_bank == 1100 - surplus_vig
    assert round_.nets() == {
        1: -3201,
        2: 950,
        BANK: 1100 - surplus_vig,
        HOUSE: 50 + 1101 + surplus_vig,
    }
    assert round_.is_balanced()


@pytest.mark.parametrize("outcome", list(Outcome))
def test_co_bank_refuses_a_dealer_wager(outcome):
    dealer_wager = DealerWager(500, outcome)
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(dealer_wager))):
        settle_co_bank([Wager(1, 100, WIN)], CENT, dealer_wager)


# -- any round --------------------------------------------------------------------------------


def _wager(position, amount, how):
    if how == "surrendered":
        return Wager(position, amount, surrendered=True)
    if how == "voided":
        return Wager(position, amount, voided=True)
    return Wager(position, amount, Outcome(how))


ends = st.sampled_from(["win", "push", "lose", "win", "lose", "surrendered", "voided"])
any_wagers = st.lists(
    st.tuples(st.integers(1, 7), st.integers(1, 100_000), ends),
    max_size=7,
    unique_by=lambda w: w[0],
).map(lambda rows: [_wager(*row) for row in rows])
roundings = st.sampled_from([CENT, QUARTER])


@given(wagers=any_wagers, rounding=roundings, dealer=st.none() | st.integers(1, 50_000))
def test_a_banked_rounds_lines_are_each_wagers_own_settlement(wagers, rounding, dealer):
    """Through the centre or not, each line is settle_wager's, in the order given."""
    lines = tuple(settle_wager(wager, rounding) for wager in wagers)
    dealer_wager = None if dealer is None else DealerWager(dealer, WIN)
    assert settle_player_bank(wagers, rounding, dealer_wager).lines == lines
    assert settle_co_bank(wagers, rounding).lines == lines


@given(wagers=any_wagers, rounding=roundings, dealer=st.none() | st.integers(1, 50_000),
       dealer_ends=st.sampled_from([WIN, PUSH, LOSE]))  # fmt: skip
def test_player_bank_flows_are_the_centre_paid_out_winner_by_winner(
    wagers, rounding, dealer, dealer_ends
):
    """The pay-in is what the winners, paid in turn, took from beyond the centre; the surplus
    what the centre kept; both as player_bank_flows reckons them from the two totals."""
    dealer_wager = None if dealer is None else DealerWager(dealer, dealer_ends)
    round_ = settle_player_bank(wagers, rounding, dealer_wager)
    dealer_lost = dealer if dealer_wager is not None and dealer_ends is LOSE else 0
    taken_in = sum(line.collected for line in round_.lines) + dealer_lost
    owed = sum(payment.from_centre + payment.from_pay_in for payment in round_.payments)
    assert round_.shortfall_from_bank == sum(p.from_pay_in for p in round_.payments)
    assert round_.surplus == taken_in - sum(p.from_centre for p in round_.payments)
    assert round_.surplus_vigorish + round_.surplus_to_bank == round_.surplus
    paid = sum(line.paid for line in round_.lines)
    assert centre_totals(taken_in - dealer_lost, paid, dealer_wager) == (taken_in, owed)
    flows = player_bank_flows(taken_in, owed, rounding)
    assert flows == tuple(getattr(round_, name) for name in flows._fields)
    assert round_.is_balanced()


@given(wagers=any_wagers, rounding=roundings)
def test_co_bank_flows_halve_the_centres_pay_in_and_surplus(wagers, rounding):
    round_ = settle_co_bank(wagers, rounding)
    taken_in = sum(line.collected for line in round_.lines)
    owed = sum(line.paid for line in round_.lines)
    pay_in = round_.shortfall_from_bank + round_.shortfall_from_house
    assert pay_in == sum(p.from_pay_in for p in round_.payments)
    assert round_.surplus == taken_in - sum(p.from_centre for p in round_.payments)
    assert round_.surplus_to_house + round_.surplus_vigorish + round_.surplus_to_bank == (
        round_.surplus
    )
    flows = co_bank_flows(taken_in, owed, rounding)
    assert flows == tuple(getattr(round_, name) for name in flows._fields)
    assert round_.is_balanced()
