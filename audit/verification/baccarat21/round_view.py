"""One 21 Baccarat round's facts, gathered by kind in the order they were recorded.

The view keeps every event (nothing is dropped because it is odd) with its index in
the round, so checks can ask what happened before what.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from audit.events.baccarat21.play import B21CardDealt, B21RoundVoided
from audit.events.baccarat21.shoe import CardFoundFaceUp
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved, B21WagerSettled
from audit.events.envelope import Event
from audit.games.baccarat21.settlement import BONUS_BETS, Bet
from audit.games.money import Cents, to_cents


@dataclass
class RoundView:
    """Every fact of one round, by kind, each with its index in the round."""

    table_id: str
    round_id: str
    events: list[Event] = field(default_factory=list)
    dealer_id: str | None = None
    """The dealer of the round's ``round_started``, if recorded."""
    placed: list[tuple[int, B21WagerPlaced]] = field(default_factory=list)
    removed: list[tuple[int, B21WagerRemoved]] = field(default_factory=list)
    cards: list[tuple[int, B21CardDealt]] = field(default_factory=list)
    face_up: list[tuple[int, CardFoundFaceUp]] = field(default_factory=list)
    settled: list[tuple[int, B21WagerSettled]] = field(default_factory=list)
    voided: B21RoundVoided | None = None
    completed: Event | None = None

    @property
    def first_card(self) -> int | None:
        """Return the index of the first card dealt to a hand (a face-up card used counts)."""
        used = [i for i, e in self.face_up if e.disposition == "dealt"]
        return min([i for i, _ in self.cards[:1]] + used, default=None)

    def wagers(self, before_first_card: bool = False) -> dict[tuple[int, Bet], Cents]:
        """Return the cents on each (position, bet), less any taken back (a wager taken back
        in full is gone); only what stood before the first card when ``before_first_card``."""
        limit = self.first_card if before_first_card else None
        found: dict[tuple[int, Bet], Cents] = {}
        for index, event in self.placed:
            if limit is None or index < limit:
                key = (event.position, event.bet)
                found[key] = found.get(key, 0) + to_cents(event.amount)
        for index, removal in self.removed:
            key = (removal.position, removal.bet)
            if key in found and (limit is None or index < limit):
                found[key] -= to_cents(removal.amount)
        return {key: amount for key, amount in found.items() if amount > 0}

    def bonus_on_table(self) -> bool:
        """Return whether a Bonus Wager went down before the first card (681a.7(f)(2))."""
        return any(bet in BONUS_BETS for _, bet in self.wagers(before_first_card=True))

    def staked(self, bets: Iterable[Bet] = tuple(Bet)) -> Cents:
        """Return the cents wagered on ``bets`` this round."""
        wanted = set(bets)
        return sum(amount for (_, bet), amount in self.wagers().items() if bet in wanted)


def view_round(events: Iterable[Event]) -> RoundView:
    """Gather one round's events (all with the same table and round id) into a view."""
    ordered = list(events)
    if not ordered or ordered[0].round_id is None:
        raise ValueError("a round view needs the events of one round")
    view = RoundView(ordered[0].table_id, ordered[0].round_id)
    for index, event in enumerate(ordered):
        view.events.append(event)
        if isinstance(event, B21WagerPlaced):
            view.placed.append((index, event))
        elif isinstance(event, B21WagerRemoved):
            view.removed.append((index, event))
        elif isinstance(event, B21CardDealt):
            view.cards.append((index, event))
        elif isinstance(event, CardFoundFaceUp):
            view.face_up.append((index, event))
        elif isinstance(event, B21WagerSettled):
            view.settled.append((index, event))
        elif isinstance(event, B21RoundVoided):
            view.voided = view.voided or event
        elif event.type_name() == "round_started" and view.dealer_id is None:
            view.dealer_id = event.dealer_id  # type: ignore[attr-defined]
        elif event.type_name() == "round_completed" and view.completed is None:
            view.completed = event
    return view
