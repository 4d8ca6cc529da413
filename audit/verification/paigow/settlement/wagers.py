"""Each Pai Gow wager's settlement against the engine's line: outcome, payout and vigorish.

Readings, where the record or the texts leave a choice:

- Vigorish is 5% of the amount won (PA 621a.8(k)). Where the payout itself was
  wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the amount paid is
  accepted, so one wrong payout is one finding, not also a vigorish finding.
- California charges no vigorish: any taken is a wrong fee (PG-CA-FEE).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from audit.events.paigow.settlement import WagerSettled
from audit.games.money import Cents, to_dollars
from audit.games.paigow.settlement import BankingMode, SettlementLine
from audit.games.paigow.vigorish import vigorish
from audit.games.wagering import Outcome
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.expected import ExpectedSettlement, label
from audit.verification.paigow.settlement.facts import (
    CENTRE_MODES,
    SettlementFacts,
    cited,
    late_returned,
    recorded_money,
    settlement_rule,
)

_VOID_RULES = {"wrong_deal": "wrong-deal", "banker_tile_exposed": "exposed-dealer-tile"}


def shown(outcome: str, paid: Cents, collected: Cents, returned: Cents, vig: Cents = 0) -> str:
    """Return a settlement's outcome and amounts as a finding shows them, in dollars."""
    text = f"{outcome}: paid {to_dollars(paid)}, collected {to_dollars(collected)}"
    text += f", returned {to_dollars(returned)}"
    return text + (f", vigorish {to_dollars(vig)}" if vig else "")


def money_at_stake(
    recorded: tuple[Cents, Cents, Cents], expected: tuple[Cents, Cents, Cents]
) -> Cents:
    """Return the larger of the player's wrong result and the wrongly returned amount."""
    (paid, collected, returned), (want_paid, want_collected, want_returned) = recorded, expected
    net = abs((paid - collected) - (want_paid - want_collected))
    return max(net, abs(returned - want_returned))


def report_stray(
    emit: Emit,
    events: Iterable[WagerSettled],
    code: str,
    what: str,
    rule_of: Callable[[WagerSettled], str | None] = lambda event: None,
) -> None:
    """Report settlements of no placed wager, or of one settled already.

    ``rule_of`` gives the citation key of each (``None``: the finding kind's own).
    """
    for event in events:
        paid, collected, returned, vig = recorded_money(event)
        emit(code, position=event.position,
             recorded=shown(event.outcome, paid, collected, returned, vig),
             expected=f"no {what} settlement: no wager left to settle at this position",
             at_stake=to_dollars(max(paid, collected, returned)), events=[event],
             rule_key=rule_of(event))  # fmt: skip


def _judge_vigorish(
    emit: Emit,
    context: TableContext,
    mode: BankingMode,
    event: WagerSettled,
    line: SettlementLine,
    paid: Cents,
    taken: Cents,
) -> None:
    """Judge the vigorish ``taken`` on a wager recorded as ``paid`` (both cents, as recorded)."""
    rounding = context.ruleset.vig_rounding
    if rounding is None:  # California: no vigorish, only the collection schedule's fees
        if taken:
            emit("PG-CA-FEE", position=event.position, recorded=f"vigorish {to_dollars(taken)}",
                 expected="no vigorish: collection fees only", at_stake=to_dollars(taken),
                 events=[event])  # fmt: skip
        return
    # PA 621a.8(k), 9(q) / NJ 10.7(k), 10.8(r): 5% of the amount won, at the payout. Where
    # the payout itself was wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the
    # amount paid is not reported again.
    accepted = {line.vigorish, vigorish(paid, rounding)}
    if taken in accepted:
        return
    owed = min(accepted, key=lambda amount: abs(amount - taken))
    code = "PG-SETTLE-VIG-OVER"
    if taken < owed:
        code = "PG-SETTLE-VIG-UNCOLLECTED" if taken == 0 else "PG-SETTLE-VIG-SHORT"
    rule = cited(context, "bank-vigorish" if mode in CENTRE_MODES else None)
    emit(code, position=event.position, recorded=f"vigorish {to_dollars(taken)}",
         expected=f"vigorish {to_dollars(owed)} ({rounding.value} rounding)",
         at_stake=to_dollars(abs(taken - owed)), events=[event], rule_key=rule)  # fmt: skip


def is_line(event: WagerSettled, line: SettlementLine) -> bool:
    """Return whether a settlement records exactly the line: its outcome and every amount."""
    exact = (line.paid, line.collected, line.returned, line.vigorish)
    return event.outcome == label(line.wager) and recorded_money(event) == exact


def _judge_line(
    emit: Emit,
    context: TableContext,
    view: RoundView,
    facts: SettlementFacts,
    event: WagerSettled,
    expected: tuple[SettlementLine, bool],
) -> None:
    line, known = expected
    if is_line(event, line):
        return  # the engine's line to the cent: no judgement below finds anything
    paid, collected, returned, taken = recorded_money(event)
    returned -= late_returned(event, facts)  # a late raise handed back: PA 621a.5(c)
    want = (line.paid, line.collected, line.returned)
    if view.voided is not None:  # every wager returned whole, nothing else moved
        if (paid, collected, returned, taken) != (*want, 0):
            wrong = max(money_at_stake((paid, collected, returned), want), taken)
            rule = cited(context, _VOID_RULES.get(view.voided.reason))
            emit("PG-SETTLE-PAYOUT", position=event.position,
                 recorded=shown(event.outcome, paid, collected, returned, taken),
                 expected=f"{shown(label(line.wager), *want, line.vigorish)} (round voided)",
                 at_stake=to_dollars(wrong),
                 events=[view.voided, event], rule_key=rule)  # fmt: skip
        return
    end = label(line.wager)
    wrong = money_at_stake((paid, collected, returned), want)
    if known and event.outcome != end:
        # One error, one money figure: the wrong outcome's payout is its evidence, not a
        # second finding. Money at stake is what moved wrongly (none if only the label is).
        rule = cited(context, settlement_rule(facts.mode, end, money=False))
        emit("PG-SETTLE-OUTCOME", position=event.position,
             recorded=shown(event.outcome, paid, collected, returned),
             expected=shown(end, *want, line.vigorish), at_stake=to_dollars(wrong),
             events=[event], rule_key=rule)  # fmt: skip
    elif (paid, collected, returned) != want:
        code = "PG-SETTLE-PAYOUT"
        rule = cited(context, settlement_rule(facts.mode, end, money=True))
        played = line.outcome in (Outcome.WIN, Outcome.LOSE)
        if facts.mode is BankingMode.CALIFORNIA and played and (line.returned or returned):
            # CA: collected or paid "to the extent that the player-dealer's wager covers",
            # the rest returned.
            code, rule = "PG-CA-COVERAGE", None
        emit(code, position=event.position,
             recorded=shown(event.outcome, paid, collected, returned),
             expected=shown(end, *want, line.vigorish), at_stake=to_dollars(wrong),
             events=[event], rule_key=rule)  # fmt: skip
    _judge_vigorish(emit, context, facts.mode, event, line, paid, taken)


def judge_wagers(
    view: RoundView,
    context: TableContext,
    emit: Emit,
    facts: SettlementFacts,
    expected: ExpectedSettlement,
) -> None:
    """Each Pai Gow wager: outcome, payout, vigorish (PA 621a.8(e)-(k), 9(o)-(r); CA coverage)."""
    for position, event in facts.settled.items():
        line = expected.lines.get(position)
        if line is not None:
            _judge_line(emit, context, view, facts, event, line)

    def rule_of(event: WagerSettled) -> str | None:
        # A stray is judged under the paragraph for the money it moved: the end recorded.
        return cited(context, settlement_rule(facts.mode, event.outcome, money=True))

    report_stray(emit, facts.stray, "PG-SETTLE-PAYOUT", "Pai Gow", rule_of)
