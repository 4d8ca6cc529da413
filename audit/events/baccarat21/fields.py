"""Field types 21 Baccarat events share: a card in the engine's notation, and a seat.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(CardName).validate_python("10h")
'TH'
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from audit.games.cards.deck import CARD_NAMES, InvalidCardError, card_name, parse_card

_CARD_NAME_SET = frozenset(CARD_NAMES)


def _canonical_card(text: str) -> str:
    if text in _CARD_NAME_SET:  # the canonical spelling, as devices send it: no parsing
        return text
    try:
        return card_name(parse_card(text))
    except InvalidCardError as error:
        raise ValueError(str(error)) from None


CardName = Annotated[
    str,
    Field(
        min_length=2,
        max_length=3,
        examples=["AS", "TD"],
        description="A card, rank then suit: AS, TD, 7H.",
    ),
    AfterValidator(_canonical_card),
]
"""One card: rank then suit, ``AS``, ``TD``, ``7H`` (``10h`` is read as ``TH``)."""

Seat = Annotated[int, Field(ge=1, le=8)]
"""A betting position: PA 681a.2(a) allows "no more than eight players", numbered 1 to 8
from the player farthest to the dealer's right, the order 681a.7(h) settles in."""
