"""Dealing and drawing (PA 681a.7(e)-(g), 681a.2(b)(7)(i)), round by round from stacked shoes.

Each shoe string is the cards in the order they leave the shoe; the expected deal is
written as the dealer would lay it out, ``+`` marking a card that counts only for the
Bonus (681a.7(f)(2)). Rounds that end on the first four cards, or on a natural, are
the same under every reading of 681a.7(g); the others are given for each reading.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.games.baccarat21.bonus import BONUS_HANDS
from audit.games.baccarat21.cards import shoe_cards
from audit.games.baccarat21.drawing import (
    Action,
    DealtCard,
    DrawRule,
    Hand,
    NextCard,
    deal_round,
    hand_action,
    next_card,
    play_round,
)
from audit.games.baccarat21.hands import hand_total, is_natural
from audit.games.baccarat21.shoe import prepare_shoe, reshuffle_due
from audit.games.cards.deck import CARDS, parse_cards
from audit.games.errors import InvalidDealError

P, B = Hand.PLAYER, Hand.BANKER
ONE, FIRST, ALT = DrawRule.ONE_CARD, DrawRule.TO_17_PLAYER_FIRST, DrawRule.TO_17_ALTERNATE
COVER_FROM_BOTTOM = 34
"""Two hands never take more than 17 cards each, so the cover card this far up never lets
the shoe run dry."""

# (case, shoe, bonus on the table, expected layout, player total, banker total)
EVERY_RULE = [
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
    ("hard 17 stands on two cards", "TS 9H 7D 8C 5S", False, "P: TS 7D | B: 9H 8C", 17, 17),
    ("soft 17 stands", "AS 9H 6D 8C 5S", False, "P: AS 6D | B: 9H 8C", 17, 17),
    ("both draw one card and stand", "TS 9H 6D 5C 3S 4H 2C", False, "P: TS 6D 3S | B: 9H 5C 4H",
     19, 18),
    ("player busts; banker still draws", "TS 6H 6D 5C 9S 7H", False,
     "P: TS 6D 9S | B: 6H 5C 7H", 25, 18),
    ("both bust", "TS 9H 6D 5C 9S 8H", False, "P: TS 6D 9S | B: 9H 5C 8H", 25, 22),
    ("with a bonus on the table and no natural, drawing is unchanged", "TS 9H 6D 5C 3S 4H",
     True, "P: TS 6D 3S | B: 9H 5C 4H", 19, 18),
]  # fmt: skip
# 681a.7(g) as written: one additional card, however low the hand stays.
ONE_CARD = [
    ("soft 16 draws once; the hand turns hard and stands on 14", "AS 9H 5D 8C 8S 3C", False,
     "P: AS 5D 8S | B: 9H 8C", 14, 17),
    ("a low hand stays low", "2S TH 3D 2C 2D AH 4H", False, "P: 2S 3D 2D | B: TH 2C AH", 7, 13),
    ("a drawn 21 of three cards", "6S 2H 6D 3C 9D 4H", False, "P: 6S 6D 9D | B: 2H 3C 4H", 21, 9),
]  # fmt: skip
# Drawing to 17 (the option), the Player's Hand first.
TO_17 = [
    ("soft 16 draws, turns hard and draws on", "AS 9H 5D 8C 8S 3C", False,
     "P: AS 5D 8S 3C | B: 9H 8C", 17, 17),
    ("many cards to reach 17", "2S TH 3D 8C 2C 2D AH 3H", False,
     "P: 2S 3D 2C 2D AH | B: TH 8C", 20, 18),
    ("both hands draw to 17", "TS 9H 6D 5C 3S 2H 4C", False, "P: TS 6D 3S | B: 9H 5C 2H 4C",
     19, 20),
]  # fmt: skip
CASES = (
    [(rule, *row) for rule in DrawRule for row in EVERY_RULE]
    + [(ONE, *row) for row in ONE_CARD]
    + [(rule, *row) for rule in (FIRST, ALT) for row in TO_17]
)


@pytest.mark.parametrize(
    ("rule", "shoe", "bonus", "expected", "player", "banker"),
    [(case[0], *case[2:]) for case in CASES],
    ids=[f"{case[0].value}: {case[1]}" for case in CASES],
)
def test_hand_written_rounds(rule, shoe, bonus, expected, player, banker):
    cards = parse_cards(shoe)
    deal = deal_round(cards, bonus, rule)
    assert str(deal) == expected
    assert (deal.player_total, deal.banker_total) == (player, banker)
    # The cards come out of the shoe in order and only as many as the round needs.
    assert tuple(d.card for d in deal.cards) == cards[: deal.used]
    tally = play_round(cards, 0, bonus, rule)
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


def test_drawing_to_17_in_turn_deals_one_card_each():
    cards = parse_cards("TS 9H 2D 2C 3S 2H 4C 3D 5S")
    # P: 12 draws 3 -> 15, B: 11 draws 2 -> 13, P draws 4 -> 19, B draws 3 -> 16, then 5 -> 21.
    assert str(deal_round(cards, False, ALT)) == "P: TS 2D 3S 4C | B: 9H 2C 2H 3D 5S"
    assert str(deal_round(cards, False, FIRST)) == "P: TS 2D 3S 2H | B: 9H 2C 4C 3D"
    assert str(deal_round(cards, False, ONE)) == "P: TS 2D 3S | B: 9H 2C 2H"
    assert play_round(cards, 0, False, ALT)[:3] == (9, 19, 21)


def test_drawing_to_17_in_turn_skips_a_hand_that_stands():
    deal = deal_round(parse_cards("TS 9H 2D 9C 3S 2H AC"), False, ALT)
    assert str(deal) == "P: TS 2D 3S 2H | B: 9H 9C"


@pytest.mark.parametrize(
    ("hand", "one_card", "to_17"),
    [("TS 6H", "DRAW", "DRAW"), ("AS 6H", "STAND", "STAND"), ("TS 7H", "STAND", "STAND"),
     ("AS 5H", "DRAW", "DRAW"), ("AS 5H TC", "STAND", "DRAW"), ("TS 5H 7C", "STAND", "STAND"),
     ("2S 3H", "DRAW", "DRAW"), ("TS AH", "STAND", "STAND"), ("2S 3H 4C", "STAND", "DRAW")],
)  # fmt: skip
def test_hand_action_draws_to_16_and_stands_on_all_17s(hand, one_card, to_17):
    assert hand_action(parse_cards(hand)) == Action[one_card]
    assert hand_action(parse_cards(hand), FIRST) == Action[to_17]
    assert hand_action(parse_cards(hand), ALT) == Action[to_17]


def test_next_card_judges_a_recorded_round_card_by_card():
    shoe = parse_cards("TS 9H 6D 5C 3S 4H")
    deal = deal_round(shoe, bonus_on_table=True)
    for index, dealt in enumerate(deal.cards):
        assert next_card(deal.cards[:index], True) == NextCard(dealt.hand, dealt.bonus_only)
    assert next_card(deal.cards, True) is None
    # A second card drawn to the Player's Hand is not what the rules call for.
    wrong = (*deal.cards[:5], DealtCard(shoe[5], P))
    assert next_card(wrong[:5], True) == NextCard(B)


def test_the_shoe_running_out_is_an_error():
    with pytest.raises(InvalidDealError, match="ran out"):
        deal_round(parse_cards("TS 9H 6D 5C"), bonus_on_table=False)
    with pytest.raises(InvalidDealError, match="ran out"):
        play_round(parse_cards("TS 9H 6D 5C"), 0, False)
    with pytest.raises(InvalidDealError, match="ran out"):
        play_round(parse_cards("TS 9H 6D"), 0, False)


def rules_ok(deal, rule):
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
            continue
        assert not any(d.bonus_only for d in extra)
        if rule is ONE:
            assert len(counting) == (3 if hand_total(first[h]) < 17 else 2)
        else:
            assert hand_total(counting) >= 17
        # every card past the second was drawn to a hand under 17
        for end in range(2, len(counting)):
            assert hand_total(counting[:end]) < 17


shoes = st.lists(st.sampled_from(CARDS), min_size=40, max_size=60)


@given(shoes, st.booleans(), st.sampled_from(list(DrawRule)), st.integers(0, 20))
def test_a_deal_takes_the_shoes_cards_in_order_and_follows_the_rules(shoe, bonus, rule, start):
    deal = deal_round(iter(shoe[start:]), bonus, rule)
    assert [d.card for d in deal.cards] == shoe[start : start + deal.used]
    assert [d.hand for d in deal.cards[:4]] == [P, B, P, B]
    rules_ok(deal, rule)
    tally = play_round(shoe, start, bonus, rule)
    assert tally == (
        start + deal.used,
        deal.player_total,
        deal.banker_total,
        BONUS_HANDS.index(deal.bonus_hand(P)),
        BONUS_HANDS.index(deal.bonus_hand(B)),
    )
    for index, dealt in enumerate(deal.cards):
        assert next_card(deal.cards[:index], bonus, rule) == NextCard(dealt.hand, dealt.bonus_only)
    assert next_card(deal.cards, bonus, rule) is None


@settings(max_examples=50)
@given(
    st.sampled_from([4, 8]),
    st.randoms(use_true_random=False),
    st.booleans(),
    st.sampled_from(list(DrawRule)),
)
def test_a_shuffled_shoe_is_dealt_without_replacement(decks, rng, bonus, rule):
    shoe = prepare_shoe(decks, rng, cover_from_bottom=COVER_FROM_BOTTOM)
    position, dealt = 1, []  # the first card is burned (681a.7(c))
    while not reshuffle_due(shoe, position):
        deal = deal_round(iter(shoe.cards[position:]), bonus, rule)
        dealt += [d.card for d in deal.cards]
        position += deal.used
    assert dealt == list(shoe.cards[1:position])
    assert not Counter(dealt) - Counter(shoe_cards(decks))
