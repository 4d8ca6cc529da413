"""The regulatory dealer rule, PA 621a.8(d) / NJ 19:47-10.7(d), as the set of settings it permits.

Every expected set here is worked out from the regulation text (the arithmetic is in the
comments), not read back from the code. The text, for reference:

    (1) If the dealer has the Supreme Pair, it shall be played as the Supreme Pair.
    (2) If possible, the dealer shall always play a pair, Wong or Gong as set forth in 621a.3.
    (3) If the dealer does not have any of the combinations in paragraph (1) or (2), the
        dealer shall play any two tiles together which have a value equal to nine, eight or
        seven.
    (4) If the dealer does not have any of the combinations in paragraph (1), (2) or (3), the
        dealer shall play the highest ranking tile with the lowest ranking tile.

Which of the two hands is "high" follows from the ranking (PA 621a.1, NJ 19:47-10.1 "High
hand"); where both hands rank equal either may be placed high.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.games.errors import InvalidSettingError, RulesError
from audit.games.paigow.dealer_rule import (
    CLAUSES,
    complies,
    naive_permitted_settings,
    permitted_codes,
    permitted_settings,
    rule_clause,
)
from audit.games.paigow.deals import kind_pattern, setting_of_place_code
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING, HandRanking, hand_value, pair_rank
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import TILE_RANKS, parse_tile, parse_tiles

RANKINGS = [pytest.param(PA_RANKING, id="PA"), pytest.param(NJ_RANKING, id="NJ")]
SUPREME = frozenset(parse_tiles("1-2 2-4"))
ALL_DEALS = list(combinations(range(32), 4))
DEALS = st.lists(st.sampled_from(range(32)), min_size=4, max_size=4, unique=True)


def as_set(settings):
    """Settings as (high tiles, low tiles): the order of tiles inside a hand is not a setting."""
    return {(frozenset(s.high), frozenset(s.low)) for s in settings}


def notations(*texts):
    return as_set(Setting.from_notation(text) for text in texts)


# --- Hand-written deals, one or more per clause ------------------------------------------------

# (deal, clause, permitted settings under PA, under NJ if different). Tile ranks are PA
# 621a.3(h); values are the right digit of the spot total (621a.3(e)); a Gee Joon tile used
# apart counts 3 or 6 (621a.3(f)).
CASES = [
    pytest.param(
        # 2-4 + 1-2 is the Supreme Pair; 6-6 + 1-1 is just 4. Only one setting.
        "1-2 2-4 6-6 1-1",
        "supreme-pair",
        ["1-2 2-4 / 6-6 1-1"],
        None,
        id="d1-supreme-pair-high",
    ),
    pytest.param(
        # Split, each Gee Joon counted 3 with a 6-spot tile makes 9 / 9; (d)(1) still forbids it.
        "1-2 2-4 3-3 1-5",
        "supreme-pair",
        ["1-2 2-4 / 3-3 1-5"],
        None,
        id="d1-supreme-pair-not-split-for-nine-nine",
    ),
    pytest.param(
        # (d)(1) comes before (d)(2): the Teens go low, the Supreme Pair high.
        "1-2 2-4 6-6 6-6",
        "supreme-pair",
        ["1-2 2-4 / 6-6a 6-6b"],
        None,
        id="d1-supreme-pair-over-pair-of-teens",
    ),
    pytest.param(
        # Day Wong (1-1 + 3-6) / 5-5 + 1-6 = 17 -> 7 is the only pair, wong or gong; the
        # 9 / 9 setting (1-1 + 1-6, 3-6 + 5-5) and 2 / 6 (1-1 + 5-5, 3-6 + 1-6) are not.
        "1-1 3-6 5-5 1-6",
        "pair-wong-gong",
        ["1-1 3-6 / 5-5 1-6"],
        None,
        id="d2-day-wong-over-nine-nine",
    ),
    pytest.param(
        # Two splits hold a wong and a gong: Teen Wong / Day Gong, and Day Wong (18th) above
        # Teen Gong (19th). The third, 6-6 + 1-1 = 4 / 4-5 + 2-6 = 7, holds none.
        "6-6 1-1 4-5 2-6",
        "pair-wong-gong",
        ["6-6 4-5 / 1-1 2-6", "1-1 4-5 / 6-6 2-6"],
        None,
        id="d2-wong-and-gong-either-split",
    ),
    pytest.param(
        # Every split plays a pair: Teens / Mixed Nines, or two Teen Wongs. The two Teen Wongs
        # rank equal (17th), so each may be the high hand.
        "6-6 6-6 3-6 4-5",
        "pair-wong-gong",
        [
            "6-6a 6-6b / 3-6 4-5",
            "6-6a 3-6 / 6-6b 4-5",
            "6-6b 4-5 / 6-6a 3-6",
            "6-6a 4-5 / 6-6b 3-6",
            "6-6b 3-6 / 6-6a 4-5",
        ],
        None,
        id="d2-pair-or-two-equal-teen-wongs",
    ),
    pytest.param(
        # Pair of Yuns / 6-6 + 1-1 = 4, or Teen Gong (19th) / Day Gong (20th) either way the
        # two Yuns are shared out.
        "4-4 4-4 6-6 1-1",
        "pair-wong-gong",
        ["4-4a 4-4b / 6-6 1-1", "6-6 4-4a / 1-1 4-4b", "6-6 4-4b / 1-1 4-4a"],
        None,
        id="d2-pair-or-teen-gong-and-day-gong",
    ),
    pytest.param(
        # 6-6 + 1-6 = 19 -> 9 / 1-3 + 5-5 = 14 -> 4, and 5-5 + 1-6 = 17 -> 7 / 6-6 + 1-3 =
        # 16 -> 6 are both "two tiles ... nine, eight or seven"; 6-6 + 5-5 = 2 / 1-3 + 1-6 = 1
        # is not.
        "6-6 1-3 5-5 1-6",
        "seven-eight-nine",
        ["6-6 1-6 / 1-3 5-5", "5-5 1-6 / 6-6 1-3"],
        None,
        id="d3-nine-or-seven",
    ),
    pytest.param(
        # 5-6 + 1-6 = 18 -> 8 / 6-6 + 5-5 = 22 -> 2; 5-5 + 1-6 = 17 -> 7 / 6-6 + 5-6 = 23 -> 3;
        # 6-6 + 1-6 = 19 -> 9 / 5-5 + 5-6 = 21 -> 1: all three splits qualify.
        "6-6 5-5 5-6 1-6",
        "seven-eight-nine",
        ["5-6 1-6 / 6-6 5-5", "5-5 1-6 / 6-6 5-6", "6-6 1-6 / 5-5 5-6"],
        None,
        id="d3-nine-eight-or-seven",
    ),
    pytest.param(
        # Only with the 1-2 counted as 6 (621a.3(f)) does a hand reach 7: 1-2 + 5-6 = 17 -> 7
        # (as 3: 14 -> 4). The other splits: 1-2 + 5-5 -> 6 / 5-6 + 4-6 -> 1;
        # 1-2 + 4-6 -> 6 / 5-6 + 5-5 -> 1.
        "1-2 5-6 5-5 4-6",
        "seven-eight-nine",
        ["1-2 5-6 / 5-5 4-6"],
        None,
        id="d3-gee-joon-counted-as-six",
    ),
    pytest.param(
        # No pair, best hand 6. Highest tile 6-6 (1st), lowest 5-5 (5th): 6-6 + 5-5 = 22 -> 2,
        # which is the low hand against 1-1 + 1-3 = 6.
        "6-6 1-1 1-3 5-5",
        "no-combination",
        ["1-1 1-3 / 6-6 5-5"],
        None,
        id="d4-highest-with-lowest-played-low",
    ),
    pytest.param(
        # Highest 6-6 (1st), lowest 2-2 (7th): 6-6 + 2-2 = 16 -> 6 beats 1-1 + 5-5 = 2.
        "6-6 1-1 5-5 2-2",
        "no-combination",
        ["6-6 2-2 / 1-1 5-5"],
        None,
        id="d4-highest-with-lowest-played-high",
    ),
    pytest.param(
        # Highest 1-3 (4th), lowest 1-5 (11th): 1-3 + 1-5 = 10 -> 0 and 5-5 + 4-6 = 20 -> 0.
        # PA 621a.3(g): a zero-zero tie is "equally bad", so either hand may go high. NJ
        # 19:47-10.2(f) has no such sentence: equal values rank by the highest tile, and the
        # 1-3 (4th) beats the 5-5 (5th), so only one way round is a correct setting.
        "1-3 5-5 4-6 1-5",
        "no-combination",
        ["1-3 1-5 / 5-5 4-6", "5-5 4-6 / 1-3 1-5"],
        ["1-3 1-5 / 5-5 4-6"],
        id="d4-two-zero-hands",
    ),
]


@pytest.mark.parametrize(("deal", "clause", "expected_pa", "expected_nj"), CASES)
@pytest.mark.parametrize("ranking", RANKINGS)
def test_permitted_settings_of_hand_written_deals(deal, clause, expected_pa, expected_nj, ranking):
    tiles = parse_tiles(deal)
    expected = expected_nj if ranking is NJ_RANKING and expected_nj is not None else expected_pa
    assert rule_clause(tiles, ranking) == clause
    assert as_set(permitted_settings(tiles, ranking)) == notations(*expected)


@pytest.mark.parametrize(("deal", "clause", "expected_pa", "expected_nj"), CASES)
def test_permitted_settings_ignore_the_order_of_the_dealt_tiles(
    deal, clause, expected_pa, expected_nj
):
    tiles = parse_tiles(deal)
    assert as_set(permitted_settings(tiles[::-1])) == as_set(permitted_settings(tiles))
    assert rule_clause(tiles[::-1]) == clause


def test_clause_names_cite_the_four_paragraphs_in_order():
    assert list(CLAUSES) == ["supreme-pair", "pair-wong-gong", "seven-eight-nine", "no-combination"]
    for number, citation in enumerate(CLAUSES.values(), start=1):
        assert citation.endswith(f"({number})")


# --- complies ----------------------------------------------------------------------------------

COMPLIES_CASES = [
    pytest.param("1-2 2-4 / 6-6 1-1", PA_RANKING, True, id="d1-supreme-high"),
    pytest.param("2-4 1-2 / 1-1 6-6", PA_RANKING, True, id="d1-tile-order-in-a-hand-is-free"),
    pytest.param("6-6 1-1 / 1-2 2-4", PA_RANKING, False, id="d1-supreme-placed-low"),
    pytest.param("2-4 3-3 / 1-2 2-2", PA_RANKING, False, id="d1-supreme-split"),
    pytest.param("1-1 3-6 / 5-5 1-6", PA_RANKING, True, id="d2-day-wong"),
    pytest.param("1-1 1-6 / 3-6 5-5", PA_RANKING, False, id="d2-nine-nine-instead-of-wong"),
    pytest.param("5-5 1-6 / 1-1 3-6", PA_RANKING, False, id="d2-wong-placed-low"),
    pytest.param("6-6b 4-5 / 6-6a 3-6", PA_RANKING, True, id="d2-equal-wongs-either-way"),
    pytest.param("5-5 1-6 / 6-6 1-3", PA_RANKING, True, id="d3-seven-six"),
    pytest.param("6-6 5-5 / 1-3 1-6", PA_RANKING, False, id="d3-two-one-instead-of-seven"),
    pytest.param("6-6 1-3 / 5-5 1-6", PA_RANKING, False, id="d3-seven-placed-low"),
    pytest.param("1-1 1-3 / 6-6 5-5", PA_RANKING, True, id="d4-highest-with-lowest"),
    pytest.param("6-6 1-3 / 1-1 5-5", PA_RANKING, False, id="d4-highest-with-another-tile"),
    pytest.param("6-6 5-5 / 1-1 1-3", PA_RANKING, False, id="d4-stronger-hand-placed-low"),
    pytest.param("5-5 4-6 / 1-3 1-5", PA_RANKING, True, id="d4-zero-zero-either-way-PA"),
    pytest.param("5-5 4-6 / 1-3 1-5", NJ_RANKING, False, id="d4-zero-zero-lower-tile-high-NJ"),
    pytest.param("1-3 1-5 / 5-5 4-6", NJ_RANKING, True, id="d4-zero-zero-higher-tile-high-NJ"),
]


@pytest.mark.parametrize(("notation", "ranking", "expected"), COMPLIES_CASES)
def test_complies(notation, ranking, expected):
    assert complies(Setting.from_notation(notation), ranking) is expected


# --- Every deal against the text ---------------------------------------------------------------


def _splits(deal):
    a, b, c, d = deal
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def _ways_round(first, second, ranking):
    """The correctly ordered settings of one split: both ways round if the hands rank equal."""
    k1, k2 = ranking.key(*first), ranking.key(*second)
    return [(h, lo) for h, lo, ok in ((first, second, k1 >= k2), (second, first, k2 >= k1)) if ok]


def text_rule(deal, ranking: HandRanking):
    """PA 621a.8(d) / NJ 19:47-10.7(d) read straight off the text: (clause, permitted set)."""
    splits = _splits(deal)

    def has_pair(split):  # a pair, wong or gong: any entry of 621a.3(c)
        return any(pair_rank(*hand) is not None for hand in split)

    def has_seven_to_nine(split):
        return any(hand_value(*hand) in (7, 8, 9) for hand in split)

    if set(deal) >= SUPREME:
        clause, chosen = "supreme-pair", [s for s in splits if SUPREME in map(frozenset, s)]
    elif any(map(has_pair, splits)):
        clause, chosen = "pair-wong-gong", [s for s in splits if has_pair(s)]
    elif any(map(has_seven_to_nine, splits)):
        clause, chosen = "seven-eight-nine", [s for s in splits if has_seven_to_nine(s)]
    else:
        highest = min(deal, key=TILE_RANKS.__getitem__)
        lowest = max(deal, key=TILE_RANKS.__getitem__)
        together = {highest, lowest}
        clause, chosen = "no-combination", [s for s in splits if together in map(set, s)]
    permitted = {
        (frozenset(high), frozenset(low))
        for first, second in chosen
        for high, low in _ways_round(first, second, ranking)
    }
    return clause, permitted


@pytest.fixture(scope="module")
def rule_by_deal():
    """(clause, permitted set) under PA and under NJ for every one of the 35,960 deals."""
    return {
        deal: {
            name: (rule_clause(deal, ranking), as_set(permitted_settings(deal, ranking)))
            for name, ranking in (("PA", PA_RANKING), ("NJ", NJ_RANKING))
        }
        for deal in ALL_DEALS
    }


@pytest.mark.slow
@pytest.mark.parametrize("ranking", RANKINGS)
def test_every_deal_matches_the_text(rule_by_deal, ranking):
    name = "PA" if ranking is PA_RANKING else "NJ"
    wrong = [deal for deal in ALL_DEALS if rule_by_deal[deal][name] != text_rule(deal, ranking)]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("ranking", RANKINGS)
def test_complies_on_every_setting_of_every_deal_as_the_text_permits(rule_by_deal, ranking):
    """complies() reads a table of kind patterns: each of the six ways to set every deal (three
    splits, either hand high) is judged as the text's permitted set judges it."""
    name = "PA" if ranking is PA_RANKING else "NJ"
    wrong = [
        (deal, code)
        for deal in ALL_DEALS
        for code in range(6)
        if complies(setting := setting_of_place_code(deal, code), ranking)
        is not (as_set([setting]) <= rule_by_deal[deal][name][1])
    ]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("ranking", RANKINGS)
def test_the_table_is_the_rules_own_reading_on_every_deal(ranking):
    """permitted_settings() looks up what naive_permitted_settings() works out, deal by deal."""
    wrong = [
        deal
        for deal in ALL_DEALS
        if permitted_settings(deal, ranking) != naive_permitted_settings(deal, ranking)
    ]
    assert wrong == []


@pytest.mark.parametrize("ranking", RANKINGS)
def test_the_table_holds_one_entry_per_kind_pattern_looked_up(ranking):
    patterns = {kind_pattern(deal) for deal in ALL_DEALS}
    table = permitted_codes(ranking)
    assert set(table) <= patterns  # worked out on first lookup: a pattern, nothing else
    assert all(0 < table[pattern] < 64 for pattern in patterns)  # never empty: the rule permits
    assert set(table) == patterns


@pytest.mark.slow
def test_every_clause_is_reached(rule_by_deal):
    counts = {clause: 0 for clause in CLAUSES}
    for by_ranking in rule_by_deal.values():
        counts[by_ranking["PA"][0]] += 1
    # (d)(1): both Gee Joon tiles and any two of the other 30: C(30, 2) = 435 deals.
    assert counts["supreme-pair"] == 435
    assert all(counts.values())
    assert sum(counts.values()) == 35_960


@pytest.mark.slow
def test_nj_ranking_picks_the_same_clause_and_differs_only_on_two_zero_hands(rule_by_deal):
    # NJ 19:47-10.7(d) is word for word PA 621a.8(d). The rankings differ in one sentence: PA
    # 621a.3(g) makes two zero hands "equally bad", NJ 19:47-10.2(f) ranks them by the highest
    # tile. So the clauses agree everywhere and the permitted sets agree except where the
    # setting the rule forces has two zero hands: there PA allows both ways round, NJ one.
    differing = {}
    for deal, by_ranking in rule_by_deal.items():
        (clause_pa, pa), (clause_nj, nj) = by_ranking["PA"], by_ranking["NJ"]
        assert clause_pa == clause_nj, deal
        if pa != nj:
            differing[deal] = (pa, nj)
    two_zero_hands = {
        deal
        for deal, by_ranking in rule_by_deal.items()
        if by_ranking["PA"][0] == "no-combination"
        and all(hand_value(*hand) == 0 for hand in next(iter(by_ranking["PA"][1])))
    }
    assert set(differing) == two_zero_hands
    # 1-3 5-5 4-6 1-5 and 5-5 3-3 2-2 4-6, with each matched kind from either copy: 2 x 2^4.
    assert len(differing) == 32
    for pa, nj in differing.values():
        ((high, low),) = nj
        assert pa == {(high, low), (low, high)}
        assert min(TILE_RANKS[t] for t in high) < min(TILE_RANKS[t] for t in low)


@pytest.mark.slow
def test_no_deal_under_d4_has_tied_highest_or_lowest_ranks(rule_by_deal):
    # (d)(4) cannot meet a tie: the tiles that share a 621a.3(h) rank are the two copies of a
    # matched kind and the mixed 9s, 8s, 7s and 5s, and each such two form a 621a.3(c) pair,
    # so (d)(2) governs any deal holding both. Nor does 621a.3(f) (a Gee Joon tile counted 6
    # ranks 15th, counted 3 ranks 17th) change which tile is highest or lowest: no (d)(4)
    # deal holds a Gee Joon tile beside a 16th-ranked five (1-2 + 1-4 = 3 + 5 = 8 is (d)(3)).
    gee_joon_ranks = {parse_tile("1-2"): (17, 15), parse_tile("2-4"): (15, 17)}
    under_d4 = [deal for deal, by in rule_by_deal.items() if by["PA"][0] == "no-combination"]
    assert under_d4
    for deal in under_d4:
        assert len({TILE_RANKS[t] for t in deal}) == 4, deal
        readings = [{t: TILE_RANKS[t] for t in deal}]
        for tile, (as_printed, moved) in gee_joon_ranks.items():
            if tile in deal:
                readings.append({**readings[0], tile: moved})
                assert readings[0][tile] == as_printed
        ends = {(min(r, key=r.__getitem__), max(r, key=r.__getitem__)) for r in readings}
        assert len(ends) == 1, deal


@settings(max_examples=200, deadline=None)
@given(deal=DEALS, data=st.data())
def test_permitted_settings_comply_however_their_tiles_are_listed(deal, data):
    # complies() must not depend on the order of the dealt tiles or of the tiles in a hand.
    for ranking in (PA_RANKING, NJ_RANKING):
        permitted = permitted_settings(deal, ranking)
        assert permitted
        for setting in permitted:
            assert sorted(setting.tiles) == sorted(deal)
            high = tuple(data.draw(st.permutations(setting.high)))
            low = tuple(data.draw(st.permutations(setting.low)))
            assert complies(Setting(high, low), ranking)
            if ranking.key(*high) != ranking.key(*low):
                assert not complies(Setting(low, high), ranking)


# --- Invalid input -----------------------------------------------------------------------------


@pytest.mark.parametrize("function", [permitted_settings, rule_clause])
@pytest.mark.parametrize(
    "tiles", [pytest.param((0, 0, 1, 2), id="repeated"), pytest.param((0, 1, 2, 32), id="32")]
)
def test_invalid_deals_raise_a_rules_error(function, tiles):
    with pytest.raises(RulesError):
        function(tiles)


@pytest.mark.parametrize("function", [permitted_settings, rule_clause])
@pytest.mark.parametrize(
    "tiles", [pytest.param((0, 1, 2), id="three"), pytest.param((0, 1, 2, 3, 4), id="five")]
)
def test_a_deal_of_the_wrong_size_raises_invalid_setting_error(function, tiles):
    with pytest.raises(InvalidSettingError):
        function(tiles)
