"""Hand totals: hard and soft (PA 681a.1, 681a.3(d)) and naturals (PA 681a.1).

An ace counts 11 "unless that value would give the ... Hand a score in excess of
21, in which case the ace shall have a value of 1" (PA 681a.3(d)(3)). Two aces
can never both count 11, so a hand's total is its hard total (every ace 1), plus
10 when it holds an ace and that keeps it at 21 or less: a *soft* total.

The drawing engine folds cards into a :data:`HandState`, an ``int`` holding the
hard total and whether the hand holds an ace, and reads totals from tables built
at import; the functions taking cards are for everything else.

>>> from audit.games.cards.deck import parse_cards
>>> hand_total(parse_cards("AS 6D")), is_soft(parse_cards("AS 6D"))
(17, True)
>>> hand_total(parse_cards("AS 6D TC"))
17
>>> hand_total(parse_cards("AS AD")), is_natural(parse_cards("AS AD"))
(12, True)
"""

from __future__ import annotations

from collections.abc import Iterable

from audit.games.baccarat21.cards import CARD_VALUES, RANK_VALUES
from audit.games.cards.deck import ACE, CARD_RANKS, Card

HandState = int
"""A hand folded into ``hard_total * 2 + holds_ace``; :data:`EMPTY_HAND` holds no cards."""

EMPTY_HAND: HandState = 0
TABLE_HARD_LIMIT = 31
"""States are tabled for hard totals up to here: a hand stops drawing at 17, so a dealt
hand's hard total never passes 16 + 10 = 26 (PA 681a.7(f)(2), (g))."""

SOFT_BONUS = 10
"""An ace counted 11 rather than 1 (PA 681a.3(d)(3))."""


def _total_of(hard: int, holds_ace: bool) -> tuple[int, bool]:
    # PA 681a.3(d)(3): one ace counts 11 unless that takes the hand past 21.
    if holds_ace and hard + SOFT_BONUS <= 21:
        return hard + SOFT_BONUS, True
    return hard, False


def _build_tables() -> tuple[tuple[int, ...], tuple[bool, ...], tuple[HandState, ...]]:
    states = range(2 * (TABLE_HARD_LIMIT + 1))
    totals = tuple(_total_of(s >> 1, bool(s & 1))[0] for s in states)
    soft = tuple(_total_of(s >> 1, bool(s & 1))[1] for s in states)
    step: list[HandState] = []
    for state in states:
        for card in range(52):
            hard = min((state >> 1) + CARD_VALUES[card], TABLE_HARD_LIMIT)
            step.append(hard * 2 + ((state & 1) | (CARD_RANKS[card] == ACE)))
    return totals, soft, tuple(step)


STATE_TOTALS, STATE_SOFT, STEPS = _build_tables()
"""``STATE_TOTALS[state]`` is the hand's total and ``STATE_SOFT[state]`` whether it is soft;
``STEPS[state * 52 + card]`` is :func:`add_card` as a flat table, for hot loops."""


def add_card(state: HandState, card: Card) -> HandState:
    """Return the state after ``card`` joins the hand (hard totals past 31 read as 31)."""
    return STEPS[state * 52 + card]


def hard_total(cards: Iterable[Card]) -> int:
    """Return the total with every ace counted 1 (PA 681a.1 "hard total")."""
    return sum(CARD_VALUES[c] for c in cards)


def _hard_and_ace(cards: Iterable[Card]) -> tuple[int, bool]:
    hard = 0
    holds_ace = False
    for c in cards:
        hard += CARD_VALUES[c]
        holds_ace = holds_ace or CARD_RANKS[c] == ACE
    return hard, holds_ace


def hand_total(cards: Iterable[Card]) -> int:
    """Return the hand's total under PA 681a.3(d): one ace counts 11 if the total stays <= 21."""
    return _total_of(*_hard_and_ace(cards))[0]


def is_soft(cards: Iterable[Card]) -> bool:
    """Return whether the total counts an ace as 11 (PA 681a.1 "soft total")."""
    return _total_of(*_hard_and_ace(cards))[1]


def is_natural(cards: Iterable[Card]) -> bool:
    """Return whether the cards are a natural: two aces, or an ace and a ten-value card.

    PA 681a.1 counts two aces as a natural, although their total is a soft 12.

    >>> from audit.games.cards.deck import parse_cards
    >>> [is_natural(parse_cards(h)) for h in ("AS QH", "AS AH", "TS AH", "AS TH 5C", "9S 2C")]
    [True, True, True, False, False]
    """
    hand = tuple(cards)
    if len(hand) != 2:
        return False
    first, second = CARD_RANKS[hand[0]], CARD_RANKS[hand[1]]
    if first == ACE:
        return second == ACE or RANK_VALUES[second] == 10
    return second == ACE and RANK_VALUES[first] == 10


def describe_total(cards: Iterable[Card]) -> str:
    """Return the total as dealers call it: ``'soft 17'``, ``'hard 17'``, ``'23'`` over 21.

    >>> from audit.games.cards.deck import parse_cards
    >>> describe_total(parse_cards("AS 6D")), describe_total(parse_cards("9S 8D"))
    ('soft 17', 'hard 17')
    """
    total, soft = _total_of(*_hard_and_ace(cards))
    if total > 21:
        return str(total)
    return f"{'soft' if soft else 'hard'} {total}"


def state_of(cards: Iterable[Card]) -> HandState:
    """Return the :data:`HandState` of some cards."""
    state = EMPTY_HAND
    for c in cards:
        state = STEPS[state * 52 + c]
    return state
