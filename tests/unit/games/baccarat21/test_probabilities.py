"""The tabled chances and house moments agree with a fresh simulation through the engine."""

from __future__ import annotations

import random

import pytest

from audit.games.baccarat21.bonus import BONUS_PAYTABLES
from audit.games.baccarat21.drawing import DrawRule
from audit.games.baccarat21.probabilities import (
    expected_rates,
    house_moments,
    lookup,
    lookup_moments,
)
from audit.games.baccarat21.settlement import Bet

ROUNDS = 40_000


@pytest.mark.parametrize("letter", ["A", "D"])
def test_tabled_house_moments_match_a_fresh_run(letter):
    paytable = BONUS_PAYTABLES[letter]
    fresh = house_moments(paytable.decks, DrawRule.ONE_CARD, paytable, ROUNDS, random.Random(5))
    tabled = lookup_moments(paytable.decks, DrawRule.ONE_CARD, letter)
    for bet in Bet:
        error = (tabled[bet].variance / ROUNDS) ** 0.5
        assert abs(fresh[bet].mean - tabled[bet].mean) < 5 * error, bet
        assert fresh[bet].variance == pytest.approx(tabled[bet].variance, rel=0.15), bet


def test_tabled_win_chances_match_a_fresh_run():
    fresh = expected_rates(8, DrawRule.ONE_CARD, ROUNDS, random.Random(6))
    tabled = lookup(8, DrawRule.ONE_CARD)
    for bet in Bet:
        p = tabled[bet].win
        assert abs(fresh[bet].win - p) < 5 * (p * (1 - p) / ROUNDS) ** 0.5, bet
    # The main wagers mirror each other, and the Tie wins exactly when they push.
    assert tabled[Bet.PLAYER].push == tabled[Bet.BANKER].push == tabled[Bet.TIE].win
