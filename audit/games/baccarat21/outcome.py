"""Which hand wins a round, and how each wager ends (PA 681a.6(c)-(d), 681a.7(i)-(k)).

A hand wins at 21 or less against a lower total or a hand over 21; when both
hands are over 21, the lower total wins (PA 681a.6(c), 681a.7(i)(3), (j)(3)).
Equal totals, over 21 or not, are a tie: Player and Banker Wagers are returned
(681a.7(i)(4), (j)(4)) and the Tie Wager wins (681a.6(d)(1), 681a.7(k)(1)).
A natural has no rank of its own: it stops the drawing (681a.7(f)) and then
compares on its total like any hand, so two aces count 12 (681a.3(d)(3)).

>>> winner(20, 19), winner(22, 25), winner(21, 21)
(<Winner.PLAYER: 'player'>, <Winner.PLAYER: 'player'>, <Winner.TIE: 'tie'>)
>>> hand_outcome(17, 23)
<Outcome.WIN: 'win'>
"""

from __future__ import annotations

from enum import Enum

from audit.games.wagering import Outcome

BUST_OVER = 21
"""A total over 21 is "over 21" in PA 681a.6(c) and 681a.7(i)-(j)."""


class Winner(Enum):
    """Which hand the round went to."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def hand_outcome(own: int, other: int) -> Outcome:
    """Return how a wager on a hand totalling ``own`` ends against a hand totalling ``other``.

    The Player Wager uses the Player's Hand as ``own`` (PA 681a.7(i)), the Banker
    Wager the Banker's Hand (681a.7(j)); the branches are the same, hand for hand.
    """
    if own == other:
        return Outcome.PUSH  # 681a.7(i)(4), (j)(4)
    if own <= BUST_OVER:
        # 681a.7(i)(1), (i)(2): 21 or less wins over a hand over 21 or a lower total.
        return Outcome.WIN if other > BUST_OVER or own > other else Outcome.LOSE
    # 681a.7(i)(3): both over 21, the lower total wins; over 21 against 21 or less loses.
    return Outcome.WIN if other > BUST_OVER and own < other else Outcome.LOSE


def winner(player_total: int, banker_total: int) -> Winner:
    """Return which hand wins the round, or a tie (PA 681a.6(c), 681a.7(i)-(j))."""
    outcome = hand_outcome(player_total, banker_total)
    if outcome is Outcome.WIN:
        return Winner.PLAYER
    return Winner.TIE if outcome is Outcome.PUSH else Winner.BANKER


def tie_outcome(player_total: int, banker_total: int) -> Outcome:
    """Return how a Tie Wager ends: it wins on equal totals and loses otherwise (681a.7(k)(1))."""
    return Outcome.WIN if player_total == banker_total else Outcome.LOSE
