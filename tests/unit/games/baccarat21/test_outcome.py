"""Who wins (PA 681a.6(c), 681a.7(i)-(k)): every branch, and the symmetry between the hands."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.games.baccarat21.drawing import deal_round
from audit.games.baccarat21.outcome import Winner, hand_outcome, tie_outcome, winner
from audit.games.cards.deck import parse_cards
from audit.games.wagering import Outcome

WIN, PUSH, LOSE = Outcome.WIN, Outcome.PUSH, Outcome.LOSE
OPPOSITE = {WIN: LOSE, LOSE: WIN, PUSH: PUSH}
TOTALS = range(2, 32)


@pytest.mark.parametrize(
    ("player", "banker", "player_wager", "rule"),
    [
        (20, 23, WIN, "681a.7(i)(1): 21 or less against over 21"),
        (17, 22, WIN, "681a.7(i)(1)"),
        (20, 19, WIN, "681a.7(i)(2)(i): higher, both 21 or less"),
        (18, 21, LOSE, "681a.7(i)(2)(ii): lower, both 21 or less"),
        (22, 25, WIN, "681a.7(i)(3)(i): both over 21, lower wins"),
        (26, 23, LOSE, "681a.7(i)(3)(ii): both over 21, higher loses"),
        (23, 20, LOSE, "681a.6(c)(2)(i): the Banker's Hand 21 or less beats over 21"),
        (19, 19, PUSH, "681a.7(i)(4): equal"),
        (24, 24, PUSH, "681a.7(i)(4): equal over 21"),
        (12, 17, LOSE, "two aces are a natural of 12 and compare as 12"),
    ],
)
def test_every_branch(player, banker, player_wager, rule):
    assert hand_outcome(player, banker) == player_wager, rule
    # 681a.7(j) is 681a.7(i) with the hands swapped.
    assert hand_outcome(banker, player) == OPPOSITE[player_wager], rule
    expected = {WIN: Winner.PLAYER, LOSE: Winner.BANKER, PUSH: Winner.TIE}[player_wager]
    assert winner(player, banker) == expected
    assert tie_outcome(player, banker) == (WIN if player == banker else LOSE)


@given(st.sampled_from(TOTALS), st.sampled_from(TOTALS))
def test_player_and_banker_outcomes_are_opposite(player, banker):
    assert hand_outcome(banker, player) == OPPOSITE[hand_outcome(player, banker)]
    swapped = {Winner.PLAYER: Winner.BANKER, Winner.BANKER: Winner.PLAYER, Winner.TIE: Winner.TIE}
    assert winner(banker, player) == swapped[winner(player, banker)]


@given(st.sampled_from(TOTALS), st.sampled_from(TOTALS))
def test_the_text_read_afresh(player, banker):
    """681a.6(c)(1): the Player's Hand wins at 21 or less and higher than the Banker's, or over
    21 and lower than the Banker's (which must then be over 21 too)."""
    player_wins = (player <= 21 and (player > banker or banker > 21)) or (21 < player < banker)
    banker_wins = (banker <= 21 and (banker > player or player > 21)) or (21 < banker < player)
    assert not (player_wins and banker_wins)
    assert (hand_outcome(player, banker) is WIN) == player_wins
    assert (hand_outcome(player, banker) is LOSE) == banker_wins
    assert (hand_outcome(player, banker) is PUSH) == (player == banker)


def test_a_natural_of_two_aces_loses_to_a_standing_hand():
    deal = deal_round(parse_cards("AS 9H AD 9C"), bonus_on_table=False)
    assert (deal.player_total, deal.banker_total) == (12, 18)
    assert winner(deal.player_total, deal.banker_total) is Winner.BANKER
