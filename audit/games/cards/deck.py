"""The 52-card deck any card game deals from: ranks, suits, card identities and names.

A card is a small ``int``, ``rank * 4 + suit``, so sorting cards sorts them by
rank. A shoe of several decks holds several copies of every card; the copies are
indistinguishable on the layout, so a card's identity is its rank and suit.
Names are two characters, rank then suit: ``"AS"``, ``"TD"``, ``"7H"``. What a card
is worth is each game's own (audit/games/baccarat21/cards.py).

>>> card_name(parse_card("10h"))
'TH'
>>> [RANK_SYMBOLS[card_rank(c)] for c in parse_cards("AS KD 7H")]
['A', 'K', '7']
>>> len(full_decks(8))
416
"""

from __future__ import annotations

from collections.abc import Iterable

from audit.games.errors import RulesError

Card = int
"""A card, ``0`` (the ace of clubs) to ``51`` (the king of spades)."""

Rank = int
"""A rank, ``0`` (ace) to ``12`` (king), in the order of :data:`RANK_SYMBOLS`."""

Suit = int
"""A suit, ``0`` to ``3`` in the order of :data:`SUIT_SYMBOLS`."""

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "CDHS"
RANK_NAMES: tuple[str, ...] = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
SUIT_NAMES: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")

ACE: Rank = 0
SEVEN: Rank = 6
TEN: Rank = 9
KING: Rank = 12
RANKS: tuple[Rank, ...] = tuple(range(13))
SUITS: tuple[Suit, ...] = tuple(range(4))

CARDS: tuple[Card, ...] = tuple(range(52))
CARD_RANKS: tuple[Rank, ...] = tuple(card // 4 for card in CARDS)
CARD_SUITS: tuple[Suit, ...] = tuple(card % 4 for card in CARDS)
CARD_NAMES: tuple[str, ...] = tuple(
    RANK_SYMBOLS[rank] + SUIT_SYMBOLS[suit]
    for rank, suit in zip(CARD_RANKS, CARD_SUITS, strict=True)
)

_CARD_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}


class InvalidCardError(RulesError):
    """Raised for card notation that names no card, or a value that is not a card."""


def card(rank: Rank, suit: Suit) -> Card:
    """Return the card of a rank and a suit."""
    if rank not in RANKS or suit not in SUITS:
        raise InvalidCardError(f"invalid rank or suit: {(rank, suit)!r}")
    return rank * 4 + suit


def card_rank(card: Card) -> Rank:
    """Return a card's rank."""
    return CARD_RANKS[card]


def card_suit(card: Card) -> Suit:
    """Return a card's suit."""
    return CARD_SUITS[card]


def card_name(card: Card) -> str:
    """Return a card's two-character name, e.g. ``'TD'``."""
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Parse a card name; case is ignored and ``10`` may stand for ``T``."""
    found = _CARD_BY_NAME.get(text)
    if found is not None:  # the canonical spelling, as events carry it
        return found
    spelled = text.strip().upper()
    if spelled[:2] == "10":
        spelled = "T" + spelled[2:]
    found = _CARD_BY_NAME.get(spelled)
    if found is None:
        raise InvalidCardError(f"invalid card: {text!r}")
    return found


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several card names separated by spaces or commas (or given as an iterable)."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(word) for word in words)


def cards_name(cards: Iterable[Card]) -> str:
    """Return the cards' names joined by spaces, e.g. ``'AS TD'``."""
    return " ".join(CARD_NAMES[c] for c in cards)


def check_cards(cards: Iterable[Card], what: str = "cards") -> tuple[Card, ...]:
    """Return the cards as a tuple if each is a real card, else raise naming ``what``."""
    result = tuple(cards)
    for item in result:
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < 52:
            raise InvalidCardError(f"invalid card in {what}: {item!r}")
    return result


def full_decks(count: int) -> tuple[Card, ...]:
    """Return ``count`` full decks in order, deck after deck."""
    return CARDS * count
