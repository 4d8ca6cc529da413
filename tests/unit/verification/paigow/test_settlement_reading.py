"""How the settlement checks read a round's money (read_settlement, decimal_cents), held to the
plain reading they replace: every amount through to_cents, each kind walked alone."""

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.paigow.wagers import WagerKind
from audit.games.errors import InvalidAmountError
from audit.games.money import decimal_cents, to_cents
from audit.games.paigow.rulesets import get_rule_set
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow.round_view import view_round
from audit.verification.paigow.settlement.facts import read_settlement
from tests.builders.paigow_table import Table

amounts = st.decimals(min_value=0, max_value=10**6, places=2)


@given(amount=amounts | st.decimals(min_value=-(10**6), max_value=10**6, places=2))
def test_decimal_cents_are_to_cents(amount):
    """At any exponent (0.5, 0.50, 5E-1), zero (-0.00 too) and negative amounts included."""
    cents = to_cents(amount)
    for same in (amount, amount.normalize(), Decimal(cents).scaleb(-2), amount.copy_negate()):
        assert decimal_cents(same) == (cents if same == amount else -cents)


@pytest.mark.parametrize("text", ["0.005", "1.999", "NaN", "sNaN", "Infinity", "-Infinity"])
def test_decimal_cents_refuse_what_to_cents_refuses(text):
    with pytest.raises(InvalidAmountError) as refused:
        to_cents(Decimal(text))
    with pytest.raises(InvalidAmountError, match=re.escape(str(refused.value))):
        decimal_cents(Decimal(text))


# --- read_settlement against the plain reading ---------------------------------------------------


def plain_stakes(view, kind):
    """Each position's wagers of one kind, placed less withdrawn, as first written."""
    amounts = {}
    for _, placed in view.placed:
        if placed.kind is kind:
            amounts[placed.position] = amounts.get(placed.position, 0) + to_cents(placed.amount)
    for _, withdrawn in view.withdrawn:
        if withdrawn.kind is kind and withdrawn.position in amounts:
            amounts[withdrawn.position] -= to_cents(withdrawn.amount)
    return {position: amount for position, amount in amounts.items() if amount > 0}


def plain_reading(view, ruleset):
    """read_settlement's filing, two walks over the wagers and to_cents for every amount."""
    facts = read_settlement(view, ruleset)  # mode and banker: not what is held here
    pai_gow = plain_stakes(view, WagerKind.PAI_GOW)
    stakes = {p: a for p, a in pai_gow.items() if p != facts.banker}
    side = plain_stakes(view, WagerKind.PAIR_FORTUNES)
    settled, side_settled, stray, stray_side, order = {}, {}, [], [], []
    for _, event in view.settled:
        if event.kind is WagerKind.PAIR_FORTUNES:
            if event.position in side and event.position not in side_settled:
                side_settled[event.position] = event
            else:
                stray_side.append(event)
        elif event.position in stakes and event.position not in settled:
            settled[event.position] = event
            order.append(event.position)
        else:
            stray.append(event)
    player_dealer = (
        pai_gow.get(ruleset.layout.dealer, 0) if facts.mode is BankingMode.CALIFORNIA else 0
    )
    return (list(stakes.items()), list(side.items()), player_dealer, list(settled.items()),
            list(side_settled.items()), stray, stray_side, order)  # fmt: skip


money = st.sampled_from(["5.00", "10.00", "25.00", "7.50", "0.00", "100.00"])
kinds = st.sampled_from(["pai_gow", "pai_gow", "pair_fortunes"])
steps = st.lists(
    st.tuples(st.sampled_from(["wager", "withdraw", "settle"]), st.integers(0, 7), money, kinds),
    min_size=1,
    max_size=14,
)


@settings(max_examples=60, deadline=None)
@given(
    steps=steps, rule_set=st.sampled_from(["pa-2019", "california"]), bank=st.none() | st.just(3)
)
def test_read_settlement_files_the_round_as_the_plain_reading(steps, rule_set, bank):
    """Wagers placed, withdrawn (beyond what was placed, or where none was) and settled
    (twice, or with no wager behind them), of both kinds, in any order."""
    table = Table(rule_set).start(bank=bank if rule_set != "california" else None)
    for step, position, amount, kind in steps:
        if step == "wager" and amount != "0.00":
            table.wager(position, amount, kind=kind)
        elif step == "withdraw":
            table.add("wager_withdrawn", position=position, amount=amount, kind=kind)
        elif step == "settle":
            table.settle(position, "lose", kind=kind, collected=amount)
    view = view_round(e for e in table.events if e.round_id == table.round_id)
    ruleset = get_rule_set(rule_set)
    facts = read_settlement(view, ruleset)
    got = (list(facts.stakes.items()), list(facts.side.items()), facts.player_dealer,
           list(facts.settled.items()), list(facts.side_settled.items()), facts.stray,
           facts.stray_side, facts.settled_order)  # fmt: skip
    assert got == plain_reading(view, ruleset)
