"""Hand totals, soft and hard, and naturals (PA 681a.1, 681a.3(d)).

``text_total`` is an independent reading of 681a.3(d)(3): try every way of
counting each ace 1 or 11 and keep the best total of 21 or less; if there is
none, every ace counts 1.
"""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.baccarat21.hands import (
    EMPTY_HAND,
    STATE_SOFT,
    STATE_TOTALS,
    add_card,
    describe_total,
    hand_total,
    hard_total,
    is_natural,
    is_soft,
    state_of,
)
from audit.games.cards.deck import CARD_RANKS, CARDS, parse_cards

FACE = {0: 1, 9: 10, 10: 10, 11: 10, 12: 10}


def face(c):
    return FACE.get(CARD_RANKS[c], CARD_RANKS[c] + 1)


def text_total(cards):
    aces = [c for c in cards if CARD_RANKS[c] == 0]
    others = sum(face(c) for c in cards if CARD_RANKS[c] != 0)
    options = [others + sum(v) for v in product((1, 11), repeat=len(aces))]
    within = [t for t in options if t <= 21]
    return max(within) if within else min(options)


hands = st.lists(st.sampled_from(CARDS), min_size=1, max_size=8)


@given(hands)
def test_total_agrees_with_every_ace_counted_both_ways(cards):
    assert hand_total(cards) == text_total(cards)
    assert hard_total(cards) == sum(face(c) for c in cards)
    assert is_soft(cards) == (hand_total(cards) != hard_total(cards))


@given(hands)
def test_the_state_tables_agree_with_the_functions(cards):
    state = EMPTY_HAND
    for c in cards:
        state = add_card(state, c)
    if hard_total(cards) <= 31:
        assert STATE_TOTALS[state] == hand_total(cards)
        assert STATE_SOFT[state] == is_soft(cards)
    assert state == state_of(cards)


@pytest.mark.parametrize(
    ("hand", "total", "soft"),
    [
        ("AS 6D", 17, True),  # soft 17 (681a.1 soft total)
        ("AS 6D TC", 17, False),  # the ace falls back to 1 (681a.3(d)(3))
        ("AS AD", 12, True),  # two aces cannot both be 11
        ("AS AD AC AH", 14, True),
        ("AS AD 9C", 21, True),
        ("AS AD 9C KH", 21, False),
        ("TS QD", 20, False),
        ("TS QD 5C", 25, False),
        ("KS 6D", 16, False),
    ],
)
def test_regulation_examples(hand, total, soft):
    cards = parse_cards(hand)
    assert (hand_total(cards), is_soft(cards)) == (total, soft)


def test_describe_total():
    assert describe_total(parse_cards("AS 6D")) == "soft 17"
    assert describe_total(parse_cards("9S 8D")) == "hard 17"
    assert describe_total(parse_cards("9S 8D 7C")) == "24"


def test_naturals_over_every_two_cards():
    # PA 681a.1: "two aces or one ace and one ten-value card".
    ten_value = {9, 10, 11, 12}
    for a, b in product(CARDS, repeat=2):
        ranks = {CARD_RANKS[a], CARD_RANKS[b]}
        expected = ranks == {0} or (0 in ranks and bool(ranks & ten_value))
        assert is_natural((a, b)) == expected, (a, b)


def test_a_natural_has_two_cards():
    assert not is_natural(parse_cards("AS"))
    assert not is_natural(parse_cards("AS TH 5C"))
    assert not is_natural(parse_cards("5S 6H TC"))  # 21 in three cards is not a natural
