"""21 Baccarat's card values and shoe decks, checked against PA 681a.3(a) and (d); the cards
themselves are tested with the shared deck (tests/unit/games/cards)."""

from collections import Counter

import pytest

from audit.games.baccarat21.cards import CARD_VALUES, shoe_cards
from audit.games.cards.deck import CARD_NAMES, CARDS, card_name
from audit.games.errors import InvalidDealError

# PA 681a.3(d)(1)-(2), transcribed: 2 to 10 at face value, jack, queen and king 10; the ace
# is 1 or 11 (681a.3(d)(3)); hands.py decides which, so its hard value 1 is listed here.
VALUE_OF_RANK = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "J": 10, "Q": 10, "K": 10,
}  # fmt: skip


@pytest.mark.parametrize("c", CARDS, ids=CARD_NAMES)
def test_every_card_value_follows_681a_3_d(c):
    assert CARD_VALUES[c] == VALUE_OF_RANK[card_name(c)[0]]


@pytest.mark.parametrize("decks", [4, 8])
def test_a_shoe_holds_every_card_once_per_deck(decks):
    counts = Counter(shoe_cards(decks))
    assert len(counts) == 52
    assert set(counts.values()) == {decks}


@pytest.mark.parametrize("decks", [1, 2, 6, 0])
def test_only_four_or_eight_decks(decks):
    with pytest.raises(InvalidDealError, match=repr(decks)):
        shoe_cards(decks)
