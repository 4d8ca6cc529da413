"""Careless-dealer irregularities of the tiles: a tile switched in, duplicated, or a tampered set
(PA 621a.3(a), 621a.8(a)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from audit.events.envelope import Event
from audit.events.paigow.play import HandSet, StackDelivered
from audit.games.paigow.delivery import Stacks
from audit.games.paigow.layout import Position
from audit.games.paigow.tiles import TILE_NAMES, Tile
from audit.simulation.paigow.careless.plan import Expect, Plan, Preview, chosen, cites, round_events
from audit.simulation.paigow.state import RoundState


def _never_set(round_: RoundState) -> list[Position]:
    """Positions dealt a stack no one sets: the Dead Hand and the unwagered."""
    return sorted(p for p in round_.hands if p not in round_.settings)


def _switch(tiles: Sequence[Tile], out: Tile, into: Tile) -> tuple[Tile, ...]:
    return tuple(into if tile == out else tile for tile in tiles)


class TileSwitched(Plan):
    """A player's hand is set with a tile from a stack no one plays, in place of one of its own
    (PA 621a.8(a))."""

    name = "tile_switched"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return bool(round_.wagers and _never_set(round_)) and cites(round_, "player-setting")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position: Position = chosen(rng, round_.wagers)
        into = chosen(rng, round_.hands[chosen(rng, _never_set(round_))])
        hand = round_.hands[self.position]
        self.tiles = _switch(hand, chosen(rng, hand), into)

    def tiles_for(self, position: Position, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        return self.tiles if position == self.position else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-TILE-HAND-MISMATCH", self.position)]


class TileDuplicated(Plan):
    """A player's hand is set with a copy of a tile another player holds (PA 621a.3(a), 8(a))."""

    name = "tile_duplicated"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return len(round_.wagers) >= 2 and cites(round_, "player-setting")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position, holder = rng.sample(sorted(round_.wagers), 2)
        hand = round_.hands[self.position]
        self.tiles = _switch(hand, chosen(rng, hand), chosen(rng, round_.hands[holder]))
        self.holder: Position = holder

    def tiles_for(self, position: Position, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        return self.tiles if position == self.position else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        # The duplicate is reported at whichever of the two hands was set later.
        hands = [
            e
            for e in round_events(round_, events)
            if isinstance(e, HandSet) and e.position in (self.position, self.holder)
        ]
        later = max(hands, key=lambda e: e.seq).position
        return [
            Expect("PG-TILE-DUPLICATE", later),
            Expect("PG-TILE-HAND-MISMATCH", self.position),
        ]


class TileSetTampered(Plan):
    """A copy of one tile replaces another in the set: the stacks hold one tile twice and miss
    one (PA 621a.3(a)); the copy lands in a stack no one plays."""

    name = "tile_set_tampered"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return bool(_never_set(round_) and round_.settings) and cites(round_, "tile-set")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.at: Position = chosen(rng, _never_set(round_))
        self.missing: Tile = chosen(rng, round_.hands[self.at])
        self.copy: Tile = chosen(rng, round_.hands[chosen(rng, round_.settings)])

    def shown_stacks(self, stacks: Stacks) -> Stacks:
        return tuple(_switch(stack, self.missing, self.copy) for stack in stacks)

    def shown_stack(self, position: Position, tiles: Sequence[Tile]) -> Sequence[Tile]:
        return _switch(tiles, self.missing, self.copy) if position == self.at else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-TILE-DUPLICATE", self._later(round_, events)), Expect("PG-TILE-MISSING")]

    def _later(self, round_: RoundState, events: Sequence[Event]) -> Position:
        name = TILE_NAMES[self.copy]
        holders = [
            e.position
            for e in round_events(round_, events)
            if isinstance(e, StackDelivered) and name in e.tiles
        ]
        return holders[-1]
