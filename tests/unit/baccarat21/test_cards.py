"""Cards and their values, checked against PA 681a.3(a) and (d)."""

from collections import Counter

import pytest

from audit.games.baccarat21.cards import (
    CARD_NAMES,
    CARD_VALUES,
    CARDS,
    InvalidCardError,
    card,
    card_name,
    card_rank,
    card_suit,
    cards_name,
    check_cards,
    parse_card,
    parse_cards,
    shoe_cards,
)
from audit.games.errors import InvalidDealError, RulesError

# PA 681a.3(d)(1)-(2), transcribed: 2 to 10 at face value, jack, queen and king 10; the ace
# is 1 or 11 (681a.3(d)(3)); hands.py decides which, so its hard value 1 is listed here.
VALUE_OF_RANK = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "J": 10, "Q": 10, "K": 10,
}  # fmt: skip


@pytest.mark.parametrize("c", CARDS, ids=CARD_NAMES)
def test_every_card_name_round_trips(c):
    name = card_name(c)
    assert len(name) == 2
    assert parse_card(name) == c
    assert parse_card(name.lower()) == c
    assert card(card_rank(c), card_suit(c)) == c


@pytest.mark.parametrize("c", CARDS, ids=CARD_NAMES)
def test_every_card_value_follows_681a_3_d(c):
    assert CARD_VALUES[c] == VALUE_OF_RANK[card_name(c)[0]]


def test_the_52_names_are_each_rank_in_each_suit():
    assert sorted(CARD_NAMES) == sorted(r + s for r in VALUE_OF_RANK for s in "CDHS")


def test_ten_may_be_written_10():
    assert parse_card("10h") == parse_card("TH")
    assert parse_cards("10S, AS  7h") == (parse_card("TS"), parse_card("AS"), parse_card("7H"))
    assert cards_name(parse_cards("10S AS")) == "TS AS"


@pytest.mark.parametrize("text", ["", "1S", "AX", "ASS", "11H", "ZZ", "A"])
def test_invalid_names_are_refused_quoting_the_input(text):
    with pytest.raises(InvalidCardError, match=f"invalid card: {text!r}"):
        parse_card(text)


def test_ranks_sort_with_the_card_number():
    assert [card_rank(c) for c in parse_cards("AS KC 7D")] == [0, 12, 6]
    assert sorted(parse_cards("KS 2C AD")) == list(parse_cards("AD 2C KS"))


@pytest.mark.parametrize("decks", [4, 8])
def test_a_shoe_holds_every_card_once_per_deck(decks):
    counts = Counter(shoe_cards(decks))
    assert len(counts) == 52
    assert set(counts.values()) == {decks}


@pytest.mark.parametrize("decks", [1, 2, 6, 0])
def test_only_four_or_eight_decks(decks):
    with pytest.raises(InvalidDealError, match=repr(decks)):
        shoe_cards(decks)


@pytest.mark.parametrize("bad", [52, -1, True, "AS", 1.0])
def test_check_cards_refuses_what_is_not_a_card(bad):
    with pytest.raises(RulesError, match="invalid card in hand"):
        check_cards([0, bad], "hand")


def test_card_refuses_out_of_range():
    with pytest.raises(InvalidCardError):
        card(13, 0)
    with pytest.raises(InvalidCardError):
        card(0, 4)
