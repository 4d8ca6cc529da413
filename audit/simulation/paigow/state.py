"""The state of one simulated round: the table, and every decision made so far.

Steps (see :mod:`audit.simulation.paigow.round`) read it, extend it and emit
events through it; nothing else carries a round from one step to the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from audit.events.envelope import Event
from audit.games.money import Cents
from audit.games.paigow.dealing import Cut
from audit.games.paigow.delivery import DEFAULT_STYLE, DeliveryStyle, Stacks
from audit.games.paigow.layout import NumberSource, Position, TableLayout, settlement_order
from audit.games.paigow.outcome import wager_outcome
from audit.games.paigow.pair_fortunes import PairFortunesResult
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import BankingMode, RoundSettlement
from audit.games.paigow.tiles import TILE_NAMES, Tile
from audit.games.paigow.vigorish import VigRounding
from audit.games.wagering import Outcome
from audit.simulation.frequencies import Frequencies
from audit.simulation.paigow.dealer import RULES, Dealer
from audit.simulation.paigow.players import Player
from audit.simulation.paigow.table import SimTable

Step = Callable[["RoundState"], None]
"""One step of a round: it reads and extends the state and emits events."""

BANKED_MODES = (BankingMode.PLAYER_BANK, BankingMode.CO_BANK)
"""Rounds a player banks at a PA/NJ table, counting from and cutting for the bank."""


def tile_names(tiles: Sequence[Tile]) -> list[str]:
    """Return the tiles' names, e.g. ``['6-6a', '4-5']``."""
    return [TILE_NAMES[t] for t in tiles]


@dataclass
class RoundState:
    """One round in progress: the table, and every decision made so far."""

    table: SimTable
    round_id: str
    number: int
    stacks: Stacks = ()
    planned: dict[Position, Cents] = field(default_factory=dict)
    """The Pai Gow wager each occupied spot means to make, before the bank is chosen."""
    mode: BankingMode = BankingMode.DEALER
    bank: Player | None = None
    """The player banking (PA/NJ) or the California player-dealer."""
    bank_seat: Position | None = None
    """The bank's own betting position: where it was offered the bank."""
    cut: Cut | None = None
    wagers: dict[Position, Cents] = field(default_factory=dict)
    """Players' Pai Gow wagers by position (California's player-dealer wager apart)."""
    pair_fortunes: dict[Position, Cents] = field(default_factory=dict)
    player_dealer_wager: Cents = 0
    dealer_wager: Cents = 0
    """The dealer's wager against a player bank (PA 621a.9(h)); 0 for none."""
    source: NumberSource = "dice"
    count: int = 0
    """The dice total or the RNG's number."""
    style: DeliveryStyle = DEFAULT_STYLE
    style_named: bool = False
    start: Position = 0
    button: Position | None = None
    hands: dict[Position, tuple[Tile, ...]] = field(default_factory=dict)
    """The four tiles delivered to each position, in the order they were delivered."""
    settings: dict[Position, Setting] = field(default_factory=dict)
    surrendered: list[Position] = field(default_factory=list)
    voided: bool = False
    settlement: RoundSettlement | None = None
    side_results: dict[Position, PairFortunesResult] = field(default_factory=dict)
    dealer: Dealer = RULES
    """Who deals the round: the rules' dealer, or a careless one overriding a hook."""

    @property
    def rng(self) -> random.Random:
        """Return the table's random generator."""
        return self.table.rng

    @property
    def rule_set(self) -> RuleSet:
        """Return the table's rule set, with its options applied."""
        return self.table.rule_set

    @property
    def layout(self) -> TableLayout:
        """Return the table's layout."""
        return self.table.rule_set.layout

    @property
    def freq(self) -> Frequencies:
        """Return the simulation's rates."""
        return self.table.freq

    @property
    def banker_position(self) -> Position:
        """Return the position whose hand the players play against."""
        if self.mode in BANKED_MODES and self.bank_seat is not None:
            return self.bank_seat
        return self.layout.dealer

    @property
    def dealer_plays(self) -> bool:
        """Return whether the dealer's position plays a hand this round (PA 621a.9(h), (n))."""
        return self.mode not in BANKED_MODES or self.dealer_wager > 0

    @property
    def vig_rounding(self) -> VigRounding:
        """Return the table's vigorish rounding (PA/NJ tables only)."""
        rounding = self.rule_set.vig_rounding
        if rounding is None:
            raise ValueError(f"rule set {self.rule_set.name!r} charges no vigorish")
        return rounding

    def order(self) -> list[Position]:
        """Return the positions with a Pai Gow wager, in settlement order."""
        return [p for p in settlement_order(self.layout, self.button) if p in self.wagers]

    def player(self, position: Position) -> Player:
        """Return the player on a betting position."""
        player = self.table.seating.at(position)
        if player is None:
            raise ValueError(f"nobody sits at position {position!r}")
        return player

    def outcome(self, position: Position) -> Outcome:
        """Return how the Pai Gow wager at ``position`` fares against the banker's hand."""
        banker = self.settings[self.banker_position]
        return wager_outcome(self.settings[position], banker, self.rule_set.ranking)

    def emit(self, event_type: type[Event], seconds: tuple[float, float], **fields: Any) -> None:
        """Record a round event, ``seconds`` after the previous one, by the dealer."""
        self.table.recorder.emit(event_type, seconds, self.table.dealer_id, self.round_id, **fields)
