"""Wagers placed, withdrawn, and the dealer's wager against a player bank."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from audit.events.envelope import Event, Money, PersonId, event
from audit.events.paigow.fields import Position


class WagerKind(Enum):
    """The wagers a Pai Gow position can hold."""

    PAI_GOW = "pai_gow"
    PAIR_FORTUNES = "pair_fortunes"  # PA 621a.8(j), 2019


@event
class WagerPlaced(Event):
    """Chips placed on a betting area (PA 621a.5). Version 2 added ``kind`` for Pair Fortunes."""

    SCHEMA_VERSION = 2

    type: Literal["wager_placed"] = "wager_placed"
    position: Position
    amount: Money
    kind: WagerKind
    player_id: PersonId | None = None


@event
class WagerWithdrawn(Event):
    """A wager taken back (PA 621a.5(c) forbids it after "no more bets")."""

    type: Literal["wager_withdrawn"] = "wager_withdrawn"
    position: Position
    amount: Money
    kind: WagerKind = WagerKind.PAI_GOW


@event
class DealerWagerAgainstBank(Event):
    """The dealer's wager against a player bank (PA 621a.9(h))."""

    type: Literal["dealer_wager_against_bank"] = "dealer_wager_against_bank"
    amount: Money
