"""How often the simulated casino does each optional or rare thing, as one frozen value.

Every rate is a probability from 0 to 1 that the simulation draws against with
the table's own random generator. The defaults describe an ordinary floor: most
rounds are clean and dealer-banked, and each irregular-looking but lawful event
(a no roll, a surrender, a co-bank, a voided round) turns up a few times a shift.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


class InvalidFrequencyError(ValueError):
    """Raised for a rate that is not a probability."""


@dataclass(frozen=True)
class Frequencies:
    """The simulation's rates; the docstring of each field says what it is the chance of."""

    # Between rounds, once per round.
    dealer_change: float = 0.03
    """A relief dealer takes over the table."""
    tile_set_change: float = 0.01
    """The tile set is replaced."""
    tile_set_unsuitable: float = 0.6
    """A replacement is forced by a damaged tile rather than the house's schedule."""
    dice_change: float = 0.01
    """Fresh dice go into the shaker."""
    player_leaves: float = 0.03
    """A seated player leaves (players who cannot make the minimum always leave)."""
    player_arrives: float = 0.15
    """A new player sits down at a free spot."""

    # Players, drawn once when a player sits down.
    two_spots: float = 0.12
    """The player wagers on two adjacent betting areas, where the rule set allows it."""
    pair_fortunes_player: float = 0.35
    """The player makes the Pair Fortunes wager each round, where the rule set has it."""
    potential_banker: float = 0.4
    """The player ever takes the bank when offered."""

    # Banking, per offer or per banked round.
    accepts_bank: float = 0.2
    """An eligible potential banker accepts the bank when it is offered."""
    co_bank: float = 0.4
    """A bank asks the house to co-bank, where the rule set allows it."""
    bank_cuts: float = 0.6
    """A bank cuts the stacks."""
    dealer_wager_full: float = 0.65
    """The bank lets the dealer wager the bank's whole last wager against the dealer."""
    dealer_wager_none: float = 0.15
    """The bank directs the dealer to place no wager (otherwise a lesser amount)."""
    player_dealer_passes: float = 0.3
    """A California player-dealer gives the bank up after one round instead of two."""

    # Tables, drawn once at opening.
    rng_table: float = 0.3
    """A table whose rule set allows it counts with a random number generator (dealer rounds)."""
    quarter_vig_table: float = 0.25
    """A table rounds vigorish up to 25 cents, where the rule set allows it."""

    # Rounds.
    no_roll: float = 0.03
    """A throw of the dice is a no roll (a die not flat or out of the shaker)."""
    dealer_tile_exposed: float = 0.004
    """A dealer-banked round is voided because a dealer's tile was exposed in the deal."""
    dealer_alternative_style: float = 0.25
    """The dealer delivers in an alternative style, where the rule set lets the dealer choose."""
    bank_alternative_style: float = 0.6
    """A bank names an alternative delivery style."""
    own_setting: float = 0.2
    """A player sets the hand their own way (any valid setting) instead of the house way."""
    asks_house_way: float = 0.15
    """A player asks the dealer to set the hand the house way."""
    surrender_losing_hand: float = 0.1
    """A player whose hand would lose surrenders it, where the rule set has surrender."""

    def __post_init__(self) -> None:
        for rate in fields(self):
            value = getattr(self, rate.name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
                raise InvalidFrequencyError(f"{rate.name} must be a probability: {value!r}")
