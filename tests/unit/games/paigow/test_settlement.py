import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.paigow import settlement
from audit.games.paigow.banking import settle_co_bank, settle_player_bank
from audit.games.paigow.california import settle_california
from audit.games.paigow.collection import COLLECTION_SCHEDULES
from audit.games.paigow.settlement import (
    BANK,
    BankingMode,
    CentrePayment,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
    settle_dealer_banked,
    settle_voided_round,
    settle_wager,
)
from audit.games.paigow.vigorish import VigRounding
from audit.games.wagering import HOUSE, Outcome

WIN, PUSH, LOSE = Outcome.WIN, Outcome.PUSH, Outcome.LOSE
CENT, QUARTER = VigRounding.CENT, VigRounding.QUARTER

NAMESPACE = {
    name: getattr(settlement, name)
    for name in (
        "BankingMode",
        "CentrePayment",
        "DealerWager",
        "Outcome",
        "RoundSettlement",
        "SettlementLine",
        "Wager",
    )
}


# -- one wager ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wager", "expected"),
    [
        (Wager(1, 1000, WIN), {"paid": 1000, "vigorish": 50}),
        (Wager(1, 1100, WIN), {"paid": 1100, "vigorish": 75}),
        (Wager(1, 1000, PUSH), {"returned": 1000}),
        (Wager(1, 1000, LOSE), {"collected": 1000}),
        # PA 621a.8(e): a surrender is collected whole.
        (Wager(1, 1000, surrendered=True), {"collected": 1000}),
        # PA 621a.10(d): a player's voided hand gets its wager back.
        (Wager(1, 1000, voided=True), {"returned": 1000}),
    ],
)
def test_settle_wager_against_a_full_cover(wager, expected):
    line = settle_wager(wager, QUARTER)
    assert line == SettlementLine(wager, **expected)
    assert line.covered == wager.amount - line.returned


def test_dealer_banked_round():
    wagers = [
        Wager(1, 1000, WIN),
        Wager(2, 1100, WIN),
        Wager(3, 2000, PUSH),
        Wager(4, 500, LOSE),
        Wager(5, 700, surrendered=True),
        Wager(6, 900, voided=True),
    ]
    round_ = settle_dealer_banked(wagers, CENT)
    assert round_.mode is BankingMode.DEALER
    assert [line.position for line in round_.lines] == [1, 2, 3, 4, 5, 6]
    assert round_.nets() == {1: 950, 2: 1045, 3: 0, 4: -500, 5: -700, 6: 0, BANK: 0, HOUSE: -795}
    assert round_.vigorish == 105
    assert round_.is_balanced()
    quarter = settle_dealer_banked(wagers, QUARTER)
    assert quarter.nets()[2] == 1025
    assert quarter.nets()[HOUSE] == -775


def test_empty_round_is_balanced():
    assert settle_dealer_banked([], CENT).nets() == {BANK: 0, HOUSE: 0}


@pytest.mark.parametrize("mode", list(BankingMode))
def test_voided_round_returns_every_wager_and_moves_nothing(mode):
    wagers = [Wager(1, 1000, WIN), Wager(2, 500, LOSE), Wager(3, 300, surrendered=True)]
    round_ = settle_voided_round(wagers, mode)
    assert round_.voided
    assert round_.mode is mode
    assert [line.returned for line in round_.lines] == [1000, 500, 300]
    assert set(round_.nets().values()) == {0}
    assert round_ == RoundSettlement(
        mode, tuple(SettlementLine(w, returned=w.amount) for w in wagers), voided=True
    )


# -- the record's reprs and balance ------------------------------------------------------


def _rounds():
    wagers = [Wager(1, 1000, WIN), Wager(2, 501, LOSE), Wager(3, 200, surrendered=True)]
    return [
        settle_dealer_banked(wagers, QUARTER),
        settle_voided_round(wagers, BankingMode.CO_BANK),
        settle_player_bank(wagers, CENT, DealerWager(1500, WIN)),
        settle_co_bank(wagers, QUARTER),
        settle_california(wagers[:2], 700, COLLECTION_SCHEDULES[1]),
    ]


@pytest.mark.parametrize("round_", _rounds(), ids=lambda r: r.mode.value)
def test_reprs_round_trip(round_):
    assert eval(repr(round_), NAMESPACE) == round_
    for line in round_.lines:
        assert eval(repr(line), NAMESPACE) == line
        assert eval(repr(line.wager), NAMESPACE) == line.wager
    for payment in round_.payments:
        assert eval(repr(payment), NAMESPACE) == payment


def test_repr_leaves_out_defaults():
    assert (
        repr(Wager(2, 500, surrendered=True)) == "Wager(position=2, amount=500, surrendered=True)"
    )
    assert repr(DealerWager(500, LOSE)) == "DealerWager(amount=500, outcome=Outcome.LOSE)"
    assert repr(CentrePayment(2, 100)) == "CentrePayment(payee=2, from_centre=100)"


def test_is_balanced_catches_a_centre_that_does_not_clear():
    round_ = settle_player_bank([Wager(1, 1000, LOSE), Wager(2, 400, WIN)], CENT)
    assert round_.is_balanced()
    assert not replace(round_, surplus_to_bank=round_.surplus_to_bank + 1).is_balanced()
    assert not replace(round_, surplus_vigorish=0).is_balanced()
    short = settle_co_bank([Wager(1, 400, LOSE), Wager(2, 1001, WIN)], CENT)
    assert short.is_balanced()
    assert not replace(short, shortfall_from_house=0).is_balanced()


def test_dealer_result_signs():
    assert DealerWager(700, WIN).result == 700
    assert DealerWager(700, PUSH).result == 0
    assert DealerWager(700, LOSE).result == -700


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 0, 10.5, 1000.0, "1000", None, True])
def test_wager_amount_must_be_positive_whole_cents(bad):
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        Wager(1, bad, WIN)
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        DealerWager(bad, WIN)


@pytest.mark.parametrize("bad", [-1, "1", 1.0, None, False])
def test_position_must_be_a_non_negative_int(bad):
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(bad))):
        Wager(bad, 100, WIN)


def test_outcome_must_be_an_outcome():
    with pytest.raises(InvalidSettlementError, match="'win'"):
        Wager(1, 100, "win")
    with pytest.raises(InvalidSettlementError, match="'win'"):
        DealerWager(100, "win")


def test_surrendered_or_voided_wagers_have_no_outcome():
    with pytest.raises(InvalidSettlementError, match=r"surrendered.*Outcome\.LOSE"):
        Wager(1, 100, LOSE, surrendered=True)
    with pytest.raises(InvalidSettlementError, match=r"voided.*Outcome\.WIN"):
        Wager(1, 100, WIN, voided=True)
    with pytest.raises(InvalidSettlementError, match="both"):
        Wager(1, 100, surrendered=True, voided=True)
    with pytest.raises(InvalidSettlementError, match="'yes'"):
        Wager(1, 100, surrendered="yes")
    with pytest.raises(InvalidSettlementError, match="1"):
        Wager(1, 100, voided=1)


def test_a_played_wager_needs_an_outcome():
    with pytest.raises(InvalidSettlementError, match=r"Wager\(position=4, amount=100\)"):
        settle_dealer_banked([Wager(4, 100)], CENT)


@pytest.mark.parametrize(
    "settle",
    [
        lambda w: settle_dealer_banked(w, CENT),
        lambda w: settle_player_bank(w, CENT),
        lambda w: settle_co_bank(w, CENT),
        lambda w: settle_california(w, 1000),
        settle_voided_round,
    ],
)
def test_duplicate_positions_are_refused(settle):
    with pytest.raises(InvalidSettlementError, match="duplicate position: 3"):
        settle([Wager(3, 100, WIN), Wager(1, 100, LOSE), Wager(3, 200, LOSE)])
    with pytest.raises(InvalidSettlementError, match=re.escape("not a wager: (3, 100)")):
        settle([(3, 100)])


def test_voided_round_needs_a_banking_mode():
    with pytest.raises(InvalidSettlementError, match="'dealer'"):
        settle_voided_round([], "dealer")


# -- conservation in every mode ---------------------------------------------------------


@st.composite
def wager_lists(draw, allow_surrender=True):
    positions = draw(st.lists(st.integers(0, 9), unique=True, max_size=8))
    wagers = []
    for position in positions:
        amount = draw(st.integers(1, 500_000))
        kind = draw(st.sampled_from(["played", "played", "played", "surrendered", "voided"]))
        if kind == "surrendered" and allow_surrender:
            wagers.append(Wager(position, amount, surrendered=True))
        elif kind == "voided":
            wagers.append(Wager(position, amount, voided=True))
        else:
            wagers.append(Wager(position, amount, draw(st.sampled_from(list(Outcome)))))
    return wagers


roundings = st.sampled_from(list(VigRounding))
dealer_wagers = st.none() | st.builds(
    DealerWager, st.integers(1, 500_000), st.sampled_from(list(Outcome))
)
schedules = st.none() | st.sampled_from(list(COLLECTION_SCHEDULES.values()))


def _check_lines(round_, wagers):
    assert [line.wager for line in round_.lines] == wagers
    for line in round_.lines:
        assert min(line.paid, line.collected, line.vigorish, line.returned, line.fee) >= 0
        assert 0 <= line.covered <= line.wager.amount
        assert line.paid == 0 or line.collected == 0
        assert line.covered == line.paid + line.collected


@given(wager_lists(), roundings)
def test_dealer_banked_conserves_money(wagers, rounding):
    round_ = settle_dealer_banked(wagers, rounding)
    _check_lines(round_, wagers)
    assert round_.is_balanced()


@given(wager_lists(), roundings, dealer_wagers)
def test_player_bank_conserves_money(wagers, rounding, dealer_wager):
    round_ = settle_player_bank(wagers, rounding, dealer_wager)
    _check_lines(round_, wagers)
    assert round_.is_balanced()
    assert round_.shortfall_from_house == round_.surplus_to_house == 0
    assert round_.shortfall == 0 or round_.surplus == 0
    assert round_.surplus == round_.surplus_vigorish + round_.surplus_to_bank
    assert sum(p.from_centre + p.from_pay_in for p in round_.payments) == sum(
        line.paid for line in round_.lines
    ) + (dealer_wager.amount if dealer_wager and dealer_wager.outcome is WIN else 0)
    assert sum(p.from_pay_in for p in round_.payments) == round_.shortfall


@given(wager_lists(), roundings)
def test_co_bank_conserves_money(wagers, rounding):
    round_ = settle_co_bank(wagers, rounding)
    _check_lines(round_, wagers)
    assert round_.is_balanced()
    assert 0 <= round_.shortfall_from_bank - round_.shortfall_from_house <= 1
    kept = round_.surplus - round_.surplus_to_house
    assert 0 <= round_.surplus_to_house - kept <= 1


@given(wager_lists(allow_surrender=False), st.integers(0, 1_000_000), schedules)
def test_california_conserves_money(wagers, player_dealer_wager, schedule):
    round_ = settle_california(wagers, player_dealer_wager, schedule)
    _check_lines(round_, wagers)
    assert round_.is_balanced()
    assert round_.vigorish == 0


@given(wager_lists(), st.sampled_from(list(BankingMode)))
def test_voided_round_conserves_money(wagers, mode):
    assert settle_voided_round(wagers, mode).is_balanced()


# --- line_amounts: one wager's money as the texts give it -----------------------------------------


@pytest.mark.parametrize(
    ("outcome", "flags", "expected"),
    [
        # PA 621a.8(k): paid 1 to 1, 5% of the win collected: $11.00 pays $11.00, 55 cents vig.
        pytest.param(Outcome.WIN, {}, (1100, 0, 0, 55), id="win-8k"),
        pytest.param(Outcome.PUSH, {}, (0, 0, 1100, 0), id="copy-returned-8h"),
        pytest.param(Outcome.LOSE, {}, (0, 1100, 0, 0), id="loss-collected-8g"),
        pytest.param(None, {"surrendered": True}, (0, 1100, 0, 0), id="surrender-collected-8e"),
        pytest.param(None, {"voided": True}, (0, 0, 1100, 0), id="void-returned-10d"),
        # A surrender is collected whatever outcome the hands would have had.
        pytest.param(Outcome.WIN, {"surrendered": True}, (0, 1100, 0, 0), id="surrender-first"),
    ],
)
def test_line_amounts_from_the_texts(outcome, flags, expected):
    assert settlement.line_amounts(1100, outcome, VigRounding.CENT, **flags) == expected


@given(
    amount=st.integers(1, 10**7),
    outcome=st.sampled_from(list(Outcome)),
    rounding=st.sampled_from(list(VigRounding)),
)
def test_line_amounts_move_the_whole_wager_once(amount, outcome, rounding):
    """Exactly one of paid, collected, returned holds the wager; vigorish only on a win
    (PA 621a.8(k): any positive win pays at least 1 cent, or 25 cents rounding by quarters)."""
    paid, collected, returned, vig = settlement.line_amounts(amount, outcome, rounding)
    assert sorted((paid, collected, returned)) == [0, 0, amount]
    assert (vig > 0) is (outcome is Outcome.WIN)
