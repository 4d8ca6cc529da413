"""Each Pai Gow wager's settlement against the engine's line: outcome, payout and vigorish.

Readings, where the record or the texts leave a choice:

- Vigorish is 5% of the amount won (PA 621a.8(k)). Where the payout itself was
  wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the amount paid is
  accepted, so one wrong payout is one finding, not also a vigorish finding.
- California charges no vigorish: any taken is a wrong fee (PG-CA-FEE).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from audit.events.paigow.settlement import WagerSettled
from audit.games.money import Cents, to_dollars
from audit.games.paigow.settlement import BankingMode, SettlementLine
from audit.games.paigow.vigorish import VigRounding, vigorish
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


@dataclass(frozen=True)
class Verdict:
    """One finding a wager's recorded settlement yields: its code, the citation key of the
    paragraph it is judged under (``None``: the kind's own) and, for vigorish, the amount owed."""

    code: str
    rule_key: str | None = None
    owed: Cents = 0


def line_verdicts(
    mode: BankingMode,
    line: SettlementLine,
    outcome: str,
    money: tuple[Cents, Cents, Cents],
    taken: Cents,
    rounding: VigRounding | None,
    *,
    known: bool = True,
) -> list[Verdict]:
    """Return the findings a wager settled as ``outcome`` with ``money`` (paid, collected,
    returned) and vigorish ``taken`` yields against the engine's ``line``: the one
    classification the checks judge by and the simulator labels by.

    A wrong outcome (where the hands decide it: ``known``) is one finding, its wrong money
    its evidence; else wrong money (a California wager played beyond or short of coverage
    is a coverage finding); then the vigorish. Rule keys are not yet checked against the
    table's citations.

    >>> from audit.games.paigow.settlement import Wager, settle_wager
    >>> line = settle_wager(Wager(1, 1000, Outcome.WIN), VigRounding.CENT)
    >>> [v.code for v in line_verdicts(BankingMode.DEALER, line, "lose", (0, 1000, 0), 0,
    ...                                 VigRounding.CENT)]
    ['PG-SETTLE-OUTCOME']
    >>> [v.code for v in line_verdicts(BankingMode.DEALER, line, "win", (1000, 0, 0), 0,
    ...                                 VigRounding.CENT)]
    ['PG-SETTLE-VIG-UNCOLLECTED']
    """
    end = label(line.wager)
    verdicts: list[Verdict] = []
    if known and outcome != end:
        verdicts.append(Verdict("PG-SETTLE-OUTCOME", settlement_rule(mode, end, money=False)))
    elif money != (line.paid, line.collected, line.returned):
        played = line.outcome in (Outcome.WIN, Outcome.LOSE)
        if mode is BankingMode.CALIFORNIA and played and (line.returned or money[2]):
            # CA: collected or paid "to the extent that the player-dealer's wager covers",
            # the rest returned.
            verdicts.append(Verdict("PG-CA-COVERAGE"))
        else:
            verdicts.append(Verdict("PG-SETTLE-PAYOUT", settlement_rule(mode, end, money=True)))
    if rounding is None:  # California: no vigorish, only the collection schedule's fees
        if taken:
            verdicts.append(Verdict("PG-CA-FEE"))
        return verdicts
    # PA 621a.8(k), 9(q) / NJ 10.7(k), 10.8(r): 5% of the amount won, at the payout. Where
    # the payout itself was wrong (PG-SETTLE-PAYOUT), 5% of either the amount owed or the
    # amount paid is not reported again.
    accepted = {line.vigorish, vigorish(money[0], rounding)}
    if taken not in accepted:
        owed = min(accepted, key=lambda amount: abs(amount - taken))
        code = "PG-SETTLE-VIG-OVER"
        if taken < owed:
            code = "PG-SETTLE-VIG-UNCOLLECTED" if taken == 0 else "PG-SETTLE-VIG-SHORT"
        verdicts.append(Verdict(code, "bank-vigorish" if mode in CENTRE_MODES else None, owed))
    return verdicts


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
    rounding = context.ruleset.vig_rounding
    rounding_name = rounding.value if rounding is not None else "no"
    verdicts = line_verdicts(
        facts.mode, line, event.outcome, (paid, collected, returned), taken, rounding, known=known
    )
    for verdict in verdicts:
        code, rule = verdict.code, cited(context, verdict.rule_key)
        if code == "PG-CA-FEE":
            emit(code, position=event.position, recorded=f"vigorish {to_dollars(taken)}",
                 expected="no vigorish: collection fees only", at_stake=to_dollars(taken),
                 events=[event])  # fmt: skip
        elif code.startswith("PG-SETTLE-VIG-"):  # only where vigorish is charged: a rounding
            emit(code, position=event.position, recorded=f"vigorish {to_dollars(taken)}",
                 expected=f"vigorish {to_dollars(verdict.owed)} ({rounding_name} rounding)",
                 at_stake=to_dollars(abs(taken - verdict.owed)), events=[event],
                 rule_key=rule)  # fmt: skip
        else:  # the outcome, or the money: one error, one money figure (what moved wrongly)
            emit(code, position=event.position,
                 recorded=shown(event.outcome, paid, collected, returned),
                 expected=shown(end, *want, line.vigorish), at_stake=to_dollars(wrong),
                 events=[event], rule_key=rule)  # fmt: skip


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
