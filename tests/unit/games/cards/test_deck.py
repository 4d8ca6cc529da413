"""The deck every card game shares: each card's identity, name and notation."""

from collections import Counter

import pytest

from audit.games.cards.deck import (
    CARD_NAMES,
    CARDS,
    RANK_SYMBOLS,
    SUIT_SYMBOLS,
    InvalidCardError,
    card,
    card_name,
    card_rank,
    card_suit,
    cards_name,
    check_cards,
    full_decks,
    parse_card,
    parse_cards,
)
from audit.games.errors import RulesError


@pytest.mark.parametrize("c", CARDS, ids=CARD_NAMES)
def test_every_card_name_round_trips(c):
    name = card_name(c)
    assert len(name) == 2
    assert parse_card(name) == c
    assert parse_card(name.lower()) == c
    assert card(card_rank(c), card_suit(c)) == c


def test_the_52_names_are_each_rank_in_each_suit():
    assert sorted(CARD_NAMES) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")
    assert (RANK_SYMBOLS, SUIT_SYMBOLS) == ("A23456789TJQK", "CDHS")


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


@pytest.mark.parametrize("count", [1, 2, 6])
def test_full_decks_hold_every_card_once_per_deck(count):
    counts = Counter(full_decks(count))
    assert len(counts) == 52
    assert set(counts.values()) == {count}


@pytest.mark.parametrize("bad", [52, -1, True, "AS", 1.0])
def test_check_cards_refuses_what_is_not_a_card(bad):
    with pytest.raises(RulesError, match="invalid card in hand"):
        check_cards([0, bad], "hand")


def test_card_refuses_out_of_range():
    with pytest.raises(InvalidCardError):
        card(13, 0)
    with pytest.raises(InvalidCardError):
        card(0, 4)
