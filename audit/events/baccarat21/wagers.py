"""21 Baccarat wagers placed and settled (PA 681a.6, 681a.7(h)-(k), 681a.8).

Every wager is against the house. Amounts are what was observed to move, in
dollars; verification compares them with what the rules engine settles.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import Field

from audit.events.baccarat21.fields import Seat
from audit.events.envelope import Event, Money, PersonId, event
from audit.games.baccarat21.settlement import Bet

_ZERO = Decimal("0.00")


@event
class B21WagerPlaced(Event):
    """Chips placed on one of a position's five betting areas (PA 681a.2(b)(2)-(6), 681a.6)."""

    type: Literal["b21_wager_placed"] = "b21_wager_placed"
    position: Seat
    bet: Bet
    amount: Money
    player_id: PersonId | None = None


@event
class B21WagerRemoved(Event):
    """Chips taken back off a betting area before the wager was settled (PA 681a.6(b): a player
    "may not handle, remove or alter any wagers that have been made until a decision has been
    rendered and implemented"). Recorded as seen, never refused; verification judges it."""

    type: Literal["b21_wager_removed"] = "b21_wager_removed"
    position: Seat
    bet: Bet
    amount: Money = Field(description="The chips taken back.")
    player_id: PersonId | None = None


@event
class B21WagerSettled(Event):
    """A wager was paid, collected or returned (PA 681a.7(h)-(k), 681a.8).

    A winner keeps the wager and is ``paid`` on top; a loser's wager is ``collected``;
    a tie returns a Player or Banker Wager (``push``); a voided round ``returned``.
    """

    type: Literal["b21_wager_settled"] = "b21_wager_settled"
    position: Seat
    bet: Bet
    outcome: Literal["win", "lose", "push", "returned"]
    paid: Money = Field(default=_ZERO, description="Paid to the player.")
    collected: Money = Field(default=_ZERO, description="Taken from the player's wager.")
    returned: Money = Field(default=_ZERO, description="Wager handed back.")
