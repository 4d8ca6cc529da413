"""A Pai Gow round as played: mixing, banking, the cut, dice, delivery, setting, voids.

Citations are to PA ch. 621a; the NJ and California equivalents live in the
rule sets (audit/games/paigow/rulesets.py).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from audit.events.envelope import Event, Money, PersonId, event
from audit.events.paigow.fields import Position, TileName
from audit.games.paigow.dealing import Cut
from audit.games.paigow.delivery import DeliveryStyle

Reason = Annotated[str, Field(min_length=1, max_length=500)]
Hand = Annotated[list[TileName], Field(min_length=2, max_length=2)]


@event
class TilesMixed(Event):
    """The dealer mixed the tiles face down (PA 621a.4(d): at least eight circular motions)."""

    type: Literal["tiles_mixed"] = "tiles_mixed"
    motions: int | None = Field(default=None, ge=0)


@event
class StacksFormed(Event):
    """Eight stacks of four were formed (PA 621a.4(d)).

    ``stacks``, when the table's recording device reports them, lists the 32
    tiles stack by stack from the dealer's right, each stack top tile first. A
    tile seen twice is recorded as seen and flagged later, never refused here.
    """

    type: Literal["stacks_formed"] = "stacks_formed"
    stacks: list[Annotated[list[TileName], Field(min_length=4, max_length=4)]] | None = Field(
        default=None, min_length=8, max_length=8
    )


@event
class StackingTileExposed(Event):
    """A tile was turned over while stacking (PA 621a.4(e): the set must be remixed)."""

    type: Literal["stacking_tile_exposed"] = "stacking_tile_exposed"
    tile: TileName | None = None


@event
class TilesRemixed(Event):
    """The whole set was remixed."""

    type: Literal["tiles_remixed"] = "tiles_remixed"
    reason: Reason


@event
class BankOffered(Event):
    """The dealer offered the bank to a player (PA 621a.9(c))."""

    type: Literal["bank_offered"] = "bank_offered"
    position: Position


@event
class BankDeclined(Event):
    """A player passed the bank (PA 621a.9(c))."""

    type: Literal["bank_declined"] = "bank_declined"
    position: Position


@event
class BankAccepted(Event):
    """A player accepted the bank (PA 621a.9(c)), with the chips the dealer saw (9(d)(2))."""

    type: Literal["bank_accepted"] = "bank_accepted"
    position: Position
    player_id: PersonId | None = None
    chips_on_table: Money | None = None


@event
class CoBankRequested(Event):
    """The bank asked the house to co-bank 50/50 (PA 621a.9(e))."""

    type: Literal["co_bank_requested"] = "co_bank_requested"
    position: Position


@event
class TilesCut(Event):
    """The bank's cut (PA 621a.9(g)): stacks ``start`` to ``stop`` moved, ``to_right`` rightward."""

    type: Literal["tiles_cut"] = "tiles_cut"
    start: int = Field(ge=0, le=7)
    stop: int = Field(ge=1, le=8)
    to_right: int = Field(ge=0, le=8)
    crossed: bool = False

    def cut(self) -> Cut:
        """Return the engine's value for this cut (raises if the cut is not one 9(g) allows)."""
        return Cut(self.start, self.stop, self.to_right, self.crossed)


@event
class NoMoreBets(Event):
    """The dealer announced "no more bets" (PA 621a.5(c), 621a.6(a))."""

    type: Literal["no_more_bets"] = "no_more_bets"


@event
class ShakerShaken(Event):
    """The shaker was shaken (PA 621a.6(a)(2): at least three times)."""

    type: Literal["shaker_shaken"] = "shaker_shaken"
    count: int = Field(ge=1, le=100)
    shaken_by: Literal["dealer", "bank"] = "dealer"


@event
class DiceRevealed(Event):
    """The shaker's lid came off and three dice were read (PA 621a.6(b))."""

    type: Literal["dice_revealed"] = "dice_revealed"
    faces: tuple[int, int, int]
    all_flat: bool = Field(default=True, description="All three landed flat (PA 621a.10(a)).")
    all_in_shaker: bool = Field(default=True, description="None fell out (PA 621a.10(b)).")
    announced_total: int | None = Field(default=None, ge=0, le=99)

    @field_validator("faces")
    @classmethod
    def _faces(cls, faces: tuple[int, int, int]) -> tuple[int, int, int]:
        for face in faces:
            if not 1 <= face <= 6:
                raise ValueError(f"a die shows 1 to 6, not {face!r}")
        return faces


@event
class RngNumberShown(Event):
    """The random number generator displayed the count (PA 621a.6(a)(1))."""

    type: Literal["rng_number_shown"] = "rng_number_shown"
    number: int = Field(ge=1, le=999)


@event
class NoRollCalled(Event):
    """The dealer called a no roll and the dice were reshaken (PA 621a.10(a), (b); 621a.9(i))."""

    type: Literal["no_roll_called"] = "no_roll_called"
    reason: Literal["not_flat", "fell_out", "lid_removed_by_bank", "other"]


@event
class DeliveryStyleChosen(Event):
    """The delivery style in force for this round (PA 621a.7, 621a.9(i))."""

    type: Literal["delivery_style_chosen"] = "delivery_style_chosen"
    style: DeliveryStyle
    chosen_by: Literal["dealer", "bank"] = "dealer"


@event
class StackDelivered(Event):
    """Four tiles delivered to a position (PA 621a.6(d)); ``order`` 0 is the starting position."""

    type: Literal["stack_delivered"] = "stack_delivered"
    position: Position
    order: int = Field(ge=0, le=7)
    tiles: Annotated[list[TileName], Field(min_length=4, max_length=4)]


@event
class UnwageredStacksCollected(Event):
    """Stacks dealt to positions without a wager went to the Dead Hand unseen (PA 621a.6(e))."""

    type: Literal["unwagered_stacks_collected"] = "unwagered_stacks_collected"
    positions: list[Position]


@event
class TileExposed(Event):
    """A tile was exposed during the deal (PA 621a.10(d), (e))."""

    type: Literal["tile_exposed"] = "tile_exposed"
    position: Position
    tile: TileName | None = None


@event
class HandVoided(Event):
    """A player voided a hand after one of its tiles was exposed (PA 621a.10(d))."""

    type: Literal["hand_voided"] = "hand_voided"
    position: Position


@event
class HandSet(Event):
    """A hand was set into high and low (PA 621a.8(a)-(d)); recorded as placed, never reordered."""

    type: Literal["hand_set"] = "hand_set"
    position: Position
    high: Hand
    low: Hand
    set_by: Literal["player", "dealer", "house_way_on_request"] = "player"


@event
class Surrendered(Event):
    """A player surrendered the Pai Gow wager (PA 621a.8(e))."""

    type: Literal["surrendered"] = "surrendered"
    position: Position


@event
class HandsRevealed(Event):
    """A position's hands were exposed for comparison (PA 621a.8(f))."""

    type: Literal["hands_revealed"] = "hands_revealed"
    position: Position


@event
class RoundVoided(Event):
    """Every hand void and every wager returned (PA 621a.10(c), (e))."""

    type: Literal["round_voided"] = "round_voided"
    reason: Literal["wrong_deal", "banker_tile_exposed", "other"]
    detail: str | None = Field(default=None, max_length=500)
