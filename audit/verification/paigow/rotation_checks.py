"""Banking rotation (PA 621a.9(b)-(d), NJ 19:47-10.8(b)-(d); California: two rounds running).

These checks read what the table's earlier rounds left in the context; ``after_round``
then records this round's bank and wagers for the next.
"""

from __future__ import annotations

from decimal import Decimal

from audit.events.paigow.wagers import WagerKind
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.readings import banking
from audit.verification.paigow.round_view import RoundView

_ZERO = Decimal("0.00")


def _other_players_action(view: RoundView, bank: int) -> Decimal:
    return sum(
        (e.amount for _, e in view.placed if e.kind is WagerKind.PAI_GOW and e.position != bank),
        Decimal("0.00"),
    )


def _rotation(view: RoundView, context: TableContext, emit: Emit) -> None:
    bank = banking(view, context.ruleset).taken
    if bank is None:
        return
    # The action the bank covers: what a rotation breach touches, its money still correct.
    action = _other_players_action(view, bank.position)
    if context.rounds_in_game == 0:  # PA 621a.9(b): no bank in the game's first round
        emit("PG-ROT-START-OF-GAME", position=bank.position, recorded="bank accepted",
             expected="dealer banks the first round of a game", exposure=action,
             events=[bank])  # fmt: skip
    streak_position, streak = context.bank_streak
    limit = context.ruleset.max_consecutive_banks
    if streak_position == bank.position and streak >= limit:  # PA 621a.9(c); CA: two
        emit("PG-ROT-CONSECUTIVE", position=bank.position,
             recorded=f"{streak + 1} rounds running", expected=f"at most {limit}",
             exposure=action, events=[bank])  # fmt: skip
    wagered = context.last_dealer_banked_wagers
    if wagered and bank.position not in wagered:  # PA 621a.9(d)(1)
        emit("PG-ROT-NO-PRIOR-WAGER", position=bank.position,
             recorded="no wager in the last dealer-banked round",
             expected="a wager against the dealer in that round", exposure=action,
             events=[bank])  # fmt: skip
    if bank.chips_on_table is not None and bank.chips_on_table < action:  # 9(d)(2)
        emit("PG-ROT-INSUFFICIENT-CHIPS", position=bank.position,
             recorded=f"{bank.chips_on_table} on the table", expected=f"at least {action}",
             exposure=action - bank.chips_on_table, events=[bank])  # fmt: skip


def _offer_order(view: RoundView, context: TableContext, emit: Emit) -> None:
    # PA 621a.9(c): offered "continuing around the table in a counterclockwise manner";
    # California offers clockwise. Each offer must come later round the ring than the last.
    if len(view.offers) < 2:
        return  # one offer (or none) is in order whatever the ring
    layout = context.ruleset.layout
    ring = list(layout.ring if not layout.count_clockwise else reversed(layout.ring))
    offers = [o for o in view.offers if o.position in ring]
    if len(offers) < 2:
        return
    first = ring.index(offers[0].position)
    steps = [(ring.index(o.position) - first) % len(ring) for o in offers]
    for index in range(1, len(steps)):
        if steps[index] <= steps[index - 1]:
            emit("PG-ROT-OUT-OF-ORDER", position=offers[index].position,
                 recorded=f"offers at {[o.position for o in offers]}",
                 expected="each offer further round the table", events=[offers[index]])  # fmt: skip
            return


def after_round(view: RoundView, context: TableContext) -> None:
    """Record this round's bank and dealer-banked wagers for judging the next round."""
    context.rounds_in_game += 1
    bank = banking(view, context.ruleset).taken
    if bank is None:
        context.bank_streak = (None, 0)
        wagers: dict[int, Decimal] = {}  # each position's Pai Gow wagers placed, summed in order
        for _, placed in view.placed:
            if placed.kind is WagerKind.PAI_GOW:
                wagers[placed.position] = wagers.get(placed.position, _ZERO) + placed.amount
        if wagers:
            context.last_dealer_banked_wagers = wagers
        return
    position, count = context.bank_streak
    context.bank_streak = (bank.position, count + 1 if position == bank.position else 1)


CHECKS: tuple[Check, ...] = (_rotation, _offer_order)
