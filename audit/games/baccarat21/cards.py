"""Cards for 21 Baccarat: their point values and the shoe's decks (PA 681a.3(a), (d)).

The cards themselves, their ranks, suits and names, are every card game's
(audit/games/cards/deck.py).

>>> from audit.games.cards.deck import card_rank, parse_cards
>>> [RANK_VALUES[card_rank(c)] for c in parse_cards("AS KD 7H")]
[1, 10, 7]
>>> len(shoe_cards(8))
416
"""

from __future__ import annotations

from audit.games.cards.deck import CARD_RANKS, Card, full_decks
from audit.games.errors import InvalidDealError

# PA 681a.3(d)(1)-(2): 2 to 10 at face value, jack, queen and king 10. The ace is 1 here;
# PA 681a.3(d)(3) counts one ace as 11 where that keeps the hand at 21 or less (hands.py).
RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

CARD_VALUES: tuple[int, ...] = tuple(RANK_VALUES[rank] for rank in CARD_RANKS)
DECK_COUNTS = (4, 8)
"""PA 681a.3(a): "four or eight decks of cards"."""


def shoe_cards(decks: int) -> tuple[Card, ...]:
    """Return ``decks`` full decks in order, deck after deck (PA 681a.3(a): four or eight)."""
    if decks not in DECK_COUNTS:
        raise InvalidDealError(f"21 baccarat uses four or eight decks, not {decks!r}")
    return full_decks(decks)
