"""The Bonus Wager's hands (PA 681a.3(e)) and paytables A-F (PA 681a.8(c)).

``text_bonus`` is an independent reading of 681a.3(e) over rank triples; the
paytables are transcribed from 681a.8(c) and every row of every table is paid on a
round dealt from a stacked shoe.
"""

from itertools import product

import pytest

from audit.games.baccarat21.bonus import (
    BONUS_PAYTABLES,
    BonusHand,
    BonusPaytable,
    classify_bonus,
)
from audit.games.baccarat21.drawing import Hand, deal_round
from audit.games.baccarat21.settlement import Bet, RoundResult, Wager, settle_wager
from audit.games.cards.deck import card, parse_cards
from audit.games.errors import InvalidSettlementError
from audit.games.wagering import Odds

B = BonusHand
ROWS = [B.THREE_SEVENS, B.THREE_OF_A_KIND, B.STRAIGHT, B.THREE_CARD_21, B.PAIR]
# PA 681a.8(c), transcribed row by row: letter -> (decks, odds to 1 in the order of ROWS).
TABLES = {
    "A": (4, [100, 40, 11, 5, 3]),
    "B": (4, [80, 40, 12, 5, 3]),
    "C": (4, [80, 40, 10, 6, 3]),
    "D": (8, [100, 40, 10, 5, 3]),
    "E": (8, [80, 40, 11, 5, 3]),
    "F": (8, [80, 35, 12, 5, 3]),
}

# Ranks by position in "A23456789TJQK": face values, the ace 1 (or 11 for 21 and Q-K-A).
VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def text_bonus(ranks):
    """681a.3(e) read afresh: the best of the hands the first cards make."""
    if len(ranks) >= 3:
        a, b, c = ranks[:3]
        hard = VALUES[a] + VALUES[b] + VALUES[c]
        total = hard + 10 if 0 in (a, b, c) and hard <= 11 else hard
        positions = sorted((a, b, c))
        # Consecutive ranks, the ace low (A 2 3) or high (Q K A).
        straight = positions == list(range(positions[0], positions[0] + 3)) or positions == [
            0,
            11,
            12,
        ]
        if a == b == c == 6:
            return B.THREE_SEVENS
        if a == b == c:
            return B.THREE_OF_A_KIND
        if straight:
            return B.STRAIGHT
        if total == 21:
            return B.THREE_CARD_21
    if len(ranks) >= 2 and ranks[0] == ranks[1]:
        return B.PAIR
    return B.NOTHING


def test_every_rank_triple_and_pair_is_classified_as_the_text_says():
    for ranks in product(range(13), repeat=3):
        suits = (0, 1, 2)
        cards = [card(r, s) for r, s in zip(ranks, suits, strict=True)]
        assert classify_bonus(cards) == text_bonus(ranks), ranks
        assert classify_bonus(cards[:2]) == text_bonus(ranks[:2]), ranks[:2]


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7S 7H 7D", B.THREE_SEVENS),  # 681a.3(e)(1)
        ("5S 5H 5D", B.THREE_OF_A_KIND),  # 681a.3(e)(2)
        ("5S 7H 6D", B.STRAIGHT),  # 681a.3(e)(3): "a five, seven and six"
        ("6S 6H 9D", B.THREE_CARD_21),  # 681a.3(e)(4): "a six, six, nine" (the pair ranks lower)
        ("TS TH 4D", B.PAIR),  # 681a.3(e)(5): "two 10s"
        ("QS QH", B.PAIR),  # "or two queens"
        ("5S 9H 5D", B.NOTHING),  # "a five and a nine ... then receives another five"
        ("TS QH", B.NOTHING),  # same value, different rank
        ("QS KH AD", B.STRAIGHT),  # the ace high
        ("AS 2H 3D", B.STRAIGHT),  # the ace low
        ("KS AH 2D", B.NOTHING),  # no wrap-around
        ("9S TH JD", B.STRAIGHT),  # ten then jack
        ("AS 5H 5D", B.THREE_CARD_21),  # soft: 11 + 5 + 5
        ("AS AH 9D", B.THREE_CARD_21),
        ("7S 7H 8D 7C", B.PAIR),  # the fourth card plays no part
    ],
)
def test_regulation_examples(cards, expected):
    assert classify_bonus(parse_cards(cards)) == expected


def test_one_card_or_none_is_no_bonus_hand():
    assert classify_bonus(parse_cards("7S")) == B.NOTHING
    assert classify_bonus(()) == B.NOTHING


@pytest.mark.parametrize("letter", sorted(TABLES))
def test_paytables_are_the_regulations(letter):
    decks, odds = TABLES[letter]
    table = BONUS_PAYTABLES[letter]
    assert (table.letter, table.decks) == (letter, decks)
    assert {hand: table.odds[hand] for hand in ROWS} == {
        hand: Odds(n) for hand, n in zip(ROWS, odds, strict=True)
    }
    assert B.NOTHING not in table.odds


# Stacked shoes dealing each Bonus hand to the Player's Hand; the Banker's Hand holds 18.
# Cards go P, B, P, B, then the Player's Hand draws (681a.7(e), (g)).
DEALT_TO_PLAYER = {
    B.THREE_SEVENS: "7S TS 7H 8D 7D",  # 14, draws a 7: 21
    B.THREE_OF_A_KIND: "5S TS 5H 8D 5D",  # 10 draws a 5: 15
    B.STRAIGHT: "5S TS 7H 8D 6D",  # 12 draws 6: 18
    B.THREE_CARD_21: "6S TS 6H 8D 9D",  # 12 draws 9: 21
    B.PAIR: "QS TS QH 8D",  # 20 stands on two cards
}


@pytest.mark.parametrize("letter", sorted(TABLES))
@pytest.mark.parametrize("row", range(5))
def test_every_row_of_every_paytable_is_paid_on_a_dealt_round(letter, row):
    hand = ROWS[row]
    deal = deal_round(parse_cards(DEALT_TO_PLAYER[hand]), bonus_on_table=True)
    assert deal.used == len(parse_cards(DEALT_TO_PLAYER[hand]))
    assert deal.bonus_hand(Hand.PLAYER) == hand
    assert deal.bonus_hand(Hand.BANKER) == B.NOTHING
    result = RoundResult.from_deal(deal)
    wager = Wager(3, Bet.BONUS_PLAYER, 2500)
    line = settle_wager(wager, result, BONUS_PAYTABLES[letter])
    assert (line.paid, line.collected) == (2500 * TABLES[letter][1][row], 0)
    loser = settle_wager(Wager(3, Bet.BONUS_BANKER, 2500), result, BONUS_PAYTABLES[letter])
    assert (loser.paid, loser.collected) == (0, 2500)


def test_a_paytable_must_price_every_bonus_hand():
    with pytest.raises(InvalidSettlementError, match="'Z'"):
        BonusPaytable("Z", 4, {B.PAIR: Odds(3)})


def test_a_paytable_cannot_be_changed_through_its_mapping():
    with pytest.raises(TypeError):
        BONUS_PAYTABLES["A"].odds[B.PAIR] = Odds(99)
