"""California: settlement in clockwise order from the action button, and collection fees.

California coverage is judged in the order the wagers were actually settled; a
settlement out of clockwise order is PG-CA-ORDER, with the money the order moved as
its stake.
"""

from __future__ import annotations

from audit.games.money import Cents, decimal_cents, to_dollars
from audit.games.paigow.california import settle_california
from audit.games.paigow.collection import collection_fees
from audit.games.paigow.layout import Position
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode, Wager
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.expected import california_order, expected_wagers
from audit.verification.paigow.settlement.facts import SettlementFacts, expected_order


def _player_dealer_result(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts, order: list[Position]
) -> dict[Position, Cents] | None:
    """Return each player's net under California coverage in ``order``, if all are known."""
    wagers: list[Wager] = []
    for found in expected_wagers(view, ruleset, facts, order):
        if found is None:
            return None
        wagers.append(found[0])
    settled = settle_california(wagers, facts.player_dealer)
    return {line.position: line.paid - line.collected for line in settled.lines}


def judge_order(view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts) -> None:
    """CA: wagers settled "in a clockwise manner ... starting with the player with the action
    button"."""
    ruleset = context.ruleset
    if facts.mode is not BankingMode.CALIFORNIA or view.voided is not None:
        return
    expected = expected_order(view, ruleset, facts)
    if expected is None:
        return
    recorded = facts.settled_order
    wanted = [p for p in expected if p in facts.settled]
    if recorded == wanted:
        return
    first = next(
        i for i, (got, want) in enumerate(zip(recorded, wanted, strict=True)) if got != want
    )
    at_stake = 0
    if facts.player_dealer > 0:
        actual = _player_dealer_result(view, ruleset, facts, california_order(view, ruleset, facts))
        lawful = _player_dealer_result(view, ruleset, facts, expected)
        if actual is not None and lawful is not None:
            # What the order moved: each player's gain against the lawful order, the
            # player-dealer's included, summed over those who gained.
            deltas = [actual[p] - lawful[p] for p in lawful]
            deltas.append(-sum(deltas))
            at_stake = sum(d for d in deltas if d > 0)
    position = recorded[first]
    # Where the order moved money, that money is at stake (critical); where it moved none,
    # the breach touched the round's settled wagers (exposure).
    action = 0 if at_stake else sum(facts.stakes.get(p, 0) for p in facts.settled)
    emit("PG-CA-ORDER", position=position, recorded=f"settled {recorded}",
         expected=f"clockwise from the button: {wanted}", at_stake=to_dollars(at_stake),
         exposure=to_dollars(action), events=[facts.settled[position]])  # fmt: skip


def judge_fees(view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts) -> None:
    """CA Collection Rates Schedule: each fee by the table's schedule option."""
    ruleset = context.ruleset
    schedule = ruleset.collection_schedule
    if schedule is None or view.completed is None:
        return  # fees are taken after every settlement
    positions = sorted(facts.stakes)
    want: dict[Position, Cents] = {}
    if view.voided is None:  # a voided round takes no fee (settle_voided_round)
        fees, player_dealer_fee = collection_fees(schedule, [facts.stakes[p] for p in positions])
        want = dict(zip(positions, fees, strict=True))
        want[ruleset.layout.dealer] = want.get(ruleset.layout.dealer, 0) + player_dealer_fee
    got: dict[Position, Cents] = {}
    for event in view.fees:
        got[event.position] = got.get(event.position, 0) + decimal_cents(event.amount)
        if event.schedule_option != schedule.option:
            emit("PG-CA-FEE", position=event.position,
                 recorded=f"schedule option {event.schedule_option}",
                 expected=f"schedule option {schedule.option}", events=[event])  # fmt: skip
    for position in sorted(set(want) | set(got)):
        taken, owed = got.get(position, 0), want.get(position, 0)
        if taken != owed:
            shown = [e for e in view.fees if e.position == position]
            emit("PG-CA-FEE", position=position, recorded=f"fee {to_dollars(taken)}",
                 expected=f"fee {to_dollars(owed)} (option {schedule.option})",
                 at_stake=to_dollars(abs(taken - owed)), events=shown)  # fmt: skip
