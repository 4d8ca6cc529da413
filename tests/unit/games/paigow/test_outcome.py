"""Wager outcomes, checked against PA 621a.8(g)-(i) and NJ 19:47-10.7(h)-(j).

Hand comparison itself is checked in test_hands.py; here each clause of the outcome rule gets
hand-written settings, and random deals are checked against the clauses as written.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.errors import InvalidSettingError
from audit.games.paigow.hands import NJ_RANKING, PA_RANKING, hand_value, pair_rank
from audit.games.paigow.outcome import BankerSetting, outcome_from_keys, wager_outcome
from audit.games.paigow.setting import Setting, settings_for
from audit.games.paigow.tiles import TILES
from audit.games.wagering import Outcome

WIN, PUSH, LOSE = Outcome.WIN, Outcome.PUSH, Outcome.LOSE
RANKINGS = [pytest.param(PA_RANKING, id="PA"), pytest.param(NJ_RANKING, id="NJ")]


def setting(text):
    return Setting.from_notation(text)


def is_zero_low(hand):
    """Return whether a hand "has a value of zero": a non-pair whose spots end in 0."""
    return pair_rank(*hand) is None and hand_value(*hand) == 0


def text_outcome(player, banker, ranking):
    """PA 621a.8(g)-(i) / NJ 10.7(h)-(j), clause by clause."""
    high = ranking.compare(player.high, banker.high)
    low = ranking.compare(player.low, banker.low)
    low_higher = low > 0 and not is_zero_low(player.low)
    if high > 0 and low_higher:
        return WIN  # (i): both higher
    if high > 0:
        return PUSH  # (h)(1): high higher; low identical, lower, or of value zero
    if low_higher:
        return PUSH  # (h)(2): high identical or lower; low higher
    return LOSE  # (g): high identical or lower; low identical, lower, or of value zero


# Banker: high 1-1 + 3-3 = 8 with a Two; low 2-6 + 1-5 = 14, value 4 with a Six (1-5, eleventh).
BANKER = "1-1 3-3 / 2-6 1-5"

CLAUSE_CASES = [
    # (clause, player setting, outcome); the player never holds the banker's 1-1a 3-3a 2-6 1-5a.
    ("i-both-higher", "6-6 6-6 / 5-6 2-2", WIN),  # pair of Teens; 15 -> 5 over 4
    ("h1-low-copy", "6-6 6-6 / 1-5b 3-5", PUSH),  # 14 -> 4 with a Six (1-5): a copy
    ("h1-low-lower", "6-6 6-6 / 1-3 4-5", PUSH),  # 13 -> 3 under 4
    ("h1-low-zero", "6-6 6-6 / 5-5 4-6", PUSH),  # 20 -> 0
    ("h2-high-copy", "1-1b 3-3b / 5-6 2-2", PUSH),  # 8 with a Two: a copy; 5 over 4
    ("h2-high-lower", "5-5 2-5 / 5-6 1-3", PUSH),  # 17 -> 7 under 8; 15 -> 5 over 4
    ("g-both-copies", "1-1b 3-3b / 1-5b 3-5", LOSE),
    ("g-both-lower", "5-5 2-5 / 1-3 4-5", LOSE),  # 7 under 8; 3 under 4
    ("g-high-copy-low-lower", "1-1b 3-3b / 1-3 4-5", LOSE),
    ("g-high-lower-low-zero", "5-5 2-5 / 1-3 3-3b", LOSE),  # 4 + 6 = 10 -> 0
]


@pytest.mark.parametrize("ranking", RANKINGS)
@pytest.mark.parametrize(
    ("clause", "player", "expected"), CLAUSE_CASES, ids=[case[0] for case in CLAUSE_CASES]
)
def test_each_clause_of_the_outcome_rule(ranking, clause, player, expected):
    """PA 621a.8(g), (h)(1), (h)(2), (i); NJ 10.7(h), (i)1, (i)2, (j) read the same here."""
    assert wager_outcome(setting(player), setting(BANKER), ranking) == expected


@pytest.mark.parametrize("ranking", RANKINGS)
def test_identical_pair_rank_on_the_high_hand_goes_to_the_banker(ranking):
    """PA 621a.3(d) and 621a.8(h)(2): two Teen Wongs are a copy, so a better low only pushes."""
    banker = setting("6-6b 3-6 / 2-2 1-6")  # Teen Wong; 11 -> 1
    player = setting("6-6a 4-5 / 5-6 1-3")  # Teen Wong; 15 -> 5
    assert wager_outcome(player, banker, ranking) == PUSH


def test_pa_zero_high_hands_are_a_copy_whatever_the_tiles():
    """PA 621a.3(g) then 621a.8(g): both highs zero, both lows a copy: the player loses.

    The player's zero high holds a Four (1-3, fourth), the banker's a Ten (5-5, fifth).
    """
    player = setting("1-3 1-5 / 2-2b 3-3b")
    banker = setting("5-5 4-6 / 2-2a 3-3a")
    assert PA_RANKING.compare(player.high, banker.high) == 0
    assert wager_outcome(player, banker, PA_RANKING) == LOSE
    assert wager_outcome(player, banker) == LOSE  # PA is the default


def test_nj_zero_high_hand_wins_on_the_higher_tile():
    """NJ 10.2(f) (no zero-zero clause) then 10.7(i)1: high higher, low a copy: push."""
    player = setting("1-3 1-5 / 2-2b 3-3b")
    banker = setting("5-5 4-6 / 2-2a 3-3a")
    assert NJ_RANKING.compare(player.high, banker.high) == 1
    assert wager_outcome(player, banker, NJ_RANKING) == PUSH


@pytest.mark.parametrize("ranking", RANKINGS)
def test_zero_low_hand_that_beats_the_bankers_zero_on_tile_only_pushes(ranking):
    """NJ 10.7(i)1, (j); PA 621a.8(h)(1): a low hand of value zero never wins the wager.

    Under NJ the player's zero low (a Four, 1-3) does outrank the banker's zero low (a Six,
    3-3); the "or has a value of zero" clause still makes it a push, not a win.
    """
    banker = setting("6-6 6-6 / 2-2 3-3")
    player = setting("2-4 1-2 / 1-3 1-5")  # the Supreme Pair beats the banker's Teens
    assert ranking.compare(player.high, banker.high) == 1
    expected_low = 1 if ranking is NJ_RANKING else 0
    assert ranking.compare(player.low, banker.low) == expected_low
    assert wager_outcome(player, banker, ranking) == PUSH


@pytest.mark.parametrize("ranking", RANKINGS)
def test_zero_low_hand_that_beats_the_bankers_zero_on_tile_with_a_lower_high_loses(ranking):
    """NJ 10.7(h): high lower, low "has a value of zero": lose.

    NJ 10.7(i)2 read alone would call this a push (low higher in rank on tile); the two
    clauses overlap here and the test follows (h)'s explicit zero clause. See the report.
    """
    banker = setting("6-6 6-6 / 2-2 3-3")
    player = setting("1-1 1-1 / 1-3 1-5")
    assert wager_outcome(player, banker, ranking) == LOSE


@pytest.mark.parametrize("ranking", RANKINGS)
@pytest.mark.parametrize(
    "player",
    [
        "6-6 6-6 / 5-5 5-5",  # pair of Tens: 10 + 10 = 20
        "6-6 6-6 / 4-6 4-6",  # pair of Tens (4-6): 20
        "6-6 6-6 / 1-4 2-3",  # Mixed Fives: 5 + 5 = 10
        "2-4 1-2 / 6-6 4-4",  # Teen Gong: 12 + 8 = 20
    ],
)
def test_low_pair_whose_spots_end_in_zero_still_wins(ranking, player):
    """Reading pinned here: "value" decides only hands without a pair (PA 621a.3(e)).

    A pair ranks by 621a.3(c) and is never a hand that "has a value of zero" for 621a.8(g),
    (h)(1); the literal alternative is listed as an ambiguity in the report.
    """
    assert wager_outcome(setting(player), setting(BANKER), ranking) == WIN


# --- Refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ranking", RANKINGS)
def test_shared_tiles_are_refused(ranking):
    player = setting("6-6 6-6 / 1-1 1-1")
    banker = setting("6-6 4-5 / 2-2 1-3")  # parses its 6-6 as 6-6a, the player's tile
    with pytest.raises(InvalidSettingError, match="share"):
        wager_outcome(player, banker, ranking)


@pytest.mark.parametrize("ranking", RANKINGS)
def test_misordered_player_setting_is_refused_not_swapped(ranking):
    # Swapped, this player would win both hands; it must be refused instead.
    player = setting("5-6 2-2 / 6-6 6-6")
    with pytest.raises(InvalidSettingError):
        wager_outcome(player, setting(BANKER), ranking)


@pytest.mark.parametrize("ranking", RANKINGS)
def test_misordered_banker_setting_is_refused(ranking):
    banker = setting("2-6 1-5 / 1-1 3-3")
    with pytest.raises(InvalidSettingError):
        wager_outcome(setting("5-5 2-5 / 1-3 4-5"), banker, ranking)


def test_order_is_judged_by_the_ranking_in_force():
    # Two zero hands: a copy, so either way is ordered, under PA; NJ ranks the Four first.
    player = setting("5-6 4-5 / 1-3 3-3")
    banker = setting("1-1 3-3b / 2-6 1-5")
    assert wager_outcome(player, banker, PA_RANKING) == LOSE
    with pytest.raises(InvalidSettingError):
        wager_outcome(player, banker, NJ_RANKING)


def test_outcome_values_are_stable_names():
    assert [(o.name, o.value) for o in Outcome] == [
        ("WIN", "win"),
        ("PUSH", "push"),
        ("LOSE", "lose"),
    ]


# --- Random deals --------------------------------------------------------------------------------


eight_tiles = st.permutations(TILES).map(lambda order: tuple(order[:8]))
rankings = st.sampled_from([PA_RANKING, NJ_RANKING])
split = st.integers(0, 2)


@given(tiles=eight_tiles, ranking=rankings, p=split, b=split)
def test_outcome_from_keys_agrees_with_wager_outcome_and_the_text(tiles, ranking, p, b):
    player = settings_for(tiles[:4], ranking)[p]
    banker = settings_for(tiles[4:], ranking)[b]
    keys = (
        ranking.key(*player.high),
        ranking.key(*player.low),
        ranking.key(*banker.high),
        ranking.key(*banker.low),
    )
    result = wager_outcome(player, banker, ranking)
    assert outcome_from_keys(*keys) == result
    assert result == text_outcome(player, banker, ranking)


@given(tiles=eight_tiles, ranking=rankings, p=split, b=split)
def test_a_zero_low_hand_never_wins(tiles, ranking, p, b):
    player = settings_for(tiles[:4], ranking)[p]
    banker = settings_for(tiles[4:], ranking)[b]
    if is_zero_low(player.low):
        assert wager_outcome(player, banker, ranking) != WIN


@given(tiles=eight_tiles, ranking=rankings, p=split)
def test_a_player_holding_the_bankers_exact_hands_loses(tiles, ranking, p):
    """Copies go to the banker on each hand (621a.3(d), (i)); 621a.8(g) then says lose."""
    player = settings_for(tiles[:4], ranking)[p]
    assert (
        outcome_from_keys(
            ranking.key(*player.high),
            ranking.key(*player.low),
            ranking.key(*player.high),
            ranking.key(*player.low),
        )
        == LOSE
    )


any_setting = st.permutations(TILES).map(lambda t: Setting((t[0], t[1]), (t[2], t[3])))


def keyed_outcome(player, banker, ranking):
    """The outcome from ranking.key on each hand, clashes and disorder refused in that order."""
    if set(player.tiles) & set(banker.tiles):
        raise InvalidSettingError(f"share tiles: {str(player)!r} / {str(banker)!r}")
    keys = [ranking.key(*hand) for hand in (player.high, player.low, banker.high, banker.low)]
    for setting_, (high, low) in ((player, keys[:2]), (banker, keys[2:])):
        if high < low:
            raise InvalidSettingError(f"high hand ranks below the low hand: {str(setting_)!r}")
    return outcome_from_keys(*keys)


def decided(decide, player, banker, ranking):
    """Return the outcome ``decide`` gives, or which setting it refused and why."""
    try:
        return decide(player, banker, ranking)
    except InvalidSettingError as error:
        return str(error).split(": ", 1)[-1]


@given(player=any_setting, banker=any_setting, ranking=rankings)
def test_wager_outcome_is_the_keyed_outcome_or_its_refusal(player, banker, ranking):
    """Any two settings, ordered or not, sharing tiles or not: the same outcome or refusal."""
    expected = decided(keyed_outcome, player, banker, ranking)
    assert decided(wager_outcome, player, banker, ranking) == expected


@given(players=st.lists(any_setting, min_size=2, max_size=7), banker=any_setting, ranking=rankings)
def test_one_banker_setting_decides_each_player_as_wager_outcome(players, banker, ranking):
    """Read once, the banker decides every player in turn; a refusal leaves nothing behind."""
    against = BankerSetting(banker, ranking)
    for player in players:
        expected = decided(keyed_outcome, player, banker, ranking)
        assert decided(lambda p, _b, _r: against.outcome(p), player, banker, ranking) == expected
