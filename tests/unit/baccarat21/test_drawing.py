"""Dealing and drawing (PA 681a.7(e)-(g), 681a.2(b)(7)(i)), round by round from stacked shoes.

Each shoe string is the cards in the order they leave the shoe; the expected deal is
written as the dealer would lay it out, ``+`` marking a card that counts only for the
Bonus (681a.7(f)(2)).
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.games.baccarat21.bonus import BONUS_HANDS
from audit.games.baccarat21.cards import CARDS, parse_cards, shoe_cards
from audit.games.baccarat21.drawing import (
    Action,
    DealtCard,
    DrawOrder,
    Hand,
    NextCard,
    deal_round,
    hand_action,
    next_card,
    play_round,
)
from audit.games.baccarat21.hands import hand_total, is_natural
from audit.games.baccarat21.shoe import prepare_shoe, reshuffle_due
from audit.games.errors import InvalidDealError

COVER_FROM_BOTTOM = 34
"""Two hands never take more than 17 cards each, so the cover card this far up never lets
the shoe run dry."""

P, B = Hand.PLAYER, Hand.BANKER
ALT = DrawOrder.ALTERNATE

ROUNDS = [
    # (case, shoe, bonus on the table, expected layout, player total, banker total)
    ("player natural, no bonus: nothing more", "AS 5H KD 6C 9S", False, "P: AS KD | B: 5H 6C",
     21, 11),
    ("banker natural, no bonus", "5H AS 6C KD 9S", False, "P: 5H 6C | B: AS KD", 11, 21),
    ("natural and bonus: one bonus-only card to the hand under 17", "AS 5H KD 6C 9S 4D", True,
     "P: AS KD | B: 5H 6C +9S", 21, 11),
    ("natural and bonus: the bonus card is one card even if still under 17", "AS 2H KD 3C 4S 9D",
     True, "P: AS KD | B: 2H 3C +4S", 21, 5),
    ("natural and bonus: a hand at 17 or more gets no card", "AS 9H KD 8C 4S", True,
     "P: AS KD | B: 9H 8C", 21, 17),
    ("two aces are a natural of 12 and take a bonus card", "AS 9H AD 9C 4S 5D", True,
     "P: AS AD +4S | B: 9H 9C", 12, 18),
    ("two naturals: nothing more", "AS AH KD QC 4S", True, "P: AS KD | B: AH QC", 21, 21),
    ("both under 17 beside a natural: Player's bonus card first", "AS AH AD 5C 4S 5D", True,
     "P: AS AD +4S | B: AH 5C +5D", 12, 16),
    ("draw to 16: both hands draw", "TS 9H 6D 5C 3S 2H 4C", False,
     "P: TS 6D 3S | B: 9H 5C 2H 4C", 19, 20),
    ("hard 17 stands on two cards", "TS 9H 7D 8C 5S", False, "P: TS 7D | B: 9H 8C", 17, 17),
    ("soft 17 stands", "AS 9H 6D 8C 5S", False, "P: AS 6D | B: 9H 8C", 17, 17),
    ("soft 16 draws, and a soft hand turns hard", "AS 9H 5D 8C 8S 3C", False,
     "P: AS 5D 8S 3C | B: 9H 8C", 17, 17),
    ("many cards to reach 17", "2S TH 3D 8C 2C 2D AH 3H", False,
     "P: 2S 3D 2C 2D AH | B: TH 8C", 20, 18),
    ("player busts; banker still draws", "TS 6H 6D 5C 9S 7H", False,
     "P: TS 6D 9S | B: 6H 5C 7H", 25, 18),
    ("both bust", "TS 9H 6D 5C 9S 8H", False, "P: TS 6D 9S | B: 9H 5C 8H", 25, 22),
    ("with a bonus on the table and no natural, drawing is unchanged", "TS 9H 6D 5C 3S 2H 4C",
     True, "P: TS 6D 3S | B: 9H 5C 2H 4C", 19, 20),
]  # fmt: skip


def layout(deal):
    return str(deal)


@pytest.mark.parametrize(
    ("shoe", "bonus", "expected", "player", "banker"),
    [row[1:] for row in ROUNDS],
    ids=[row[0] for row in ROUNDS],
)
def test_hand_written_rounds(shoe, bonus, expected, player, banker):
    cards = parse_cards(shoe)
    deal = deal_round(cards, bonus)
    assert layout(deal) == expected
    assert (deal.player_total, deal.banker_total) == (player, banker)
    # The cards come out of the shoe in order and only as many as the round needs.
    assert tuple(d.card for d in deal.cards) == cards[: deal.used]
    tally = play_round(cards, 0, bonus)
    assert tally[:3] == (deal.used, player, banker)
    assert BONUS_HANDS[tally[3]] == deal.bonus_hand(P)
    assert BONUS_HANDS[tally[4]] == deal.bonus_hand(B)


def test_the_first_four_cards_go_player_banker_player_banker():
    deal = deal_round(parse_cards("9S 9H 9D 9C"), bonus_on_table=False)
    assert [d.hand for d in deal.cards] == [P, B, P, B]  # PA 681a.7(e)


def test_bonus_only_cards_do_not_count_for_the_main_wagers():
    deal = deal_round(parse_cards("AS 5H KD 6C 9S"), bonus_on_table=True)
    assert deal.hand_cards(B) == parse_cards("5H 6C")
    assert deal.bonus_cards(B) == parse_cards("5H 6C 9S")
    assert deal.banker_total == 11  # not 20


def test_alternate_order_deals_one_card_each_in_turn():
    cards = parse_cards("TS 9H 2D 2C 3S 2H 4C 3D")
    # P: 12 draws 3 -> 15, B: 11 draws 2 -> 13, P draws 4 -> 19, B draws 3 -> 16 ...
    deal = deal_round(cards + parse_cards("5S"), bonus_on_table=False, order=ALT)
    assert str(deal) == "P: TS 2D 3S 4C | B: 9H 2C 2H 3D 5S"
    first = deal_round(cards + parse_cards("5S"), bonus_on_table=False)
    assert str(first) == "P: TS 2D 3S 2H | B: 9H 2C 4C 3D"
    assert play_round(cards + parse_cards("5S"), 0, False, alternate=True)[:3] == (9, 19, 21)


def test_alternate_order_skips_a_hand_that_stands():
    deal = deal_round(parse_cards("TS 9H 2D 9C 3S 2H AC"), bonus_on_table=False, order=ALT)
    assert str(deal) == "P: TS 2D 3S 2H | B: 9H 9C"


@pytest.mark.parametrize(
    ("hand", "action"),
    [("TS 6H", Action.DRAW), ("AS 6H", Action.STAND), ("TS 7H", Action.STAND),
     ("AS 5H", Action.DRAW), ("AS 5H TC", Action.DRAW), ("TS 5H 7C", Action.STAND),
     ("2S 3H", Action.DRAW), ("TS AH", Action.STAND)],
)  # fmt: skip
def test_hand_action_draws_to_16_and_stands_on_all_17s(hand, action):
    assert hand_action(parse_cards(hand)) == action


def test_next_card_judges_a_recorded_round_card_by_card():
    shoe = parse_cards("TS 9H 6D 5C 3S 2H 4C")
    deal = deal_round(shoe, bonus_on_table=True)
    for index, dealt in enumerate(deal.cards):
        assert next_card(deal.cards[:index], True) == NextCard(dealt.hand, dealt.bonus_only)
    assert next_card(deal.cards, True) is None
    # A card drawn to the Player's 19 is not what the rules call for.
    wrong = (*deal.cards[:5], DealtCard(shoe[5], P))
    assert next_card(wrong[:5], True) != NextCard(P)


def test_the_shoe_running_out_is_an_error():
    with pytest.raises(InvalidDealError, match="ran out"):
        deal_round(parse_cards("TS 9H 6D 5C"), bonus_on_table=False)
    with pytest.raises(InvalidDealError, match="ran out"):
        play_round(parse_cards("TS 9H 6D 5C"), 0, False)
    with pytest.raises(InvalidDealError, match="ran out"):
        play_round(parse_cards("TS 9H 6D"), 0, False)


shoes = st.lists(st.sampled_from(CARDS), min_size=40, max_size=60)


def rules_ok(deal):
    """An independent reading of 681a.7(e)-(g) over a finished deal."""
    first = {h: [d.card for d in deal.cards[:4] if d.hand is h] for h in Hand}
    natural = any(is_natural(cards) for cards in first.values())
    for h in Hand:
        counting = deal.hand_cards(h)
        extra = [d for d in deal.cards[4:] if d.hand is h]
        if natural:
            assert counting == tuple(first[h])
            if deal.bonus_on_table and hand_total(first[h]) < 17:
                assert [d.bonus_only for d in extra] == [True]
            else:
                assert extra == []
        else:
            assert not any(d.bonus_only for d in extra)
            assert hand_total(counting) >= 17
            # every card past the second was drawn to a hand under 17
            for end in range(2, len(counting)):
                assert hand_total(counting[:end]) < 17


@given(shoes, st.booleans(), st.sampled_from(list(DrawOrder)), st.integers(0, 20))
def test_a_deal_takes_the_shoes_cards_in_order_and_follows_the_rules(shoe, bonus, order, start):
    deal = deal_round(iter(shoe[start:]), bonus, order)
    assert [d.card for d in deal.cards] == shoe[start : start + deal.used]
    assert [d.hand for d in deal.cards[:4]] == [P, B, P, B]
    rules_ok(deal)
    tally = play_round(shoe, start, bonus, alternate=order is ALT)
    assert tally == (
        start + deal.used,
        deal.player_total,
        deal.banker_total,
        BONUS_HANDS.index(deal.bonus_hand(P)),
        BONUS_HANDS.index(deal.bonus_hand(B)),
    )
    for index, dealt in enumerate(deal.cards):
        assert next_card(deal.cards[:index], bonus, order) == NextCard(dealt.hand, dealt.bonus_only)
    assert next_card(deal.cards, bonus, order) is None


@settings(max_examples=50)
@given(st.sampled_from([4, 8]), st.randoms(use_true_random=False), st.booleans())
def test_a_shuffled_shoe_is_dealt_without_replacement(decks, rng, bonus):
    shoe = prepare_shoe(decks, rng, cover_from_bottom=COVER_FROM_BOTTOM)
    position, dealt = 1, []  # the first card is burned (681a.7(c))
    while not reshuffle_due(shoe, position):
        deal = deal_round(iter(shoe.cards[position:]), bonus)
        dealt += [d.card for d in deal.cards]
        position += deal.used
    assert dealt == list(shoe.cards[1:position])
    assert not Counter(dealt) - Counter(shoe_cards(decks))
