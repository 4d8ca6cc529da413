"""The shoe: shuffling, the cut and cover card, loading, burning, and what comes out of it
besides the round's cards (PA 681a.3(b), 681a.5, 681a.7(a)-(d), 681a.9(a)).

Shuffling, cutting, loading and burning happen between rounds and are table events;
the cover card and a card found face up come out while a round is dealt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from audit.events.baccarat21.fields import CardName
from audit.events.envelope import Event, TableEvent, event

Batch = Literal[0, 1]


@event
class ShoeShuffled(TableEvent):
    """A batch of cards was shuffled into a single stack (PA 681a.5(a), 681a.3(b))."""

    type: Literal["shoe_shuffled"] = "shoe_shuffled"
    batch: Batch = Field(
        default=0, description="0 or 1 where an automated shuffler alternates two batches."
    )
    decks: Literal[4, 8]
    method: Literal["manual", "automated"] = "manual"
    reason: Literal[
        "opening", "cover_card", "floorperson", "shuffler_jam", "idle_table", "other"
    ] = Field(description="Why: the table opened, the cover card came out (681a.7(d)), ...")
    new_decks: bool | None = Field(
        default=None,
        description="The batch's decks were opened for use at the table with this shuffle "
        "(PA 681a.3(c): changed at least once every 24 hours); absent when not recorded.",
    )


@event
class ShoeCut(TableEvent):
    """The stack was cut with a cover card and the second cover card inserted
    (PA 681a.5(b)-(d))."""

    type: Literal["shoe_cut"] = "shoe_cut"
    stack_size: int = Field(ge=1, le=416, description="Cards in the stack.")
    cut_at: int = Field(ge=0, le=416, description="Cards above the cutting cover card.")
    cover_from_bottom: int = Field(
        ge=0, le=416, description="Cards below the second cover card once the cut is made."
    )
    cut_by: Literal["player", "dealer"] = "dealer"


@event
class ShoeLoaded(TableEvent):
    """The cut stack was placed in the dealing shoe (PA 681a.7(a))."""

    type: Literal["shoe_loaded"] = "shoe_loaded"
    batch: Batch = 0
    cards: int = Field(ge=1, le=416)


@event
class CardBurned(TableEvent):
    """The first card was taken from the shoe to the discard rack unseen: after a batch is
    loaded, or by a new dealer (PA 681a.7(c))."""

    type: Literal["card_burned"] = "card_burned"
    card: CardName | None = Field(default=None, description="If the recording device read it.")


@event
class CoverCardAppeared(Event):
    """The cover card came out of the shoe: the round is completed, then the cards are
    reshuffled (PA 681a.7(d))."""

    type: Literal["cover_card_appeared"] = "cover_card_appeared"


@event
class CardFoundFaceUp(Event):
    """A card was found face up in the shoe (PA 681a.9(a): not to be used in that round).

    ``disposition`` says what the dealer did: ``discarded`` as the rule requires, or
    ``dealt``, in which case the round's next ``b21_card_dealt`` is this card.
    """

    type: Literal["card_found_face_up"] = "card_found_face_up"
    card: CardName
    disposition: Literal["discarded", "dealt"]
