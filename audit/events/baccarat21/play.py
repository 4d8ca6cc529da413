"""A 21 Baccarat round's cards, and a round voided (PA 681a.7(e)-(g)).

A round opens with the shared ``round_started`` and ends with the shared
``round_completed`` (audit/events/paigow/play.py holds both; neither carries
anything of one game's).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from audit.events.baccarat21.fields import CardName
from audit.events.envelope import Event, event
from audit.games.baccarat21.drawing import Hand


@event
class B21CardDealt(Event):
    """One card out of the shoe to the Player's or Banker's Hand, in the order dealt
    (PA 681a.7(e)-(g)); recorded as dealt, never reordered."""

    type: Literal["b21_card_dealt"] = "b21_card_dealt"
    card: CardName
    hand: Hand
    bonus_only: bool | None = Field(
        default=None,
        description="Dealt after a natural for the Bonus Wager only (PA 681a.7(f)(2)); "
        "optional: absent when the device does not say.",
    )


@event
class B21RoundVoided(Event):
    """The round was called off before settlement; every wager is to be returned."""

    type: Literal["b21_round_voided"] = "b21_round_voided"
    reason: Literal["misdeal", "shuffler_malfunction", "floorperson", "other"]
    detail: str | None = Field(default=None, max_length=500)
