"""The settlement check: read the round's money once, settle it once, judge each part.

The parts live beside this module: ``wagers`` (each wager's outcome, payout and
vigorish), ``bank`` (the dealer's wager, the bank's flows, the centre's balance),
``california`` (clockwise order, collection fees) and ``pair_fortunes``. ``facts``
reads what the round recorded and ``expected`` what the engine says it should have
settled; ``shortcuts`` passes the usual round without the full comparison.
"""

from __future__ import annotations

from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.bank import judge_balance, judge_bank
from audit.verification.paigow.settlement.california import judge_fees, judge_order
from audit.verification.paigow.settlement.expected import expect_settlement
from audit.verification.paigow.settlement.facts import read_settlement
from audit.verification.paigow.settlement.pair_fortunes import judge_pair_fortunes
from audit.verification.paigow.settlement.shortcuts import (
    california_clean,
    centre_clean,
    dealer_banked_clean,
)
from audit.verification.paigow.settlement.wagers import judge_wagers


def check_settlement(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Read the round's money once and settle it once, then judge each part in turn.

    Every part judges against the same reading and the same expected settlement, so
    both are made here, not once per part; the parts report in this order.
    """
    ruleset = context.ruleset
    facts = read_settlement(view, ruleset)
    if not (
        dealer_banked_clean(view, ruleset, facts)
        or centre_clean(view, context, facts)
        or california_clean(view, ruleset, facts)
    ):
        expected = expect_settlement(view, ruleset, facts)
        judge_wagers(view, context, emit, facts, expected)
        judge_bank(view, context, emit, facts, expected)
        judge_balance(view, context, emit, facts)
        judge_order(view, context, emit, facts)
    judge_fees(view, context, emit, facts)
    judge_pair_fortunes(view, context, emit, facts)


CHECKS: tuple[Check, ...] = (check_settlement,)
