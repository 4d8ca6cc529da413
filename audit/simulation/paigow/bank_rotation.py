"""Who is offered the bank, in what order, and who may take it.

PA 621a.9(b)-(d) and NJ 19:47-10.8(b)-(d): no player bank in the first round
of a game; then the bank is offered counterclockwise from the dealer's right
until someone accepts; the next round's first offer goes to the player on the
bank's right (the next counterclockwise); nobody banks two consecutive rounds;
and a bank must have wagered against the dealer in the last round nobody
banked and have the chips to cover the table. California: a player-dealer
banks every round, for at most two consecutive rounds, and the bank then goes
round the table clockwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from audit.games.money import Cents
from audit.games.paigow.layout import Position, TableLayout
from audit.simulation.frequencies import Frequencies
from audit.simulation.paigow.players import Player, Seating

Offer = tuple[Position, Player, bool]
"""A bank offer: the position it was made to, the player, and whether they accepted."""


@dataclass
class BankRotation:
    """What a table remembers about banking from round to round."""

    rounds_in_game: int = 0
    """Rounds played since the game started (PA 621a.9(b): tiles restacked and mixed)."""
    first_offer: Position = 1
    """PA/NJ: the position the next round's offers begin at (the dealer's far right first)."""
    last_bank: str | None = None
    """The player who banked the last round, if one did."""
    bank_seat: Position | None = None
    """That player's betting position: California's clockwise offers continue from it."""
    consecutive: int = 0
    """How many rounds in a row ``last_bank`` has banked."""
    last_dealer_round: dict[str, Cents] = field(default_factory=dict)
    """PA 621a.9(d)(1): each player's wager in the last round no player banked."""

    def start_game(self) -> None:
        """Start a new game: the next round is its first, and no player may bank it."""
        self.rounds_in_game = 0

    def banked_in_a_row(self, player: Player) -> int:
        """Return how many rounds in a row, up to the last, this player has banked."""
        return self.consecutive if player.player_id == self.last_bank else 0

    def record(
        self,
        bank: Player | None,
        bank_seat: Position | None,
        dealer_round_wagers: dict[str, Cents] | None,
    ) -> None:
        """Remember a finished round: who banked, and the wagers if nobody did."""
        self.rounds_in_game += 1
        if bank is None:
            self.last_bank, self.consecutive = None, 0
        else:
            self.consecutive = self.banked_in_a_row(bank) + 1
            self.last_bank, self.bank_seat = bank.player_id, bank_seat
        if dealer_round_wagers is not None:
            self.last_dealer_round = dealer_round_wagers


def _around(layout: TableLayout, start: Position, clockwise: bool) -> list[Position]:
    """Return the betting positions from ``start`` (included) round the table one way."""
    ring = layout.ring
    step = -1 if clockwise else 1
    i = ring.index(start)
    walked = [ring[(i + step * k) % len(ring)] for k in range(len(ring))]
    return [p for p in walked if p in layout.betting]


def _players_in_order(seating: Seating, positions: list[Position]) -> list[tuple[Position, Player]]:
    """Return each seated player once, at the first of their spots in ``positions``."""
    seen: set[str] = set()
    order = []
    for position in positions:
        player = seating.at(position)
        if player is not None and player.player_id not in seen:
            seen.add(player.player_id)
            order.append((position, player))
    return order


def may_bank(player: Player, rotation: BankRotation, max_consecutive: int, to_cover: Cents) -> bool:
    """Return whether the dealer may let this player bank (PA 621a.9(c), (d), (f)).

    A player on two areas keeps them rather than bank on one (9(f)), so is not
    counted as willing.
    """
    last = rotation.last_dealer_round.get(player.player_id)
    return (
        len(player.spots) == 1
        and rotation.banked_in_a_row(player) < max_consecutive
        and last is not None
        and player.chips >= to_cover + last
    )


def offer_bank(
    seating: Seating,
    layout: TableLayout,
    rotation: BankRotation,
    max_consecutive: int,
    planned: dict[Position, Cents],
    freq: Frequencies,
    rng: random.Random,
) -> list[Offer]:
    """Offer the bank counterclockwise from ``rotation.first_offer`` until a player accepts.

    ``planned`` holds the Pai Gow wager each spot means to make: a bank must
    cover everyone else's, plus the dealer's wager against it (PA 621a.9(d)(2), (h)).
    """
    offers: list[Offer] = []
    total = sum(planned.values())
    for position, player in _players_in_order(
        seating, _around(layout, rotation.first_offer, False)
    ):
        own = sum(planned.get(spot, 0) for spot in player.spots)
        willing = player.banks and may_bank(player, rotation, max_consecutive, total - own)
        accepted = willing and rng.random() < freq.accepts_bank
        offers.append((position, player, accepted))
        if accepted:
            break
    return offers


def next_first_offer(layout: TableLayout, bank_position: Position) -> Position:
    """Return where the next round's offers begin: the player on the bank's right (PA 621a.9(c))."""
    return _around(layout, bank_position, False)[1]


def player_dealer_offers(
    seating: Seating,
    layout: TableLayout,
    rotation: BankRotation,
    max_consecutive: int,
    minimum: Cents,
    freq: Frequencies,
    rng: random.Random,
) -> list[Offer]:
    """California: offer the player-dealer's bank clockwise if it must or will change hands.

    The bank moves on when nobody holds it, when its holder has left or has
    less than ``minimum`` in chips, after ``max_consecutive`` rounds, or when
    the holder passes it. It is offered clockwise from the holder's seat (from
    the player-dealer position when nobody held it). A California game cannot
    be dealt without a player-dealer, so the last player offered takes it if
    all the others pass. An empty list means the holder banks again.
    """
    holder = next((p for p in seating.players if p.player_id == rotation.last_bank), None)
    if (
        holder is not None
        and rotation.banked_in_a_row(holder) < max_consecutive
        and holder.chips >= minimum
        and rng.random() >= freq.player_dealer_passes
    ):
        return []
    start = layout.dealer if rotation.bank_seat is None else rotation.bank_seat
    clockwise = _around(layout, start, True)
    if start in clockwise:
        clockwise = clockwise[1:] + clockwise[:1]
    candidates = [(pos, p) for pos, p in _players_in_order(seating, clockwise) if p is not holder]
    offers: list[Offer] = []
    for i, (position, player) in enumerate(candidates):
        accepted = i == len(candidates) - 1 or (player.banks and rng.random() < freq.accepts_bank)
        offers.append((position, player, accepted))
        if accepted:
            break
    return offers
