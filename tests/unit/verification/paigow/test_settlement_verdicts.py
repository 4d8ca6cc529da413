"""line_verdicts: the one classification of a wager's recorded settlement, which the settlement
checks emit by and the careless dealer's labels are made from."""

from __future__ import annotations

import pytest

from audit.games.paigow.california import settle_california
from audit.games.paigow.settlement import BankingMode, Wager, settle_wager
from audit.games.paigow.vigorish import VigRounding
from audit.games.wagering import Outcome
from audit.verification.paigow.settlement.wagers import line_verdicts

CENT = VigRounding.CENT
WIN = settle_wager(Wager(1, 10_000, Outcome.WIN), CENT)  # pays 100.00 less 5.00 vigorish
LOSE = settle_wager(Wager(2, 10_000, Outcome.LOSE), CENT)


def codes(mode, line, outcome, money, taken, rounding=CENT, known=True):
    verdicts = line_verdicts(mode, line, outcome, money, taken, rounding, known=known)
    return [(v.code, v.rule_key) for v in verdicts]


def test_the_engines_own_line_yields_nothing():
    money = (WIN.paid, WIN.collected, WIN.returned)
    assert codes(BankingMode.DEALER, WIN, "win", money, WIN.vigorish) == []


def test_a_wrong_outcome_is_one_finding_its_money_the_evidence():
    found = codes(BankingMode.DEALER, WIN, "lose", (0, 10_000, 0), 0)
    assert found == [("PG-SETTLE-OUTCOME", "wager-win")]  # no vigorish owed on nothing paid


def test_an_outcome_the_hands_do_not_decide_is_judged_on_its_money_only():
    found = codes(BankingMode.DEALER, WIN, "lose", (0, 10_000, 0), 0, known=False)
    assert found[0] == ("PG-SETTLE-PAYOUT", "win-payout")


def test_wrong_money_is_judged_under_the_banked_modes_own_paragraph():
    money = (0, 5_000, 0)  # half the losing wager collected
    assert codes(BankingMode.DEALER, LOSE, "lose", money, 0) == [("PG-SETTLE-PAYOUT", "wager-lose")]
    assert codes(BankingMode.PLAYER_BANK, LOSE, "lose", money, 0) == [
        ("PG-SETTLE-PAYOUT", "bank-settlement")
    ]
    assert codes(BankingMode.CO_BANK, LOSE, "lose", money, 0) == [
        ("PG-SETTLE-PAYOUT", "co-bank-settlement")
    ]


@pytest.mark.parametrize(
    ("taken", "code"),
    [(0, "PG-SETTLE-VIG-UNCOLLECTED"), (250, "PG-SETTLE-VIG-SHORT"), (1_000, "PG-SETTLE-VIG-OVER")],
)
def test_vigorish_taken_wrongly(taken, code):
    money = (WIN.paid, WIN.collected, WIN.returned)
    assert codes(BankingMode.DEALER, WIN, "win", money, taken) == [(code, None)]
    assert codes(BankingMode.PLAYER_BANK, WIN, "win", money, taken) == [(code, "bank-vigorish")]


def test_vigorish_on_the_amount_paid_is_not_a_second_finding_of_a_wrong_payout():
    paid = 2 * WIN.paid
    found = codes(BankingMode.DEALER, WIN, "win", (paid, 0, 0), 2 * WIN.vigorish)
    assert found == [("PG-SETTLE-PAYOUT", "win-payout")]


def test_california_coverage_and_a_fee_taken_as_vigorish():
    settled = settle_california([Wager(1, 10_000, Outcome.WIN)], 4_000)
    (line,) = settled.lines  # covered to 40.00, 60.00 returned
    found = codes(BankingMode.CALIFORNIA, line, "win", (10_000, 0, 0), 0, rounding=None)
    assert found == [("PG-CA-COVERAGE", None)]
    money = (line.paid, line.collected, line.returned)
    assert codes(BankingMode.CALIFORNIA, line, "win", money, 200, rounding=None) == [
        ("PG-CA-FEE", None)
    ]
