"""One round's facts, gathered by kind in the order they were recorded.

The view keeps every event (nothing is dropped because it is odd) and the index
of each in the round, so checks can ask what happened before what. What several
checks derive alike from a round (its hands as the engine's settings, say) is
derived once per view, through :meth:`RoundView.once`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from audit.events import rounds
from audit.events.envelope import Event
from audit.events.paigow import play, settlement, wagers

T = TypeVar("T")
_MISSING = object()


@dataclass
class RoundView:
    """Every fact of one round, by kind, each with its index in the round."""

    table_id: str
    round_id: str
    events: list[Event] = field(default_factory=list)
    started: rounds.RoundStarted | None = None
    stacks: play.StacksFormed | None = None
    """The first stacks formed (a remix forms new ones: see ``formed``)."""
    formed: list[tuple[int, play.StacksFormed]] = field(default_factory=list)
    """Every ``stacks_formed``, with its index."""
    cut: play.TilesCut | None = None
    bank: play.BankAccepted | None = None
    offers: list[play.BankOffered] = field(default_factory=list)
    co_bank: play.CoBankRequested | None = None
    dealer_wager: wagers.DealerWagerAgainstBank | None = None
    placed: list[tuple[int, wagers.WagerPlaced]] = field(default_factory=list)
    withdrawn: list[tuple[int, wagers.WagerWithdrawn]] = field(default_factory=list)
    no_more_bets: int | None = None
    """The index of the first "no more bets", if any."""
    shakes: list[tuple[int, play.ShakerShaken]] = field(default_factory=list)
    dice: list[tuple[int, play.DiceRevealed]] = field(default_factory=list)
    rng: list[tuple[int, play.RngNumberShown]] = field(default_factory=list)
    no_rolls: list[tuple[int, play.NoRollCalled]] = field(default_factory=list)
    style: play.DeliveryStyleChosen | None = None
    delivered: list[tuple[int, play.StackDelivered]] = field(default_factory=list)
    collected: play.UnwageredStacksCollected | None = None
    exposed: list[tuple[int, play.TileExposed]] = field(default_factory=list)
    player_voids: list[play.HandVoided] = field(default_factory=list)
    hands: dict[int, play.HandSet] = field(default_factory=dict)
    """Position -> its last ``hand_set``: the setting in play."""
    resets: list[tuple[int, play.HandSet, play.HandSet]] = field(default_factory=list)
    """Each ``hand_set`` of a position already set: its index, the setting it replaced, itself."""
    surrenders: list[tuple[int, play.Surrendered]] = field(default_factory=list)
    reveals: dict[int, int] = field(default_factory=dict)
    """Position -> index of its (first) hands_revealed."""
    settled: list[tuple[int, settlement.WagerSettled]] = field(default_factory=list)
    dealer_wager_settled: settlement.DealerWagerSettled | None = None
    shortfall: settlement.BankShortfallCollected | None = None
    surplus: settlement.BankSurplusSettled | None = None
    co_bank_split: settlement.CoBankSplit | None = None
    fees: list[settlement.CollectionFeeTaken] = field(default_factory=list)
    voided: play.RoundVoided | None = None
    completed: rounds.RoundCompleted | None = None
    _derived: dict[Callable[[Any], Any], Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """What :meth:`once` has derived from this view, by derivation."""

    @property
    def dealer_id(self) -> str | None:
        """Return the dealer who started the round, if recorded."""
        return self.started.dealer_id if self.started else None

    @property
    def bank_position(self) -> int | None:
        """Return the position of a player bank (or co-bank), if any."""
        return self.bank.position if self.bank else None

    def once(self, derive: Callable[[RoundView], T]) -> T:
        """Return ``derive(self)``, derived on the first call for this view and then kept.

        For what several checks derive alike from the round. A view is not changed once
        built, so what was derived from it stays true; ``derive`` must read only the view.
        """
        found = self._derived.get(derive, _MISSING)
        if found is _MISSING:
            found = self._derived[derive] = derive(self)
        return found

    def pai_gow_wagers(self) -> dict[int, list[wagers.WagerPlaced]]:
        """Return the Pai Gow wagers placed at each position."""
        found: dict[int, list[wagers.WagerPlaced]] = defaultdict(list)
        for _, event in self.placed:
            if event.kind is wagers.WagerKind.PAI_GOW:
                found[event.position].append(event)
        return dict(found)

    def delivered_to(self) -> dict[int, list[str]]:
        """Return the tiles delivered to each position (the last delivery wins)."""
        return {event.position: list(event.tiles) for _, event in self.delivered}


_SINGLE = {
    "round_started": "started",
    "tiles_cut": "cut",
    "bank_accepted": "bank",
    "co_bank_requested": "co_bank",
    "dealer_wager_against_bank": "dealer_wager",
    "delivery_style_chosen": "style",
    "unwagered_stacks_collected": "collected",
    "dealer_wager_settled": "dealer_wager_settled",
    "bank_shortfall_collected": "shortfall",
    "bank_surplus_settled": "surplus",
    "co_bank_split": "co_bank_split",
    "round_voided": "voided",
    "round_completed": "completed",
}
_INDEXED = {
    "wager_placed": "placed",
    "wager_withdrawn": "withdrawn",
    "shaker_shaken": "shakes",
    "dice_revealed": "dice",
    "rng_number_shown": "rng",
    "no_roll_called": "no_rolls",
    "stack_delivered": "delivered",
    "tile_exposed": "exposed",
    "surrendered": "surrenders",
    "wager_settled": "settled",
}


# How view_round files each event type: the first kept, every one kept with its index,
# or a rule of its own. Looked up by class (cached from the type name), not by isinstance.
_KEEP_FIRST, _KEEP_INDEXED, _STACKS, _NO_MORE_BETS, _OFFER, _VOID, _HAND, _REVEAL, _FEE, _OTHER = (
    range(10)
)
_BY_NAME: dict[str, tuple[int, str]] = {
    **{kind: (_KEEP_FIRST, attr) for kind, attr in _SINGLE.items()},
    **{kind: (_KEEP_INDEXED, attr) for kind, attr in _INDEXED.items()},
    "stacks_formed": (_STACKS, ""),
    "no_more_bets": (_NO_MORE_BETS, ""),
    "bank_offered": (_OFFER, ""),
    "hand_voided": (_VOID, ""),
    "hand_set": (_HAND, ""),
    "hands_revealed": (_REVEAL, ""),
    "collection_fee_taken": (_FEE, ""),
}
_ROUTES: dict[type[Event], tuple[int, str]] = {}


def _route(cls: type[Event]) -> tuple[int, str]:
    """Return how an event class is filed, learning it from its type name on first sight."""
    route = _ROUTES[cls] = _BY_NAME.get(cls.type_name(), (_OTHER, ""))
    return route


def view_round(events: Iterable[Event]) -> RoundView:
    """Gather one round's events (all with the same table and round id) into a view."""
    ordered = list(events)
    if not ordered or ordered[0].round_id is None:
        raise ValueError("a round view needs the events of one round")
    view = RoundView(ordered[0].table_id, ordered[0].round_id, ordered)
    routes = _ROUTES
    for index, event in enumerate(ordered):
        how, attr = routes.get(type(event)) or _route(type(event))
        if how == _KEEP_INDEXED:
            getattr(view, attr).append((index, event))
        elif how == _KEEP_FIRST:
            if getattr(view, attr) is None:  # the first is what the round used
                setattr(view, attr, event)
        # The route was learnt from the class's type name: each cast below says what it holds.
        elif how == _HAND:
            hand = cast(play.HandSet, event)
            earlier = view.hands.get(hand.position)
            if earlier is not None:
                view.resets.append((index, earlier, hand))
            view.hands[hand.position] = hand
        elif how == _REVEAL:
            view.reveals.setdefault(cast(play.HandsRevealed, event).position, index)
        elif how == _STACKS:
            formed = cast(play.StacksFormed, event)
            view.formed.append((index, formed))
            if view.stacks is None:  # the first is ``stacks``
                view.stacks = formed
        elif how == _NO_MORE_BETS:
            view.no_more_bets = index if view.no_more_bets is None else view.no_more_bets
        elif how == _OFFER:
            view.offers.append(cast(play.BankOffered, event))
        elif how == _VOID:
            view.player_voids.append(cast(play.HandVoided, event))
        elif how == _FEE:
            view.fees.append(cast(settlement.CollectionFeeTaken, event))
    return view
