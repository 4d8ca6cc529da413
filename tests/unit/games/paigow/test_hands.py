"""Two-tile hands and settings, checked against PA 621a.3, NJ 19:47-10.2 and the California text.

The tables below are transcribed from the regulation; ``text_key`` is an independent reading
of 621a.3(c)-(i) that the code's ranking must agree with on every pair of hands.
"""

from itertools import combinations, pairwise, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidSettingError, InvalidTileError, RulesError
from audit.games.paigow.hands import (
    NJ_RANKING,
    PA_RANKING,
    describe_hand,
    hand_value,
    highest_tile_rank,
    pair_rank,
)
from audit.games.paigow.setting import (
    Setting,
    check_ordered,
    is_ordered,
    settings_for,
    splits,
)
from audit.games.paigow.tiles import (
    TILE_KINDS,
    TILES,
    kind_name,
    parse_tiles,
    tile_name,
)

# PA 621a.3(c) / NJ 19:47-10.2(b), transcribed: (ranking, heading, pairings as named).
PAIR_TABLE = [
    (1, "supreme", [("2-4", "1-2")]),
    (2, "matched", [("6-6", "6-6")]),
    (3, "matched", [("1-1", "1-1")]),
    (4, "matched", [("4-4", "4-4")]),
    (5, "matched", [("1-3", "1-3")]),
    (6, "matched", [("5-5", "5-5")]),
    (7, "matched", [("3-3", "3-3")]),
    (8, "matched", [("2-2", "2-2")]),
    (9, "matched", [("5-6", "5-6")]),
    (10, "matched", [("4-6", "4-6")]),
    (11, "matched", [("1-6", "1-6")]),
    (12, "matched", [("1-5", "1-5")]),
    (13, "mixed", [("3-6", "4-5")]),
    (14, "mixed", [("3-5", "2-6")]),
    (15, "mixed", [("3-4", "2-5")]),
    (16, "mixed", [("1-4", "2-3")]),
    (17, "wong", [("6-6", "4-5"), ("6-6", "3-6")]),
    (18, "wong", [("1-1", "4-5"), ("1-1", "3-6")]),
    (19, "gong", [("6-6", "2-6"), ("6-6", "3-5"), ("6-6", "4-4")]),
    (20, "gong", [("1-1", "2-6"), ("1-1", "3-5"), ("1-1", "4-4")]),
]
PAIR_ROWS = [(rank, heading, a, b) for rank, heading, pairs in PAIR_TABLE for a, b in pairs]
PAIR_OF = {tuple(sorted((a, b))): rank for rank, _, a, b in PAIR_ROWS}

# PA 621a.3(h): individual rank of each tile kind; spots are the two halves added.
TILE_RANK = {
    "6-6": 1, "1-1": 2, "4-4": 3, "1-3": 4, "5-5": 5, "3-3": 6, "2-2": 7, "5-6": 8,
    "4-6": 9, "1-6": 10, "1-5": 11, "3-6": 12, "4-5": 12, "2-6": 13, "3-5": 13,
    "2-5": 14, "3-4": 14, "2-4": 15, "1-4": 16, "2-3": 16, "1-2": 17,
}  # fmt: skip
# PA 621a.3(f): used apart, each Gee Joon tile counts 3 or 6 and its rank moves with the count.
GEE_JOON_CHOICES = {"1-2": [(3, 17), (6, 15)], "2-4": [(6, 15), (3, 17)]}

ALL_HANDS = list(combinations(TILES, 2))  # all 496 two-tile hands


def notation(tile):
    return kind_name(TILE_KINDS[tile])


def spots(tile):
    low, high = notation(tile).split("-")
    return int(low) + int(high)


def hand(text):
    return parse_tiles(text)


def hand_id(tiles):
    return "+".join(tile_name(t) for t in tiles)


def text_pair_rank(a, b):
    return PAIR_OF.get(tuple(sorted((notation(a), notation(b)))))


def choices(tile):
    return GEE_JOON_CHOICES.get(notation(tile), [(spots(tile), TILE_RANK[notation(tile)])])


def text_value_and_top(a, b):
    """621a.3(e), (f): the holder counts a Gee Joon for the best value; the top tile as counted."""
    options = [
        ((sa + sb) % 10, min(ra, rb)) for (sa, ra), (sb, rb) in product(choices(a), choices(b))
    ]
    value = max(v for v, _ in options)
    return value, min(top for v, top in options if v == value)


def text_key(a, b, zero_zero_ties):
    """Order hands per 621a.3(c), (e)-(i); equal keys are a copy."""
    rank = text_pair_rank(a, b)
    if rank is not None:
        return (2, -rank)  # (c): any pair outranks any non-pair; the first pair is best
    value, top = text_value_and_top(a, b)
    if value == 0 and zero_zero_ties:
        return (1, 0, 0)  # PA (g), California: zero-zero regardless of the tiles
    return (1, value, -top)  # (e) value, then (g) highest tile, (i) same rank is a copy


def sign(x):
    return (x > 0) - (x < 0)


RANKINGS = [
    pytest.param(PA_RANKING, True, id="PA"),
    pytest.param(NJ_RANKING, False, id="NJ"),
]
two_tiles = st.permutations(TILES).map(lambda order: tuple(order[:2]))
rankings = st.sampled_from([PA_RANKING, NJ_RANKING])


# --- Permissible pairs: 621a.3(c) ----------------------------------------------------------------


def test_pair_table_has_forty_two_tile_hands():
    assert sum(text_pair_rank(a, b) is not None for a, b in ALL_HANDS) == 40
    assert sum(pair_rank(a, b) is not None for a, b in ALL_HANDS) == 40


@pytest.mark.parametrize(
    ("rank", "heading", "first", "second"),
    PAIR_ROWS,
    ids=[f"{rank}-{a}+{b}" for rank, _, a, b in PAIR_ROWS],
)
def test_pair_table_row(rank, heading, first, second):
    hands = [
        (x, y)
        for x, y in product(TILES, TILES)
        if x != y and notation(x) == first and notation(y) == second
    ]
    assert hands  # the set holds the tiles this row names
    for x, y in hands:
        assert pair_rank(x, y) == rank
        assert pair_rank(y, x) == rank
        info = describe_hand(x, y)
        assert info.pair_rank == rank
        assert info.category == heading


@pytest.mark.parametrize(("a", "b"), ALL_HANDS, ids=[hand_id(h) for h in ALL_HANDS])
def test_pair_rank_of_every_two_tile_hand(a, b):
    assert pair_rank(a, b) == text_pair_rank(a, b)
    assert pair_rank(b, a) == text_pair_rank(a, b)


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_every_pair_outranks_every_non_pair(ranking, zero_zero_ties):
    pairs = [h for h in ALL_HANDS if text_pair_rank(*h) is not None]
    others = [h for h in ALL_HANDS if text_pair_rank(*h) is None]
    assert len(others) == 456
    for p, o in product(pairs, others):
        assert ranking.compare(p, o) == 1, (hand_id(p), hand_id(o))
        assert ranking.compare(o, p) == -1, (hand_id(o), hand_id(p))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_pairs_rank_in_the_order_of_the_table(ranking, zero_zero_ties):
    pairs = [h for h in ALL_HANDS if text_pair_rank(*h) is not None]
    for x, y in product(pairs, pairs):
        # A lower ordinal ranks higher; an identical ordinal is a copy, 621a.3(d).
        expected = sign(text_pair_rank(*y) - text_pair_rank(*x))
        assert ranking.compare(x, y) == expected, (hand_id(x), hand_id(y))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
@pytest.mark.parametrize(
    ("x", "y"),
    [
        ("6-6a 4-5", "6-6b 3-6"),  # the two Teen Wongs, seventeenth
        ("1-1a 4-5", "1-1b 3-6"),  # Day Wongs, eighteenth
        ("6-6a 2-6", "6-6b 4-4a"),  # Teen Gongs, nineteenth
        ("1-1a 3-5", "1-1b 4-4b"),  # Day Gongs, twentieth
    ],
)
def test_pairs_of_identical_rank_are_a_copy(ranking, zero_zero_ties, x, y):
    """PA 621a.3(d), NJ 10.2(c): identical pair rank is a copy, won by the banker."""
    assert ranking.compare(hand(x), hand(y)) == 0
    assert ranking.key(*hand(x)) == ranking.key(*hand(y))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_worst_pair_beats_best_non_pair(ranking, zero_zero_ties):
    day_gong, nine_with_twelve = hand("1-1 2-6"), hand("6-6 1-6")  # 0 points vs 9 points
    assert hand_value(*nine_with_twelve) == 9
    assert ranking.compare(day_gong, nine_with_twelve) == 1


# --- Values: 621a.3(e), (f) ----------------------------------------------------------------------


def test_regulation_value_examples():
    assert hand_value(*hand("1-1 3-3")) == 8  # 621a.3(e)(1)
    assert hand_value(*hand("5-6 1-6")) == 8  # 621a.3(e)(2): 18, left digit discarded


@pytest.mark.parametrize(
    ("a", "b"),
    [h for h in ALL_HANDS if text_pair_rank(*h) is None],
    ids=[hand_id(h) for h in ALL_HANDS if text_pair_rank(*h) is None],
)
def test_value_and_highest_tile_of_every_non_pair(a, b):
    value, top = text_value_and_top(a, b)
    if not {notation(a), notation(b)} & set(GEE_JOON_CHOICES):
        assert value == (spots(a) + spots(b)) % 10  # 621a.3(e), stated plainly
        assert top == min(TILE_RANK[notation(a)], TILE_RANK[notation(b)])
    assert hand_value(a, b) == hand_value(b, a) == value
    assert highest_tile_rank(a, b) == highest_tile_rank(b, a) == top
    info = describe_hand(a, b)
    assert (info.pair_rank, info.value, info.highest_rank) == (None, value, top)
    assert info.category == "value"


GEE_JOON_VALUES = [
    # (hand, value, why): each Gee Joon may count 3 or 6, the holder taking the better value.
    ("1-2 1-6", 3, "1-2 as 6: 13; as 3 it would be 10, a zero"),
    ("1-2 6-6", 8, "1-2 as 6: 18; as 3 only 15"),
    ("1-2 4-4", 4, "1-2 as 6: 14; as 3 only 11"),
    ("1-2 5-5", 6, "1-2 as 6: 16; as 3 only 13"),
    ("1-2 3-3", 9, "1-2 as 3: 9; as 6 only 12"),
    ("1-2 1-4", 8, "1-2 as 3: 8; as 6 only 11"),
    ("2-4 1-5", 9, "2-4 as 3: 9; as 6 only 12"),
    ("2-4 1-3", 7, "2-4 as 3: 7; as 6 it would be 10, a zero"),
    ("2-4 2-3", 8, "2-4 as 3: 8; as 6 only 11"),
    ("2-4 6-6", 8, "2-4 as 6: 18; as 3 only 15"),
    ("2-4 5-5", 6, "2-4 as 6: 16; as 3 only 13"),
    ("2-4 2-6", 4, "2-4 as 6: 14; as 3 only 11"),
]


@pytest.mark.parametrize(
    ("text", "value", "why"), GEE_JOON_VALUES, ids=[c[0] for c in GEE_JOON_VALUES]
)
def test_gee_joon_counts_three_or_six_to_the_holders_advantage(text, value, why):
    """PA 621a.3(f), NJ 10.2(e)."""
    a, b = hand(text)
    assert pair_rank(a, b) is None  # used apart from the Supreme Pair
    assert hand_value(a, b) == value, why


@pytest.mark.parametrize("gee_joon", ["1-2", "2-4"])
def test_gee_joon_with_every_other_tile(gee_joon):
    (g,) = hand(gee_joon)
    for other in TILES:
        if other == g or text_pair_rank(g, other) is not None:
            continue
        best = max((count + spots(other)) % 10 for count in (3, 6))
        assert hand_value(g, other) == best, hand_id((g, other))
        # Counted for its best value, a Gee Joon is never the higher tile of its hand: where
        # it would be (with a Five), it counts 3 and so ranks seventeenth (621a.3(f)).
        assert highest_tile_rank(g, other) == TILE_RANK[notation(other)], hand_id((g, other))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_six_counted_as_three_ranks_seventeenth_so_the_five_is_the_highest_tile(
    ranking, zero_zero_ties
):
    """PA 621a.3(f): 2-4 counted as 3 ranks seventeenth, not fifteenth.

    2-4 with a Five (1-4 or 2-3) is best counted 3 (value 8, not 1). As counted, the 2-4 ranks
    below the Five, so the Five (sixteenth) breaks ties, the same as in 1-2 with a Five; so the
    two hands are a copy. Had the 2-4 kept its fifteenth place it would win the tie.

    The other half of (f), the 1-2 counted as 6 ranking fifteenth, can never decide a tie:
    the 1-2 counts 6 only beside tiles that rank higher than fifteenth.
    """
    assert highest_tile_rank(*hand("2-4 1-4")) == 16
    assert highest_tile_rank(*hand("2-4 2-3")) == 16
    assert highest_tile_rank(*hand("1-2 2-3")) == 16
    assert ranking.compare(hand("2-4 2-3"), hand("1-2 1-4")) == 0
    assert ranking.compare(hand("2-4 1-4"), hand("2-3 1-2")) == 0


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_gee_joon_count_changes_which_hand_wins(ranking, zero_zero_ties):
    # 1-2 with 6-6 counts the 1-2 as 6: value 8 with a Twelve beats 8 with a Two (621a.3(g)).
    assert ranking.compare(hand("1-2 6-6"), hand("1-1 3-3")) == 1
    # 2-4 with 6-6: counted as 3 the hand would be 5 and lose to a 6; counted as 6 it is 8.
    assert ranking.compare(hand("2-4 6-6"), hand("1-1 2-2")) == 1
    # 2-4 with 1-3 is 7 (as 3), not 0 (as 6): it beats a 6.
    assert ranking.compare(hand("2-4 1-3"), hand("1-1 2-2")) == 1


def test_supreme_pair_is_not_two_separate_counts():
    # Together the Gee Joon tiles are the first pair, whatever their counts would make.
    assert pair_rank(*hand("1-2 2-4")) == 1
    assert PA_RANKING.compare(hand("1-2 2-4"), hand("6-6 6-6")) == 1


# --- Identical values: 621a.3(g), (i) ------------------------------------------------------------


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        ("6-6 1-5", "1-1 3-3"),  # 8s: Twelve (first) beats Two (second)
        ("4-5 2-3", "2-6 2-4"),  # 4s: Nine (twelfth) beats Eight (thirteenth)
        ("2-3 3-3", "2-2 2-5"),  # 1s: Six (3-3, sixth) beats Four (2-2, seventh)
        ("1-1 5-5", "1-6 1-4"),  # 2s: Two (second) beats Seven (1-6, tenth)
    ],
)
def test_identical_value_goes_to_the_higher_tile(ranking, zero_zero_ties, higher, lower):
    assert hand_value(*hand(higher)) == hand_value(*hand(lower))
    assert ranking.compare(hand(higher), hand(lower)) == 1
    assert ranking.compare(hand(lower), hand(higher)) == -1


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
@pytest.mark.parametrize(
    ("x", "y"),
    [
        ("6-6a 3-3a", "6-6b 1-5a"),  # 8s with a Twelve; the other tiles do not count
        ("3-6 2-3", "4-5 1-4"),  # 4s with a Nine: 3-6 and 4-5 share the twelfth rank
        ("2-6 1-4", "3-5 2-3"),  # 3s with an Eight: 2-6 and 3-5 share the thirteenth rank
        ("2-5 1-3", "3-4 1-3b"),  # 1s with a Four (1-3), whichever copy
    ],
)
def test_identical_value_and_highest_rank_is_a_copy(ranking, zero_zero_ties, x, y):
    """PA 621a.3(i), NJ 10.2(h): same value, same highest rank: copy, to the banker."""
    hx, hy = hand(x), hand(y)
    assert hand_value(*hx) == hand_value(*hy)
    assert highest_tile_rank(*hx) == highest_tile_rank(*hy)
    assert ranking.compare(hx, hy) == 0
    assert ranking.key(*hx) == ranking.key(*hy)


ZERO_HANDS = [h for h in ALL_HANDS if text_pair_rank(*h) is None and text_value_and_top(*h)[0] == 0]


def test_zero_zero_is_a_copy_under_pa_and_california_regardless_of_tiles():
    """PA 621a.3(g); California: "regardless of the high tile, the player/dealer also wins"."""
    assert len(ZERO_HANDS) == 24
    best, worst = hand("1-3 3-3"), hand("5-6 4-5")  # a Four (fourth) vs an Eleven (eighth)
    assert PA_RANKING.compare(best, worst) == 0
    for x, y in product(ZERO_HANDS, ZERO_HANDS):
        assert PA_RANKING.compare(x, y) == 0, (hand_id(x), hand_id(y))


def test_zero_zero_is_broken_on_the_highest_tile_under_nj():
    """NJ 19:47-10.2(f) has no zero-zero clause: identical values go to the higher tile."""
    assert NJ_RANKING.compare(hand("1-3 3-3"), hand("5-6 4-5")) == 1
    for x, y in product(ZERO_HANDS, ZERO_HANDS):
        expected = sign(text_value_and_top(*y)[1] - text_value_and_top(*x)[1])
        assert NJ_RANKING.compare(x, y) == expected, (hand_id(x), hand_id(y))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_any_one_beats_any_zero(ranking, zero_zero_ties):
    one_with_weak_tiles = hand("2-3 3-3")  # 11: value 1, top a Six (sixth)
    assert hand_value(*one_with_weak_tiles) == 1
    for zero in ZERO_HANDS:
        assert ranking.compare(one_with_weak_tiles, zero) == 1, hand_id(zero)


# --- The whole order -----------------------------------------------------------------------------


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_every_comparison_agrees_with_the_text(ranking, zero_zero_ties):
    keys = {h: text_key(*h, zero_zero_ties) for h in ALL_HANDS}
    for x, y in product(ALL_HANDS, ALL_HANDS):
        expected = (keys[x] > keys[y]) - (keys[x] < keys[y])
        if ranking.compare(x, y) != expected:
            pytest.fail(f"{hand_id(x)} vs {hand_id(y)}: {ranking.compare(x, y)}, not {expected}")


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_sorted_neighbours_compare_consistently(ranking, zero_zero_ties):
    ordered = sorted(ALL_HANDS, key=lambda h: ranking.key(*h))
    for low, high in pairwise(ordered):
        step = ranking.compare(high, low)
        assert step in (0, 1)
        assert (step == 0) == (text_key(*high, zero_zero_ties) == text_key(*low, zero_zero_ties))
    assert text_pair_rank(*ordered[-1]) == 1  # the Supreme Pair is highest
    # Distinct classes: 20 pair ranks, plus value x highest-rank classes.
    classes = {ranking.key(*h) for h in ALL_HANDS}
    assert len(classes) == len({text_key(*h, zero_zero_ties) for h in ALL_HANDS})


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_key_ignores_the_order_of_the_two_tiles(ranking, zero_zero_ties):
    for a, b in ALL_HANDS:
        assert ranking.key(a, b) == ranking.key(b, a)
        assert ranking.compare((a, b), (b, a)) == 0


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_a_hand_needs_two_different_tiles(ranking, zero_zero_ties):
    (tile,) = hand("6-6")
    with pytest.raises(InvalidSettingError, match="6-6a"):
        ranking.key(tile, tile)
    with pytest.raises(InvalidSettingError):
        describe_hand(tile, tile)


@given(ranking=rankings, x=two_tiles)
def test_compare_is_reflexive(ranking, x):
    assert ranking.compare(x, x) == 0


@given(ranking=rankings, x=two_tiles, y=two_tiles)
def test_compare_is_antisymmetric_and_matches_keys(ranking, x, y):
    assert ranking.compare(x, y) == -ranking.compare(y, x)
    assert (ranking.key(*x) == ranking.key(*y)) == (ranking.compare(x, y) == 0)
    assert ranking.compare(x, y) == sign(ranking.key(*x) - ranking.key(*y))


@given(ranking=rankings, x=two_tiles, y=two_tiles, z=two_tiles)
def test_compare_is_transitive(ranking, x, y, z):
    xy, yz, xz = ranking.compare(x, y), ranking.compare(y, z), ranking.compare(x, z)
    if xy >= 0 and yz >= 0:
        assert xz >= 0
    if (xy > 0 and yz >= 0) or (xy >= 0 and yz > 0):
        assert xz > 0
    if xy == 0 and yz == 0:
        assert xz == 0


# --- Settings: PA 621a.1 "high hand", "low hand" -------------------------------------------------

ALL_DEALS = list(combinations(TILES, 4))


def unordered(first, second):
    return frozenset((frozenset(first), frozenset(second)))


def test_splits_of_every_deal():
    for deal in ALL_DEALS:
        result = splits(deal)
        assert len(result) == 3
        for first, second in result:
            assert sorted((*first, *second)) == sorted(deal)
        # Four tiles split into two hands in exactly three ways; all three are here.
        assert len({unordered(*split) for split in result}) == 3


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_settings_for_every_deal_sets_the_higher_hand_high(ranking, zero_zero_ties):
    for deal in ALL_DEALS:
        result = settings_for(deal, ranking)
        assert {unordered(s.high, s.low) for s in result} == {
            unordered(*split) for split in splits(deal)
        }
        for s in result:
            assert text_key(*s.high, zero_zero_ties) >= text_key(*s.low, zero_zero_ties), s
            assert is_ordered(s, ranking)


def test_settings_for_default_is_pa():
    deal = hand("5-6 4-5 1-3 3-3")  # two zero hands: a copy under PA, not under NJ
    assert settings_for(deal) == settings_for(deal, PA_RANKING)
    assert settings_for(deal) != settings_for(deal, NJ_RANKING)
    assert Setting(hand("1-3 3-3"), hand("5-6 4-5")) in settings_for(deal, NJ_RANKING)
    assert Setting(hand("5-6 4-5"), hand("1-3 3-3")) not in settings_for(deal, NJ_RANKING)


def test_splits_rejects_a_repeated_tile():
    with pytest.raises(InvalidTileError):
        splits((0, 0, 1, 2))


@pytest.mark.parametrize("deal", ["6-6 6-6 1-1", "6-6 6-6 1-1 1-1 4-4"], ids=["three", "five"])
def test_splits_rejects_a_deal_of_other_than_four_tiles(deal):
    with pytest.raises(RulesError, match="1-1a"):
        splits(hand(deal))


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_a_setting_with_its_high_hand_below_its_low_hand_is_refused(ranking, zero_zero_ties):
    right = Setting.from_notation("6-6 4-5 / 1-2 1-3")  # Teen Wong over a 6
    wrong = Setting.from_notation("1-2 1-3 / 6-6 4-5")
    assert is_ordered(right, ranking)
    assert check_ordered(right, ranking) is right
    assert not is_ordered(wrong, ranking)
    with pytest.raises(InvalidSettingError) as caught:
        check_ordered(wrong, ranking)
    assert repr(str(wrong)) in str(caught.value)


@pytest.mark.parametrize(("ranking", "zero_zero_ties"), RANKINGS)
def test_a_copy_may_be_set_either_way(ranking, zero_zero_ties):
    """621a.1 "high hand" and "low hand": between two copy hands neither ranks lower."""
    one = Setting.from_notation("6-6a 4-5 / 6-6b 3-6")
    other = Setting.from_notation("6-6b 3-6 / 6-6a 4-5")
    assert check_ordered(one, ranking) is one
    assert check_ordered(other, ranking) is other


def test_two_zero_hands_may_be_set_either_way_only_under_pa():
    four_high = Setting.from_notation("1-3 3-3 / 5-6 4-5")
    eleven_high = Setting.from_notation("5-6 4-5 / 1-3 3-3")
    assert is_ordered(four_high, PA_RANKING)
    assert is_ordered(eleven_high, PA_RANKING)
    assert is_ordered(four_high, NJ_RANKING)
    with pytest.raises(InvalidSettingError):
        check_ordered(eleven_high, NJ_RANKING)


def test_is_ordered_defaults_to_pa():
    eleven_high = Setting.from_notation("5-6 4-5 / 1-3 3-3")
    assert is_ordered(eleven_high)
    assert check_ordered(eleven_high) is eleven_high


@given(deal=st.permutations(TILES).map(lambda order: tuple(order[:4])))
def test_setting_round_trips_through_its_notation(deal):
    for s in (*settings_for(deal), Setting(deal[:2], deal[2:])):
        assert Setting.from_notation(str(s)) == s
        assert repr(s) == f"Setting.from_notation({str(s)!r})"
        assert s.tiles == (*s.high, *s.low)


def test_setting_notation_examples():
    s = Setting.from_notation("6-6 4-5 / 2-1 1-3")
    assert s.high == hand("6-6a 4-5")
    assert set(s.low) == set(hand("1-2 1-3a"))
    # Within a hand the tiles carry no order; they are listed highest-ranking first.
    assert str(s) == "6-6a 4-5 / 1-3a 1-2"
    assert s == Setting.from_notation("4-5 6-6 / 1-3 1-2")
    assert Setting.from_notation("6-6 6-6 / 1-1b 1-1") == Setting(
        hand("6-6a 6-6b"), hand("1-1b 1-1a")
    )


@pytest.mark.parametrize(
    "text",
    [
        "6-6 4-5 1-2 1-3",
        "6-6 / 4-5 1-2 1-3",
        "6-6 4-5 1-2 / 1-3",
        "6-6 4-5 / 1-2",
        "6-6 4-5 / 1-2 1-3 2-2",
        "6-6 4-5 / 1-2 1-3 / 2-2",
    ],
)
def test_setting_notation_needs_two_tiles_each_side_of_one_slash(text):
    with pytest.raises(InvalidSettingError) as caught:
        Setting.from_notation(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("text", ["6-6a 6-6a / 1-2 1-3", "6-6 4-5 / 6-6 6-6", "7-7 4-5 / 1-2 1-3"])
def test_setting_notation_needs_real_distinct_tiles(text):
    with pytest.raises(InvalidTileError):
        Setting.from_notation(text)


@pytest.mark.parametrize(
    ("high", "low"), [((0, 1, 2), (3, 4)), ((0,), (1, 2)), ((0, 1), ())], ids=["3+2", "1+2", "2+0"]
)
def test_setting_needs_two_tiles_per_hand(high, low):
    with pytest.raises(InvalidSettingError):
        Setting(high, low)


def test_setting_refuses_a_tile_in_both_hands():
    with pytest.raises(InvalidTileError):
        Setting(hand("6-6a 4-5"), hand("6-6a 1-2"))


def test_setting_is_kept_as_placed():
    # "never reordered here": a misordered setting keeps its hands where the owner put them.
    s = Setting(hand("1-2 1-3"), hand("6-6 4-5"))
    assert set(s.high) == set(hand("1-2 1-3"))
    assert set(s.low) == set(hand("6-6 4-5"))
