"""The usual round, cheaply: where a round is exactly what the engine settles, the wager,
bank, balance and order parts would find nothing, and need not run.

Each shortcut returns True only when that holds; anything else returns False and the
parts run in full. ``tests/unit/verification/paigow/test_settlement_shortcuts.py`` holds them
to it.
"""

from __future__ import annotations

from audit.games.money import Cents, decimal_cents
from audit.games.paigow.banking import centre_totals, co_bank_flows, player_bank_flows
from audit.games.paigow.california import settle_california
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode, DealerWager, Wager, line_amounts
from audit.games.paigow.vigorish import VigRounding
from audit.games.wagering import Outcome
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.readings import hand_settings
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.bank import dealer_wager_limit_at, flow_checks
from audit.verification.paigow.settlement.expected import (
    banker_setting,
    hand_outcome,
    outcome_against,
)
from audit.verification.paigow.settlement.facts import (
    CENTRE_MODES,
    SettlementFacts,
    expected_order,
    recorded_money,
)
from audit.verification.paigow.settlement.wagers import is_line

_OUTCOME_OF = {outcome.value: outcome for outcome in Outcome}
"""Each played outcome by the name a settlement records it under."""


def dealer_banked_clean(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    The usual round, cheaply: dealer-banked, not voided, no voided hand, no stray or
    bank-flow event, and every settlement the engine's line (``_settled_as_engine``).
    Then ``judge_wagers`` finds nothing, and in a dealer-banked round ``judge_bank``,
    ``judge_balance`` and ``judge_order`` have nothing to judge. Anything else returns
    False and those parts run in full.
    """
    rounding = ruleset.vig_rounding
    if (
        facts.mode is not BankingMode.DEALER
        or rounding is None
        or view.voided is not None
        or view.player_voids
        or facts.stray
        or view.shortfall is not None
        or view.surplus is not None
    ):
        return False
    return _settled_as_engine(view, ruleset, facts, rounding) is not None


def centre_clean(view: RoundView, context: TableContext, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    A player- or co-banked round as the engine settles it, cheaply: complete, not voided,
    no voided hand, no stray settlement, every stake settled as the engine's line
    (``_settled_as_engine``), a dealer's wager (if any) allowed and settled as the engine's
    (``_dealer_wager_as_engine``), no flow event of the other banking mode, and the flows
    recorded exactly as the engine's for what the centre took in and owes
    (``centre_totals``, ``player_bank_flows``, ``co_bank_flows``: the order the winners
    are paid in moves money between centre and pay-in, never the totals). Then
    ``judge_wagers`` finds nothing; ``judge_bank``'s dealer wager and flows agree;
    ``judge_balance`` adds up only the engine's amounts, and the engine's centre pays out
    what it took in; ``judge_order`` judges California only. Anything else returns False:
    the full comparison.
    """
    ruleset, mode = context.ruleset, facts.mode
    rounding = ruleset.vig_rounding
    if (
        mode not in CENTRE_MODES
        or rounding is None
        or view.voided is not None
        or view.completed is None
        or view.player_voids
        or facts.stray
        or len(facts.settled) != len(facts.stakes)
    ):
        return False
    if mode is BankingMode.PLAYER_BANK:
        other_flows, owed_flows = view.co_bank_split is not None, player_bank_flows
    else:
        other_flows = view.shortfall is not None or view.surplus is not None
        owed_flows = co_bank_flows
    dealer_wager = None
    if view.dealer_wager is not None or view.dealer_wager_settled is not None:
        dealer_wager = _dealer_wager_as_engine(view, context, facts)
        if dealer_wager is None:
            return False
    totals = None if other_flows else _settled_as_engine(view, ruleset, facts, rounding)
    if totals is None:
        return False
    flows = owed_flows(*centre_totals(*totals, dealer_wager), rounding)
    checks = flow_checks(view, mode, flows)
    return all(got == owed for _, _, amounts in checks for got, owed in amounts.values())


def _dealer_wager_as_engine(
    view: RoundView, context: TableContext, facts: SettlementFacts
) -> DealerWager | None:
    """Return the dealer's wager against a player bank if it was allowed, decided by the
    hands and settled as the engine settles it; else ``None``.

    What the bank part's judgements of the dealer's wager (``bank.py``) pass: no more than
    the bank's last wager (PA 621a.9(h)), the outcome of the dealer's hands against the
    bank's (9(n)), and the house's result recorded (nothing on a push).
    """
    placed, settled = view.dealer_wager, view.dealer_wager_settled
    if facts.mode is not BankingMode.PLAYER_BANK or placed is None or settled is None:
        return None
    amount = decimal_cents(placed.amount)
    limit = dealer_wager_limit_at(context, facts.banker)
    if amount <= 0 or (limit is not None and amount > limit):
        return None
    ruleset = context.ruleset
    outcome = hand_outcome(view, ruleset, ruleset.layout.dealer, facts.banker)  # PA 621a.9(n)
    if outcome is None or settled.outcome != outcome.value:
        return None
    wager = DealerWager(amount, outcome)
    return wager if decimal_cents(settled.amount) == abs(wager.result) else None


def california_clean(view: RoundView, ruleset: RuleSet, facts: SettlementFacts) -> bool:
    """Return True only if the wager, bank, balance and order parts would find nothing.

    A California round as the engine settles it, cheaply: not voided, no voided hand, no
    stray settlement, a player-dealer wager, the wagers settled clockwise from the action
    button (as ``judge_order`` wants), each outcome decided by the hands, and each settlement
    exactly ``settle_california``'s line in that order. Then ``judge_wagers`` finds
    nothing, ``judge_order`` finds the order kept, and ``judge_bank`` and ``judge_balance``
    judge no California round. Anything else returns False: the full comparison.
    """
    if (
        facts.mode is not BankingMode.CALIFORNIA
        or view.voided is not None
        or view.player_voids
        or facts.stray
        or facts.player_dealer <= 0
    ):
        return False
    clockwise = expected_order(view, ruleset, facts)
    if clockwise is None or [p for p in clockwise if p in facts.settled] != facts.settled_order:
        return False
    settings, banker = hand_settings(view), banker_setting(view, ruleset, facts.banker)
    wagers = []
    for position in facts.settled_order:
        outcome = outcome_against(settings.get(position), banker)
        if outcome is None:
            return False  # the hands do not decide it: judged on the recorded outcome
        wagers.append(Wager(position, facts.stakes[position], outcome))
    # CA: covered clockwise as far as the player-dealer's wager goes, the rest returned.
    lines = settle_california(wagers, facts.player_dealer).lines
    return all(is_line(facts.settled[line.position], line) for line in lines)


def _settled_as_engine(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts, rounding: VigRounding
) -> tuple[Cents, Cents] | None:
    """Return what the Pai Gow settlements collected and paid, if each is the engine's line.

    Each settled wager's outcome decided by the hands (or surrendered), and its settlement
    exactly ``settle_wager``'s (``line_amounts``). ``None`` at the first that is not.
    """
    surrendered = {s.position for _, s in view.surrenders} if view.surrenders else ()
    settings, stakes = hand_settings(view), facts.stakes
    banker = banker_setting(view, ruleset, facts.banker)
    collected = paid = 0
    for position, event in facts.settled.items():
        amount, ended = stakes[position], event.outcome
        if position in surrendered:  # PA 621a.8(e)
            if ended != "surrendered":
                return None
            want = line_amounts(amount, None, rounding, surrendered=True)
        else:
            outcome = outcome_against(settings.get(position), banker)
            if outcome is None or _OUTCOME_OF.get(ended) is not outcome:
                return None  # not the hands' outcome, or the hands do not decide it
            want = line_amounts(amount, outcome, rounding)
        if recorded_money(event) != want:
            return None
        paid += want[0]
        collected += want[1]
    return collected, paid
