"""How a Pai Gow wager ended against the dealer or bank (PA 621a.8(g)-(i), NJ 19:47-10.7(h)-(j))."""

from __future__ import annotations

from enum import Enum


class Outcome(Enum):
    """The result of one Pai Gow wager, from the wagering player's side."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
