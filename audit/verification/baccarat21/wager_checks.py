"""Wagers: placed before the first card and left alone until settled (PA 681a.6(b)), and a main
wager under every optional one (PA 681a.6(c)-(d)).

681a.6(b) forbids removing a wager "until a decision has been rendered and implemented"
and names no moment before which it may be taken back. Read as written, every removal
before settlement breaks it: after the first card it is critical (the player has seen
cards), before it a warning. The wager is then judged as what stayed on the layout;
the chips taken back are the money at stake.
"""

from __future__ import annotations

from audit.games.baccarat21.settlement import MAIN_BETS
from audit.games.money import to_cents
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.round_view import B21RoundView


def check_wagers(view: B21RoundView, emit: Emit) -> None:
    """Report wagers placed after the first card, and optional wagers without a main wager."""
    first = view.first_card
    for index, event in view.placed:
        if first is not None and index > first:
            emit(
                "B21-WAGER-LATE",
                position=event.position,
                at_stake=to_cents(event.amount),
                recorded=f"{event.bet.value} wager of {event.amount} after the first card",
                expected="every wager placed before the first card is dealt",
                events=[view.events[first], event],
            )
    for index, removal in view.removed:
        late = first is not None and index > first
        # After the first card a removal takes back a wager the cards already decided (at
        # stake); before it, the wager simply left the layout early (exposure).
        amount = to_cents(removal.amount)
        emit(
            "B21-WAGER-REMOVED" if late else "B21-WAGER-REMOVED-EARLY",
            position=removal.position,
            at_stake=amount if late else 0,
            exposure=0 if late else amount,
            recorded=f"{removal.bet.value} wager, {removal.amount} taken back "
            + ("after the first card" if late else "before the first card"),
            expected="no wager removed until it is settled",
            events=[removal],
        )
    bets: dict[int, set] = {}
    for _, event in view.placed:
        bets.setdefault(event.position, set()).add(event.bet)
    for position, placed in sorted(bets.items()):
        if not placed & MAIN_BETS:
            optional = sorted(bet.value for bet in placed)
            events = [e for _, e in view.placed if e.position == position]
            emit(
                "B21-WAGER-NO-MAIN",
                position=position,
                exposure=sum(to_cents(e.amount) for e in events),
                recorded=f"{', '.join(optional)} with no Player or Banker Wager",
                expected="the optional wagers only for a player with a Player or Banker Wager",
                events=events,
            )
