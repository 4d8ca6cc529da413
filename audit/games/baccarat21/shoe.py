"""The shoe: shuffle, cut, cover card, burn and reshuffle (PA 681a.3(b), 681a.5, 681a.7(a)-(d)).

Preparing a shoe (681a.5(a)-(d)): shuffle the batch, cut it by placing a cover
card at least ten cards from the top and from the bottom and moving the cards
above it, with that cover card, to the bottom, then insert the second cover card
at least ten cards above the bottom. The first cover card is then the last thing
in the stack and never comes into play; the second is *the* cover card of
681a.7(d). A :class:`Shoe` holds the cards in dealing order and how many come
out before the cover card.

Dealing from it (681a.7(c)-(d)): the first card out of a freshly loaded shoe is
burned, and each new dealer burns one more. When the cover card appears, first in
a round or during one, the round is completed and the cards are then reshuffled:
:func:`reshuffle_due`.

:class:`ShoeProcedure` follows a table's shoe events and names each step that
breaks these rules, by rule key, for the verifier: a burn missing, a round dealt
after the cover card without a reshuffle, a card found face up in the shoe and
dealt anyway (681a.9(a)), a batch used twice running (681a.3(b)(4)).

>>> import random
>>> shoe = prepare_shoe(4, random.Random(7), cover_from_bottom=52)
>>> len(shoe.cards), shoe.cover_at
(208, 156)
>>> reshuffle_due(shoe, 156), reshuffle_due(shoe, 157)
(False, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from audit.games.baccarat21.cards import shoe_cards
from audit.games.cards.deck import Card, check_cards
from audit.games.errors import InvalidDealError

COVER_MARGIN = 10
"""PA 681a.5(c): the cut is "at least ten cards in from the top or the bottom";
681a.5(d): the cover card goes "at least 10 cards above the bottom"."""
BURN_CARDS = 1
"""PA 681a.7(c): "remove the first card and place it in the discard rack"."""


@dataclass(frozen=True)
class Shoe:
    """A prepared shoe: the cards in dealing order, and how many come out before the cover card.

    ``batch`` is 0 or 1 when two batches alternate (PA 681a.3(b)), else 0.
    """

    cards: tuple[Card, ...]
    cover_at: int
    batch: int = 0

    def __post_init__(self) -> None:
        check_cards(self.cards, "shoe")
        if not 0 <= self.cover_at <= len(self.cards) - COVER_MARGIN:
            raise InvalidDealError(
                f"the cover card must be at least {COVER_MARGIN} cards above the bottom: "
                f"{self.cover_at!r} cards above it of {len(self.cards)}"
            )
        if self.batch not in (0, 1):
            raise InvalidDealError(f"batch must be 0 or 1: {self.batch!r}")


def shuffle_cards(cards: Iterable[Card], rng: random.Random) -> tuple[Card, ...]:
    """Return the cards randomly intermixed by ``rng`` (PA 681a.5(a))."""
    stack = list(check_cards(cards, "stack"))
    rng.shuffle(stack)
    return tuple(stack)


def cut_stack(stack: Sequence[Card], at: int) -> tuple[Card, ...]:
    """Return the stack cut with the cover card placed ``at`` cards from the top.

    PA 681a.5(c)-(d): the cards above the cover card go, with it, to the bottom.

    >>> cut_stack(tuple(range(30)), 12)[:3], cut_stack(tuple(range(30)), 12)[-3:]
    ((12, 13, 14), (9, 10, 11))
    """
    if not COVER_MARGIN <= at <= len(stack) - COVER_MARGIN:
        raise InvalidDealError(
            f"the cut must be at least {COVER_MARGIN} cards from the top and the bottom: "
            f"{at!r} of {len(stack)}"
        )
    return tuple(stack[at:]) + tuple(stack[:at])


def insert_cover_card(stack: Sequence[Card], from_bottom: int, batch: int = 0) -> Shoe:
    """Return the shoe with the cover card ``from_bottom`` cards above the bottom (681a.5(d))."""
    if from_bottom < COVER_MARGIN:
        raise InvalidDealError(
            f"the cover card must be at least {COVER_MARGIN} cards above the bottom: "
            f"{from_bottom!r}"
        )
    return Shoe(tuple(stack), len(stack) - from_bottom, batch)


def prepare_shoe(decks: int, rng: random.Random, cover_from_bottom: int, batch: int = 0) -> Shoe:
    """Shuffle ``decks`` decks, cut at a place ``rng`` picks, and insert the cover card."""
    stack = shuffle_cards(shoe_cards(decks), rng)
    at = rng.randint(COVER_MARGIN, len(stack) - COVER_MARGIN)
    return insert_cover_card(cut_stack(stack, at), cover_from_bottom, batch)


def reshuffle_due(shoe: Shoe, dealt: int) -> bool:
    """Return whether a round that ended with ``dealt`` cards out of the shoe (burns
    included) must be followed by a reshuffle: the cover card came out (681a.7(d))."""
    return dealt > shoe.cover_at


class ShoeEvent(Enum):
    """What happens at the shoe, as a verifier sees it."""

    LOADED = "loaded"
    """A shuffled, cut batch placed in the shoe (PA 681a.7(a))."""
    DEALER_CHANGED = "dealer_changed"
    BURNED = "burned"
    """One card from the shoe to the discard rack, unseen."""
    DEALT = "dealt"
    """One card from the shoe to a hand."""
    FACE_UP_DEALT = "face_up_dealt"
    """A card found face up in the shoe, dealt to a hand all the same."""
    FACE_UP_DISCARDED = "face_up_discarded"
    """A card found face up in the shoe, set aside as PA 681a.9(a) requires."""
    COVER_CARD = "cover_card"
    """The cover card came out of the shoe."""
    ROUND_ENDED = "round_ended"


@dataclass(frozen=True)
class ShoeProcedure:
    """The shoe's state between events, for checking 681a.3(b), 681a.7(c)-(d) and 681a.9(a).

    >>> state, breaches = ShoeProcedure().apply(ShoeEvent.LOADED, batch=0)
    >>> state, breaches = state.apply(ShoeEvent.DEALT)
    >>> breaches
    ('burn',)
    """

    batches: bool = False
    """Two batches alternate (an automated shuffler other than a continuous one)."""
    batch: int | None = None
    """The batch in the shoe, ``None`` before the first."""
    burn_due: bool = False
    in_round: bool = False
    cover_card_out: bool = False
    reshuffle_due: bool = False

    def apply(
        self, event: ShoeEvent, batch: int | None = None
    ) -> tuple[ShoeProcedure, tuple[str, ...]]:
        """Return the state after ``event`` and the rule keys it breaks (see rulesets.py).

        ``batch`` goes with :attr:`ShoeEvent.LOADED` and nothing else.
        """
        if (batch is not None) != (event is ShoeEvent.LOADED):
            raise InvalidDealError(f"a batch goes with a loaded shoe only: {event!r}, {batch!r}")
        breaches: list[str] = []
        if event is ShoeEvent.LOADED:
            # 681a.3(b)(4): "each batch being used for every other dealing shoe".
            if self.batches and batch == self.batch:
                breaches.append("batches")
            # 681a.7(c): the first card after a full batch is placed in the shoe is burned.
            return ShoeProcedure(self.batches, batch, burn_due=True), tuple(breaches)
        if event is ShoeEvent.DEALER_CHANGED:
            return replace(self, burn_due=True), ()  # 681a.7(c), second sentence
        if event is ShoeEvent.BURNED:
            return replace(self, burn_due=False), ()
        if event is ShoeEvent.COVER_CARD:
            return replace(self, cover_card_out=True), ()
        if event is ShoeEvent.FACE_UP_DISCARDED:
            return self, ()
        if event is ShoeEvent.ROUND_ENDED:
            # 681a.7(d): the round the cover card came out in is completed, then reshuffle.
            return replace(self, in_round=False, reshuffle_due=self.cover_card_out), ()
        # A card dealt to a hand.
        if self.burn_due:
            breaches.append("burn")
        if not self.in_round and self.reshuffle_due:
            breaches.append("reshuffle")
        if event is ShoeEvent.FACE_UP_DEALT:
            breaches.append("face-up-card")  # 681a.9(a): "may not be used in that round"
        return replace(self, burn_due=False, in_round=True), tuple(breaches)


def check_shoe(
    events: Iterable[ShoeEvent | tuple[ShoeEvent, int]], batches: bool = False
) -> list[tuple[int, str]]:
    """Return ``(event index, rule key)`` for every breach in a run of shoe events.

    A loaded shoe is given as ``(ShoeEvent.LOADED, batch)``.

    >>> E = ShoeEvent
    >>> check_shoe([(E.LOADED, 0), E.BURNED, E.DEALT, E.COVER_CARD, E.ROUND_ENDED, E.DEALT])
    [(5, 'reshuffle')]
    """
    state = ShoeProcedure(batches=batches)
    found: list[tuple[int, str]] = []
    for index, item in enumerate(events):
        event, batch = item if isinstance(item, tuple) else (item, None)
        state, breaches = state.apply(event, batch)
        found += [(index, key) for key in breaches]
    return found
