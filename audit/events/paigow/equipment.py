"""Tiles and dice arriving, inspected and replaced (PA 621a.3(b), 621a.4(a), 621a.2(d)(1))."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from audit.events.envelope import PersonId, TableEvent, event

SetId = str


@event
class TileSetReceived(TableEvent):
    """A set of 32 tiles arrived at the table (PA 621a.4(a))."""

    type: Literal["tile_set_received"] = "tile_set_received"
    tile_set_id: SetId = Field(min_length=1, max_length=64)


@event
class TileSetInspected(TableEvent):
    """The dealer sorted and inspected the set and the floorperson verified it (PA 621a.4(a))."""

    type: Literal["tile_set_inspected"] = "tile_set_inspected"
    tile_set_id: SetId = Field(min_length=1, max_length=64)
    inspected_by: PersonId
    verified_by: PersonId
    suitable: bool


@event
class TileSetFoundUnsuitable(TableEvent):
    """Tiles were found unsuitable and the set sealed away (PA 621a.4(a)(3)(i)-(ii))."""

    type: Literal["tile_set_found_unsuitable"] = "tile_set_found_unsuitable"
    tile_set_id: SetId = Field(min_length=1, max_length=64)
    reason: str = Field(min_length=1, max_length=500)
    sealed_container_id: str | None = None


@event
class TileSetReplaced(TableEvent):
    """A set replaced the one in use: unsuitable tiles or the 12-hour change (PA 621a.3(b))."""

    type: Literal["tile_set_replaced"] = "tile_set_replaced"
    old_tile_set_id: SetId = Field(min_length=1, max_length=64)
    new_tile_set_id: SetId = Field(min_length=1, max_length=64)
    reason: Literal["unsuitable", "scheduled_change", "other"]


@event
class DicePlacedInShaker(TableEvent):
    """Dice were placed in the Pai Gow shaker for gaming (PA 621a.2(d)(1): 24 hours at most)."""

    type: Literal["dice_placed_in_shaker"] = "dice_placed_in_shaker"
    dice_set_id: str = Field(min_length=1, max_length=64)
    placed_by: PersonId
