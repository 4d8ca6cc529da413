"""The Bonus Wager: the hands it pays on (PA 681a.3(e)) and paytables A to F (PA 681a.8(c)).

A Bonus Wager on a hand "shall win if the ... Hand contains a pair or better as
described in § 681a.3(e)" (PA 681a.6(d)(2)-(3)). Every hand of 681a.3(e) is a
hand of three cards, except the pair, which looks at "only the initial two cards
dealt to the hand" (681a.3(e)(5)). Drawing one card as 681a.7(g) is written, a
hand never holds more than three, a card dealt only for the Bonus (681a.7(f)(2))
included; under the draw-to-17 option we read the three-card hands on the first
three cards. A hand that stood on two cards can win only with a pair.

Where three cards qualify twice (``7 7 7`` is also three of a kind and a three
card 21; ``6 7 8`` is a straight and a 21), the wager is paid once, on the
highest hand of the list; that is also the better-paying hand in every table.
A straight is three consecutive ranks in any order and any suits, the ace low
(``A 2 3``) or high (``Q K A``) but not both (``K A 2`` is no straight).

>>> from audit.games.cards.deck import parse_cards
>>> classify_bonus(parse_cards("7S 7H 7C")).name, classify_bonus(parse_cards("5S 7H 6C")).name
('THREE_SEVENS', 'STRAIGHT')
>>> classify_bonus(parse_cards("5S 9H 5C")).name  # the pair is not in the first two cards
'NOTHING'
>>> BONUS_PAYTABLES["A"].odds[BonusHand.THREE_SEVENS]
Odds(numerator=100, denominator=1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from audit.games.baccarat21.cards import RANK_VALUES
from audit.games.cards.deck import ACE, CARD_RANKS, KING, SEVEN, Card, Rank
from audit.games.errors import InvalidSettlementError
from audit.games.wagering import Odds


class BonusHand(Enum):
    """The Bonus hands of PA 681a.3(e), in the regulation's order, then no Bonus hand."""

    THREE_SEVENS = "three_sevens"
    """681a.3(e)(1): "a hand containing three sevens"."""
    THREE_OF_A_KIND = "three_of_a_kind"
    """681a.3(e)(2): "three cards of the same rank"."""
    STRAIGHT = "three_card_straight"
    """681a.3(e)(3): "three cards in consecutive rank regardless of suit"."""
    THREE_CARD_21 = "three_card_21"
    """681a.3(e)(4): "three cards that total 21"."""
    PAIR = "pair"
    """681a.3(e)(5): two cards of the same rank among the initial two."""
    NOTHING = "nothing"


BONUS_HANDS: tuple[BonusHand, ...] = tuple(BonusHand)
"""Indexed by the codes of :data:`PAIR_CODES` and :data:`THREE_CARD_CODES`."""
_CODE = {hand: code for code, hand in enumerate(BONUS_HANDS)}


def _is_straight(ranks: tuple[Rank, Rank, Rank]) -> bool:
    low, middle, high = sorted(ranks)
    if middle == low + 1 and high == middle + 1:
        return True
    return (low, middle, high) == (ACE, KING - 1, KING)  # Q K A: the ace high


def _three_card_total(ranks: tuple[Rank, Rank, Rank]) -> int:
    # PA 681a.3(d)(3): one ace counts 11 where the three cards stay at 21 or less.
    hard = sum(RANK_VALUES[r] for r in ranks)
    return hard + 10 if ACE in ranks and hard + 10 <= 21 else hard


def _classify_ranks(ranks: tuple[Rank, ...]) -> BonusHand:
    """Classify by rank alone, best hand first: PA 681a.3(e)(1)-(5)."""
    if len(ranks) >= 3:
        three = (ranks[0], ranks[1], ranks[2])
        if three == (SEVEN, SEVEN, SEVEN):
            return BonusHand.THREE_SEVENS
        if three[0] == three[1] == three[2]:
            return BonusHand.THREE_OF_A_KIND
        if _is_straight(three):
            return BonusHand.STRAIGHT
        if _three_card_total(three) == 21:
            return BonusHand.THREE_CARD_21
    if len(ranks) >= 2 and ranks[0] == ranks[1]:
        return BonusHand.PAIR  # 681a.3(e)(5): "only the initial two cards"
    return BonusHand.NOTHING


PAIR_CODES: tuple[int, ...] = tuple(
    _CODE[_classify_ranks((a, b))] for a in range(13) for b in range(13)
)
"""``PAIR_CODES[rank1 * 13 + rank2]``: the Bonus hand of a hand that has two cards."""
THREE_CARD_CODES: tuple[int, ...] = tuple(
    _CODE[_classify_ranks((a, b, c))] for a in range(13) for b in range(13) for c in range(13)
)
"""``THREE_CARD_CODES[(rank1 * 13 + rank2) * 13 + rank3]``: the Bonus hand of three cards."""


def classify_bonus(cards: Iterable[Card]) -> BonusHand:
    """Return the Bonus hand of a hand's cards in the order dealt; cards past the third
    play no part, and a hand of one card or none has no Bonus hand.

    >>> from audit.games.cards.deck import parse_cards
    >>> classify_bonus(parse_cards("QS QH")).name, classify_bonus(parse_cards("QS KH")).name
    ('PAIR', 'NOTHING')
    >>> classify_bonus(parse_cards("AS AH 9C")).name  # soft 12 and 9: a three card 21
    'THREE_CARD_21'
    """
    ranks = tuple(CARD_RANKS[c] for c in cards)[:3]
    if len(ranks) == 3:
        return BONUS_HANDS[THREE_CARD_CODES[(ranks[0] * 13 + ranks[1]) * 13 + ranks[2]]]
    if len(ranks) == 2:
        return BONUS_HANDS[PAIR_CODES[ranks[0] * 13 + ranks[1]]]
    return BonusHand.NOTHING


@dataclass(frozen=True)
class BonusPaytable:
    """One of the six Bonus paytables of PA 681a.8(c), named by its letter."""

    letter: str
    decks: int
    """The number of decks the table is permitted with: A-C four, D-F eight."""
    odds: Mapping[BonusHand, Odds] = field(repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        winning = [hand for hand in BonusHand if hand is not BonusHand.NOTHING]
        if sorted(self.odds, key=BONUS_HANDS.index) != winning:
            raise InvalidSettlementError(f"paytable {self.letter!r} must price {winning!r}")
        object.__setattr__(self, "odds", MappingProxyType(dict(self.odds)))

    def pays(self, hand: BonusHand, amount: int) -> int:
        """Return the winnings on ``amount`` for ``hand`` (0 for no Bonus hand)."""
        if hand is BonusHand.NOTHING:
            return 0
        return self.odds[hand].pays(amount)


def _paytable(
    letter: str, decks: int, sevens: int, trips: int, straight: int, t21: int
) -> BonusPaytable:
    odds = (Odds(sevens), Odds(trips), Odds(straight), Odds(t21), Odds(3))
    return BonusPaytable(letter, decks, dict(zip(BONUS_HANDS[:5], odds, strict=True)))


# PA 681a.8(c), transcribed: three sevens, three of a kind, straight, three card 21; a pair
# pays 3 to 1 in every table.
BONUS_PAYTABLES: Mapping[str, BonusPaytable] = MappingProxyType(
    {
        table.letter: table
        for table in (
            _paytable("A", 4, 100, 40, 11, 5),
            _paytable("B", 4, 80, 40, 12, 5),
            _paytable("C", 4, 80, 40, 10, 6),
            _paytable("D", 8, 100, 40, 10, 5),
            _paytable("E", 8, 80, 40, 11, 5),
            _paytable("F", 8, 80, 35, 12, 5),
        )
    }
)
