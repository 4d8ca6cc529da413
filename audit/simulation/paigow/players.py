"""Simulated players: who sits where, what they wager, and how they set their tiles.

A player is mutable state (their chips move round by round), kept apart from
the events: the round steps read a player's decisions and emit what was seen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from audit.games.money import Cents
from audit.games.paigow.layout import Position
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting, settings_for
from audit.games.paigow.tiles import Tile
from audit.simulation.frequencies import Frequencies

DOLLAR: Cents = 100
RESERVE: Cents = 10 * DOLLAR
"""Chips a player keeps back beyond the wagers, for vigorish or a collection fee."""

SetBy = str
"""Who placed a setting, as ``hand_set.set_by`` records it."""

_STAKE_STEPS = (1, 1, 1, 1, 2, 2, 3, 5)
"""Multiples of a player's usual unit, as often as a player bets each."""
_UNITS = (1, 1, 1, 2, 2, 4, 10)
"""A new player's usual unit, in table minimums."""


@dataclass(frozen=True)
class TableLimits:
    """A table's wagering limits, in cents (whole dollars)."""

    minimum: Cents
    maximum: Cents
    pair_fortunes_minimum: Cents = 5 * DOLLAR
    pair_fortunes_maximum: Cents = 100 * DOLLAR


@dataclass
class Player:
    """A seated player: the spots they play and the chips in front of them."""

    player_id: str
    spots: tuple[Position, ...]
    """One betting area, or two adjacent ones (PA 621a.5(d), NJ 19:47-10.10)."""
    chips: Cents
    unit: Cents
    """The Pai Gow wager the player usually makes on each spot."""
    pair_fortunes: Cents
    """The usual Pair Fortunes wager, 0 for a player who never makes it."""
    banks: bool
    """Whether the player ever takes the bank."""


@dataclass
class Seating:
    """The players at one table, each on their spots."""

    players: list[Player] = field(default_factory=list)
    arrivals: int = 0
    """Players who have sat down so far: numbers the next player's id."""

    def at(self, position: Position) -> Player | None:
        """Return the player on a betting position, or None."""
        for player in self.players:
            if position in player.spots:
                return player
        return None

    def spots(self) -> dict[Position, Player]:
        """Return every occupied betting position and its player, in position order."""
        return dict(sorted((spot, p) for p in self.players for spot in p.spots))

    def free(self, betting: tuple[Position, ...]) -> list[Position]:
        """Return the betting positions nobody occupies."""
        taken = self.spots()
        return [p for p in betting if p not in taken]


def whole_dollars(cents: Cents) -> Cents:
    """Return cents rounded down to whole dollars."""
    return cents - cents % DOLLAR


def seat_player(
    seating: Seating,
    table_number: int,
    rule_set: RuleSet,
    limits: TableLimits,
    freq: Frequencies,
    rng: random.Random,
) -> Player | None:
    """Sit a new player on a free spot (two adjacent ones, sometimes); None if the table is full."""
    free = seating.free(rule_set.layout.betting)
    if not free:
        return None
    spots: tuple[Position, ...] = (rng.choice(free),)
    pairs = [(p, p + 1) for p in free if p + 1 in free]
    if rule_set.adjacent_spots and pairs and rng.random() < freq.two_spots:
        spots = rng.choice(pairs)
    unit = min(limits.minimum * rng.choice(_UNITS), limits.maximum)
    side = 0
    if rule_set.pair_fortunes is not None and rng.random() < freq.pair_fortunes_player:
        side = rng.choice((5, 5, 10, 25)) * DOLLAR
    seating.arrivals += 1
    player = Player(
        player_id=f"player-{table_number:02d}-{seating.arrivals:03d}",
        spots=spots,
        chips=unit * len(spots) * rng.randint(8, 40),
        unit=unit,
        pair_fortunes=side,
        banks=rng.random() < freq.potential_banker,
    )
    seating.players.append(player)
    return player


def can_play(player: Player, limits: TableLimits) -> bool:
    """Return whether the player has the chips for the minimum on each spot, and a margin."""
    return player.chips >= limits.minimum * len(player.spots) + RESERVE


def refresh_seating(
    seating: Seating,
    table_number: int,
    rule_set: RuleSet,
    limits: TableLimits,
    freq: Frequencies,
    rng: random.Random,
    fewest: int = 1,
) -> None:
    """Between rounds: the broke and the tired leave, newcomers sit down.

    ``fewest`` is the number of players the table keeps seated.
    """
    staying = [
        p for p in seating.players if can_play(p, limits) and rng.random() >= freq.player_leaves
    ]
    seating.players[:] = staying
    if rng.random() < freq.player_arrives:
        seat_player(seating, table_number, rule_set, limits, freq, rng)
    while len(seating.players) < fewest:
        if seat_player(seating, table_number, rule_set, limits, freq, rng) is None:
            break


def pai_gow_wager(player: Player, limits: TableLimits, rng: random.Random) -> Cents:
    """Return the player's Pai Gow wager on one spot this round: whole dollars within limits."""
    wanted = player.unit * rng.choice(_STAKE_STEPS)
    affordable = whole_dollars(player.chips // len(player.spots) - RESERVE)
    return max(limits.minimum, min(wanted, limits.maximum, affordable))


def pair_fortunes_wager(player: Player, limits: TableLimits) -> Cents:
    """Return the player's Pair Fortunes wager this round, 0 for none."""
    if player.pair_fortunes == 0:
        return 0
    return max(
        limits.pair_fortunes_minimum, min(player.pair_fortunes, limits.pair_fortunes_maximum)
    )


def choose_setting(
    tiles: tuple[Tile, ...], rule_set: RuleSet, freq: Frequencies, rng: random.Random
) -> tuple[Setting, SetBy]:
    """Return how a player sets four tiles: the house way mostly, else any valid setting.

    A player's own choice is one of the three correctly ordered settings
    (PA 621a.8(a)); it may happen to be the house way.
    """
    draw = rng.random()
    if draw < freq.own_setting:
        return rng.choice(settings_for(tiles, rule_set.ranking)), "player"
    setting = rule_set.house_way.setting(tiles, rule_set.ranking)
    if draw < freq.own_setting + freq.asks_house_way:
        return setting, "house_way_on_request"  # PA 621a.8(b): the dealer tells the house way
    return setting, "player"
