"""Shoe procedure: shuffle, cut, cover card, burn and reshuffle (PA 681a.3(b), 681a.5, 681a.7)."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.baccarat21.cards import shoe_cards
from audit.games.baccarat21.shoe import (
    Shoe,
    ShoeEvent,
    ShoeProcedure,
    check_shoe,
    cut_stack,
    insert_cover_card,
    prepare_shoe,
    reshuffle_due,
    shuffle_cards,
)
from audit.games.errors import InvalidDealError

E = ShoeEvent
STACK = tuple(range(52)) * 4


def test_shuffle_is_a_permutation_driven_by_the_rng():
    one = shuffle_cards(STACK, random.Random(1))
    assert Counter(one) == Counter(STACK)
    assert one == shuffle_cards(STACK, random.Random(1))
    assert one != shuffle_cards(STACK, random.Random(2))


def test_cut_moves_the_cards_above_the_cover_card_to_the_bottom():
    # PA 681a.5(d): "take all cards above the cover card ... and place them on the bottom".
    stack = tuple(range(40))
    assert cut_stack(stack, 15) == tuple(range(15, 40)) + tuple(range(15))


@pytest.mark.parametrize("at", [9, 31, 0, 40])
def test_the_cut_is_at_least_ten_cards_from_either_end(at):
    with pytest.raises(InvalidDealError, match=repr(at)):
        cut_stack(tuple(range(40)), at)  # PA 681a.5(c)


@pytest.mark.parametrize("at", [10, 30])
def test_ten_cards_from_an_end_is_allowed(at):
    assert len(cut_stack(tuple(range(40)), at)) == 40


def test_the_cover_card_is_at_least_ten_cards_above_the_bottom():
    assert insert_cover_card(STACK, 10).cover_at == len(STACK) - 10  # PA 681a.5(d)
    with pytest.raises(InvalidDealError, match="9"):
        insert_cover_card(STACK, 9)
    with pytest.raises(InvalidDealError):
        Shoe(STACK, len(STACK) - 9)


@given(st.sampled_from([4, 8]), st.randoms(use_true_random=False), st.integers(10, 200))
def test_a_prepared_shoe_holds_every_card_of_its_decks(decks, rng, from_bottom):
    shoe = prepare_shoe(decks, rng, from_bottom)
    assert Counter(shoe.cards) == Counter(shoe_cards(decks))
    assert shoe.cover_at == len(shoe.cards) - from_bottom


def test_reshuffle_after_the_round_in_which_the_cover_card_came_out():
    shoe = Shoe(STACK, 150)
    # The round ending with the 150th card leaves the cover card next: the next round is
    # played, the cover card appearing as its first card, and then the cards are reshuffled.
    assert not reshuffle_due(shoe, 150)
    assert reshuffle_due(shoe, 151)  # PA 681a.7(d)


def test_a_burn_is_due_after_loading_and_after_a_new_dealer():
    assert check_shoe([(E.LOADED, 0), E.DEALT]) == [(1, "burn")]
    assert check_shoe([(E.LOADED, 0), E.BURNED, E.DEALT]) == []
    events = [(E.LOADED, 0), E.BURNED, E.DEALT, E.ROUND_ENDED, E.DEALER_CHANGED, E.DEALT]
    assert check_shoe(events) == [(5, "burn")]  # PA 681a.7(c), second sentence
    events[5:5] = [E.BURNED]
    assert check_shoe(events) == []


def test_a_round_after_the_cover_card_needs_a_reshuffle():
    base = [(E.LOADED, 0), E.BURNED, E.DEALT, E.COVER_CARD, E.DEALT, E.ROUND_ENDED]
    # The round the cover card appears in is completed (PA 681a.7(d)) ...
    assert check_shoe(base) == []
    # ... and the next round needs a reshuffle first.
    assert check_shoe([*base, E.DEALT]) == [(6, "reshuffle")]
    assert check_shoe([*base, (E.LOADED, 0), E.BURNED, E.DEALT]) == []


def test_the_cover_card_first_in_a_round():
    events = [(E.LOADED, 0), E.BURNED, E.DEALT, E.ROUND_ENDED, E.COVER_CARD, E.DEALT]
    assert check_shoe([*events, E.ROUND_ENDED]) == []
    assert check_shoe([*events, E.ROUND_ENDED, E.DEALT]) == [(7, "reshuffle")]


def test_a_face_up_card_may_not_be_used():
    events = [(E.LOADED, 0), E.BURNED, E.FACE_UP_DISCARDED, E.DEALT]
    assert check_shoe(events) == []  # PA 681a.9(a)
    assert check_shoe([(E.LOADED, 0), E.BURNED, E.FACE_UP_DEALT]) == [(2, "face-up-card")]


def test_batches_alternate():
    events = [(E.LOADED, 0), E.BURNED, (E.LOADED, 1), E.BURNED, (E.LOADED, 1)]
    assert check_shoe(events, batches=True) == [(4, "batches")]  # PA 681a.3(b)(4)
    assert check_shoe(events, batches=False) == []


def test_a_batch_goes_with_loading_only():
    with pytest.raises(InvalidDealError):
        ShoeProcedure().apply(E.DEALT, batch=1)
    with pytest.raises(InvalidDealError):
        ShoeProcedure().apply(E.LOADED)
