import re
from collections import Counter
from itertools import combinations, permutations

import pytest

from audit.games.errors import InvalidAmountError, InvalidSettlementError, InvalidTileError
from audit.games.paigow import pair_fortunes
from audit.games.paigow.pair_fortunes import (
    ILLUSTRATIVE_PAYTABLE,
    PairFortunesCategory,
    PairFortunesResult,
    PairType,
    Paytable,
    classify_distinct,
    classify_pairs,
    pair_fortunes_payout,
    pairs_in,
    settle_pair_fortunes,
)
from audit.games.paigow.tiles import TILE_NAMES, TILES, parse_tiles
from audit.games.wagering import Odds

C = PairFortunesCategory

HANDS = {
    C.GEE_JOON_AND_HEAVEN: "1-2 6-6 2-4 6-6",
    C.GEE_JOON_AND_IDENTICAL: "2-4 1-5 1-2 1-5",
    C.GEE_JOON_AND_MIXED: "1-2 2-3 2-4 1-4",
    C.HEAVEN_AND_IDENTICAL: "6-6 1-1 1-1 6-6",
    C.HEAVEN_AND_MIXED: "6-6 3-6 6-6 4-5",
    C.TWO_IDENTICAL: "4-4 5-6 4-4 5-6",
    C.IDENTICAL_AND_MIXED: "2-2 2-5 3-4 2-2",
    C.TWO_MIXED: "2-6 1-4 3-5 2-3",
    C.GEE_JOON_PAIR: "1-2 2-4 6-6 1-1",
    C.HEAVEN_PAIR: "6-6 6-6 1-2 3-6",
    C.IDENTICAL_PAIR: "1-3 1-3 4-6 1-6",
    C.MIXED_PAIR: "3-4 2-5 1-2 5-5",
    C.NO_PAIR: "6-6 1-1 1-2 4-5",
}


def test_categories_are_listed_best_first():
    names = [category.name for category in PairFortunesCategory]
    assert names[:8] == [
        "GEE_JOON_AND_HEAVEN",
        "GEE_JOON_AND_IDENTICAL",
        "GEE_JOON_AND_MIXED",
        "HEAVEN_AND_IDENTICAL",
        "HEAVEN_AND_MIXED",
        "TWO_IDENTICAL",
        "IDENTICAL_AND_MIXED",
        "TWO_MIXED",
    ]
    assert names[8:] == ["GEE_JOON_PAIR", "HEAVEN_PAIR", "IDENTICAL_PAIR", "MIXED_PAIR", "NO_PAIR"]


@pytest.mark.parametrize("category", list(PairFortunesCategory), ids=lambda c: c.name)
def test_every_category_from_a_hand_picked_hand(category):
    tiles = parse_tiles(HANDS[category])
    # PA 621a.8(j): "irrespective of how the player's hand was set".
    for order in permutations(tiles):
        assert classify_pairs(order) is category


def test_pairs_in():
    assert pairs_in(parse_tiles(HANDS[C.GEE_JOON_AND_HEAVEN])) == (
        PairType.GEE_JOON,
        PairType.HEAVEN,
    )
    assert pairs_in(parse_tiles(HANDS[C.TWO_MIXED])) == (PairType.MIXED, PairType.MIXED)
    assert pairs_in(parse_tiles(HANDS[C.NO_PAIR])) == ()
    # 6-6 with 1-1 is a Wong-like combination, not a Pair Fortunes pair.
    assert pairs_in(parse_tiles("6-6 1-1 4-5 3-6")) == (PairType.MIXED,)


# -- every four-tile hand -----------------------------------------------------------------

# The pairs exactly as the text names them, by notation: an independent classifier.
GEE_JOON = {frozenset({"1-2", "2-4"})}
HEAVEN = {frozenset({"6-6"})}
IDENTICAL = {
    frozenset({n}) for n in ("1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5")
}
MIXED = {frozenset(p.split()) for p in ("3-6 4-5", "2-6 3-5", "2-5 3-4", "1-4 2-3")}
NAMED = [("gee_joon", GEE_JOON), ("heaven", HEAVEN), ("identical", IDENTICAL), ("mixed", MIXED)]


def _notation(tile):
    return TILE_NAMES[tile].rstrip("ab")


def _pair_name(a, b):
    kinds = frozenset({_notation(a), _notation(b)})
    return next((name for name, pairs in NAMED if kinds in pairs), None)


def _independent_category(hand):
    """Classify by trying the three ways to split four tiles into two pairs."""
    a, b, c, d = hand
    for (w, x), (y, z) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        first, second = _pair_name(w, x), _pair_name(y, z)
        if first and second:
            order = [name for name, _ in NAMED]
            first, second = sorted((first, second), key=order.index)
            return f"{first}+{second}"
    singles = [_pair_name(x, y) for x, y in combinations(hand, 2)]
    found = [name for name in singles if name]
    return found[0] if found else "none"


INDEPENDENT_NAMES = {
    "gee_joon+heaven": C.GEE_JOON_AND_HEAVEN,
    "gee_joon+identical": C.GEE_JOON_AND_IDENTICAL,
    "gee_joon+mixed": C.GEE_JOON_AND_MIXED,
    "heaven+identical": C.HEAVEN_AND_IDENTICAL,
    "heaven+mixed": C.HEAVEN_AND_MIXED,
    "identical+identical": C.TWO_IDENTICAL,
    "identical+mixed": C.IDENTICAL_AND_MIXED,
    "mixed+mixed": C.TWO_MIXED,
    "gee_joon": C.GEE_JOON_PAIR,
    "heaven": C.HEAVEN_PAIR,
    "identical": C.IDENTICAL_PAIR,
    "mixed": C.MIXED_PAIR,
    "none": C.NO_PAIR,
}

# Counted by hand: a two-pair hand chooses two different pairs (1 Gee Joon, 1 Heaven,
# 10 identical, 4 mixed); a one-pair hand adds two of the other 30 tiles that are not
# themselves one of the 15 pairs among them: C(30, 2) - 15 = 420.
BY_FORMULA = {
    C.GEE_JOON_AND_HEAVEN: 1,
    C.GEE_JOON_AND_IDENTICAL: 10,
    C.GEE_JOON_AND_MIXED: 4,
    C.HEAVEN_AND_IDENTICAL: 10,
    C.HEAVEN_AND_MIXED: 4,
    C.TWO_IDENTICAL: 45,
    C.IDENTICAL_AND_MIXED: 40,
    C.TWO_MIXED: 6,
    C.GEE_JOON_PAIR: 420,
    C.HEAVEN_PAIR: 420,
    C.IDENTICAL_PAIR: 10 * 420,
    C.MIXED_PAIR: 4 * 420,
    C.NO_PAIR: 35_960 - 120 - 16 * 420,
}


TWO_PAIRS = set(list(PairFortunesCategory)[:8])


@pytest.mark.slow
def test_every_four_tile_hand():
    counts = Counter()
    independent = Counter()
    best_first = list(PairType).index
    for hand in combinations(range(32), 4):
        category = classify_pairs(hand)
        counts[category] += 1
        independent[INDEPENDENT_NAMES[_independent_category(hand)]] += 1
        assert category is INDEPENDENT_NAMES[_independent_category(hand)]
        assert classify_pairs(hand[::-1]) is category  # two pairs found the other way round
        assert classify_distinct(hand) is category
        pairs = pairs_in(hand)
        assert len(pairs) == (2 if category in TWO_PAIRS else category is not C.NO_PAIR)
        assert list(pairs) == sorted(pairs, key=best_first)
    assert sum(counts.values()) == 35_960
    assert counts[C.NO_PAIR] + sum(n for c, n in counts.items() if c is not C.NO_PAIR) == 35_960
    assert counts == independent
    assert counts == BY_FORMULA
    # Every category is reachable.
    assert set(counts) == set(PairFortunesCategory)
    assert min(counts.values()) >= 1


# -- settling -------------------------------------------------------------------------------


def test_a_pair_is_paid_at_the_paytable_odds():
    result = settle_pair_fortunes(parse_tiles(HANDS[C.GEE_JOON_PAIR]), 500, ILLUSTRATIVE_PAYTABLE)
    assert result == PairFortunesResult(C.GEE_JOON_PAIR, wager=500, paid=4000, collected=0)
    assert result.net == 4000


@pytest.mark.parametrize("category", list(PairFortunesCategory), ids=lambda c: c.name)
def test_settling_is_the_payout_of_the_category(category):
    result = settle_pair_fortunes(parse_tiles(HANDS[category]), 700, ILLUSTRATIVE_PAYTABLE)
    payout = pair_fortunes_payout(category, 700, ILLUSTRATIVE_PAYTABLE)
    assert (result.category, result.paid, result.collected) == (category, *payout)


def test_no_pair_is_collected():
    result = settle_pair_fortunes(parse_tiles(HANDS[C.NO_PAIR]), 500, ILLUSTRATIVE_PAYTABLE)
    assert result == PairFortunesResult(C.NO_PAIR, wager=500, paid=0, collected=500)
    assert result.net == -500


@pytest.mark.parametrize("category", [c for c in PairFortunesCategory if c is not C.NO_PAIR])
def test_every_winning_category_uses_its_own_odds(category):
    odds = {c: Odds(100 + i) for i, c in enumerate(PairFortunesCategory) if c is not C.NO_PAIR}
    result = settle_pair_fortunes(parse_tiles(HANDS[category]), 300, Paytable(odds))
    assert result.paid == 300 * odds[category].numerator


def test_fractional_odds_round_down_to_the_cent():
    odds = dict(ILLUSTRATIVE_PAYTABLE.odds)
    odds[C.MIXED_PAIR] = Odds(3, 2)
    result = settle_pair_fortunes(parse_tiles(HANDS[C.MIXED_PAIR]), 101, Paytable(odds))
    assert result.paid == 151


def test_illustrative_paytable_covers_every_winning_category():
    assert set(ILLUSTRATIVE_PAYTABLE.odds) == set(PairFortunesCategory) - {C.NO_PAIR}
    assert "ILLUSTRATIVE" in pair_fortunes.__doc__.upper()


def test_paytable_is_a_private_copy_and_its_repr_round_trips():
    odds = dict(ILLUSTRATIVE_PAYTABLE.odds)
    table = Paytable(odds)
    odds[C.MIXED_PAIR] = Odds(1)
    assert table.odds[C.MIXED_PAIR] == Odds(4)
    assert eval(repr(table), vars(pair_fortunes)) == table
    result = settle_pair_fortunes(parse_tiles(HANDS[C.TWO_MIXED]), 100, table)
    assert eval(repr(result), vars(pair_fortunes)) == result


def test_paytable_needs_every_winning_category_and_nothing_else():
    odds = dict(ILLUSTRATIVE_PAYTABLE.odds)
    del odds[C.HEAVEN_PAIR]
    with pytest.raises(InvalidSettlementError, match=r"PairFortunesCategory\.HEAVEN_PAIR"):
        Paytable(odds)
    with pytest.raises(InvalidSettlementError, match=r"NO_PAIR"):
        Paytable({**ILLUSTRATIVE_PAYTABLE.odds, C.NO_PAIR: Odds(1)})
    with pytest.raises(InvalidSettlementError, match="40"):
        Paytable({**ILLUSTRATIVE_PAYTABLE.odds, C.MIXED_PAIR: 40})
    with pytest.raises(InvalidSettlementError, match=re.escape("[(1, 2)]")):
        Paytable([(1, 2)])
    with pytest.raises(InvalidSettlementError, match="'mixed_pair'"):
        Paytable({**ILLUSTRATIVE_PAYTABLE.odds, "mixed_pair": Odds(1)})


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "40"])
def test_odds_must_be_positive_whole_numbers(bad):
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(bad))):
        Odds(bad)
    with pytest.raises(InvalidSettlementError, match=re.escape(repr(bad))):
        Odds(40, bad)


@pytest.mark.parametrize("bad", [0, -100, 5.0, "500", None])
def test_bad_wager_is_refused(bad):
    with pytest.raises(InvalidAmountError, match=re.escape(repr(bad))):
        settle_pair_fortunes(parse_tiles(HANDS[C.NO_PAIR]), bad, ILLUSTRATIVE_PAYTABLE)


def test_bad_paytable_is_refused():
    with pytest.raises(InvalidSettlementError, match="not a paytable"):
        settle_pair_fortunes(parse_tiles(HANDS[C.NO_PAIR]), 100, {})


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ((0, 1, 2), "four tiles"),
        ((0, 1, 2, 3, 4), "four tiles"),
        ((0, 1, 2, 2), "twice"),
        ((0, 1, 2, 32), "32"),
        ((0, 1, 2, -1), "-1"),
    ],
)
def test_bad_hands_are_refused(tiles, message):
    with pytest.raises(InvalidTileError, match=message):
        classify_pairs(tiles)


def test_every_tile_pairs_with_at_most_one_kind():
    # Why two pairs never overlap: each tile has a single partner kind.
    for tile in TILES:
        partners = {_notation(t) for t in TILES if t != tile and _pair_name(tile, t)}
        assert len(partners) == 1, TILE_NAMES[tile]
