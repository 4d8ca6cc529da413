"""Money moving at the end of a round: payouts, vigorish, bank flows, collection fees.

Every amount is what was observed to move, in dollars; verification compares
it with what the rules engine says should have moved.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import Field

from audit.events.envelope import Event, Money, event
from audit.events.paigow.fields import Position
from audit.events.paigow.wagers import WagerKind

_ZERO = Decimal("0.00")


@event
class WagerSettled(Event):
    """A wager was paid, collected or returned (PA 621a.8(g)-(k), 621a.9(o)-(q))."""

    type: Literal["wager_settled"] = "wager_settled"
    position: Position
    kind: WagerKind = WagerKind.PAI_GOW
    outcome: Literal["win", "push", "lose", "surrendered", "returned"]
    paid: Money = Field(default=_ZERO, description="Paid to the player.")
    collected: Money = Field(default=_ZERO, description="Taken from the player's wager.")
    vigorish: Money = Field(default=_ZERO, description="Vigorish taken from the player.")
    returned: Money = Field(default=_ZERO, description="Wager handed back unsettled.")


@event
class DealerWagerSettled(Event):
    """The dealer's wager against the bank was settled (PA 621a.9(n), (p))."""

    type: Literal["dealer_wager_settled"] = "dealer_wager_settled"
    outcome: Literal["win", "push", "lose"]
    amount: Money = Field(description="What the house won or lost on it (0 on a push).")


@event
class BankShortfallCollected(Event):
    """The centre ran out and the bank paid in the rest (PA 621a.9(o))."""

    type: Literal["bank_shortfall_collected"] = "bank_shortfall_collected"
    amount: Money


@event
class BankSurplusSettled(Event):
    """A surplus in the centre: 5% vigorish, the rest to the bank (PA 621a.9(o))."""

    type: Literal["bank_surplus_settled"] = "bank_surplus_settled"
    surplus: Money
    vigorish: Money
    paid_to_bank: Money


@event
class CoBankSplit(Event):
    """The house's half of a co-banked round (PA 621a.9(r))."""

    type: Literal["co_bank_split"] = "co_bank_split"
    shortfall_from_co_bank: Money = _ZERO
    shortfall_from_house: Money = _ZERO
    surplus_to_house: Money = _ZERO
    surplus_vigorish: Money = _ZERO
    surplus_to_co_bank: Money = _ZERO


@event
class CollectionFeeTaken(Event):
    """A California collection fee went to the house (CA Collection Rates Schedule)."""

    type: Literal["collection_fee_taken"] = "collection_fee_taken"
    position: Position = Field(description="0 for the player-dealer's per-round fee.")
    amount: Money
    schedule_option: int = Field(ge=1, le=10)
