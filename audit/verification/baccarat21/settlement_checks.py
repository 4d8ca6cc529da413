"""Settlement: each wager's outcome and money against the engine (PA 681a.7(h)-(k), 681a.8).

Each wager placed is settled once, by
:func:`~audit.games.baccarat21.settlement.settle_wager` on the deal as the rules let it
stand (:mod:`.drawing_checks`) and the table's paytable; a second settlement of it is
a finding of its own. A winning Player or Banker Wager on a 17 pays 1 to 2 (681a.8(a));
a Bonus Wager pays from the paytable in force (681a.8(c)).
In a voided round every wager is returned.
"""

from __future__ import annotations

from audit.events.baccarat21.wagers import B21WagerSettled
from audit.games.baccarat21.drawing import Deal
from audit.games.baccarat21.rulesets import RuleSet
from audit.games.baccarat21.settlement import (
    SEVENTEEN,
    Bet,
    RoundResult,
    SettlementLine,
    Wager,
    settle_wager,
)
from audit.games.money import Cents, format_cents, to_cents
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.round_view import B21RoundView

_OUTCOME_RULE = {
    Bet.PLAYER: "player-wager",
    Bet.BANKER: "banker-wager",
    Bet.TIE: "tie-wager",
    Bet.BONUS_PLAYER: "bonus-wager",
    Bet.BONUS_BANKER: "bonus-wager",
}
_PAYOUT_RULE = {
    Bet.PLAYER: "main-payout",
    Bet.BANKER: "main-payout",
    Bet.TIE: "tie-payout",
    Bet.BONUS_PLAYER: "bonus-payout",
    Bet.BONUS_BANKER: "bonus-payout",
}


def _money(paid: Cents, collected: Cents, returned: Cents) -> str:
    parts = [
        f"{name} {format_cents(amount)}"
        for name, amount in (("paid", paid), ("collected", collected), ("returned", returned))
        if amount
    ]
    return ", ".join(parts) or "nothing moved"


def _recorded(event: B21WagerSettled) -> tuple[Cents, Cents, Cents]:
    return to_cents(event.paid), to_cents(event.collected), to_cents(event.returned)


def _why(line: SettlementLine, result: RoundResult, rules: RuleSet) -> str:
    """Return how the engine reached the expected line, in the words of 681a.8."""
    bet = line.wager.bet
    totals = f"Player {result.player_total}, Banker {result.banker_total}"
    if line.outcome.value != "win":
        return totals
    if bet in (Bet.PLAYER, Bet.BANKER):
        total = result.player_total if bet is Bet.PLAYER else result.banker_total
        return f"{totals}: {'1 to 2 on a 17' if total == SEVENTEEN else '1 to 1'}"
    if bet is Bet.TIE:
        return f"{totals}: 10 to 1"
    hand = result.player_bonus if bet is Bet.BONUS_PLAYER else result.banker_bonus
    odds = rules.paytable.odds[hand]
    return (
        f"{hand.value.replace('_', ' ')} at {odds.numerator} to {odds.denominator}, "
        f"paytable {rules.paytable.letter}"
    )


def _repeated(event: B21WagerSettled, first: B21WagerSettled, emit: Emit) -> None:
    """Report a wager settled a second time: 681a.7(h)-(k) settle each wager once, and
    681a.8 pays a winner once at its odds. The money the repeat moved is at stake; the
    first settlement is judged on its own, so nothing is counted twice."""
    paid, collected, returned = _recorded(event)
    emit(
        "B21-SETTLE-TWICE",
        position=event.position,
        rule_key=_PAYOUT_RULE[event.bet] if paid else _OUTCOME_RULE[event.bet],
        at_stake=paid + collected + returned,
        events=[first, event],
        recorded=f"{event.bet.value} settled again: {_money(paid, collected, returned)}",
        expected=f"settled once ({first.outcome}: {_money(*_recorded(first))})",
    )


def check_settlement(view: B21RoundView, deal: Deal, rules: RuleSet, emit: Emit) -> None:
    """Report wagers settled with the wrong outcome or money, never settled, or never placed."""
    placed = view.wagers()
    settled: dict[tuple[int, Bet], B21WagerSettled] = {}
    for _, event in view.settled:
        key = (event.position, event.bet)
        if key not in placed:
            emit(
                "B21-SETTLE-UNPLACED",
                position=event.position,
                events=[event],
                at_stake=sum(_recorded(event)),
                recorded=f"{event.bet.value} settled: {_money(*_recorded(event))}",
                expected="only wagers placed are settled",
            )
        elif key in settled:
            _repeated(event, settled[key], emit)
        settled.setdefault(key, event)  # the first settlement is the one that counts
    result = RoundResult.from_deal(deal) if len(deal.cards) >= 4 else None
    for (position, bet), amount in sorted(placed.items(), key=lambda item: item[0][0]):
        record = settled.get((position, bet))
        placements = [e for _, e in view.placed if (e.position, e.bet) == (position, bet)]
        if record is None:
            if view.voided is None and result is None:
                continue  # no cards, no void: the round was cut off; its records say so
            emit(
                "B21-SETTLE-MISSING",
                position=position,
                exposure=amount,  # unrecorded, not shown moved wrongly: the wager it touched
                events=placements,
                recorded=f"{bet.value} wager of {format_cents(amount)} never settled",
                expected="every wager paid, collected or returned",
            )
            continue
        paid, collected, returned = _recorded(record)
        if view.voided is not None:
            if (record.outcome, paid, collected, returned) != ("returned", 0, 0, amount):
                emit(
                    "B21-SETTLE-VOID",
                    position=position,
                    events=[view.voided, record],
                    at_stake=paid + collected + abs(amount - returned),
                    recorded=f"{bet.value} {record.outcome}: {_money(paid, collected, returned)}",
                    expected=f"returned {format_cents(amount)} (the round was voided)",
                )
            continue
        if result is None:
            continue
        line = settle_wager(Wager(position, bet, amount), result, rules.paytable)
        expected = f"{line.outcome.value}: {_money(line.paid, line.collected, line.returned)} "
        expected += f"({_why(line, result, rules)})"
        recorded = f"{bet.value} {record.outcome}: {_money(paid, collected, returned)}"
        stake = abs((paid - collected) - line.net) or abs(returned - line.returned)
        if record.outcome != line.outcome.value:
            emit(
                "B21-SETTLE-OUTCOME",
                position=position,
                rule_key=_OUTCOME_RULE[bet],
                at_stake=stake,
                events=[record],
                recorded=recorded,
                expected=expected,
            )
        elif (paid, collected, returned) != (line.paid, line.collected, line.returned):
            emit(
                "B21-SETTLE-PAYOUT",
                position=position,
                rule_key=_PAYOUT_RULE[bet],
                at_stake=stake,
                events=[record],
                recorded=recorded,
                expected=expected,
            )
