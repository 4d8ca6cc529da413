"""One simulated 21 Baccarat table: its rules and limits, its players, its shoe, its recorder.

A :class:`B21Table` holds what :class:`~audit.simulation.accounting.TableBooks` reads
from any simulated table (``game``, ``table_id``, ``number``, ``rng``, ``emit``,
``floorperson``, ``dealer_id``, ``gaming_day``, ``seating.players``), and the
shoe a round deals from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from audit.events.envelope import Event
from audit.games.baccarat21.bonus import BONUS_PAYTABLES
from audit.games.baccarat21.rulesets import PA_681A, RuleSet
from audit.games.baccarat21.settlement import Bet
from audit.games.baccarat21.shoe import Shoe
from audit.games.money import Cents
from audit.simulation.frequencies import Frequencies
from audit.simulation.recorder import Recorder

if TYPE_CHECKING:
    from audit.simulation.accounting import TableBooks
    from audit.simulation.shift import ShiftConfig

EventT = TypeVar("EventT", bound=Event)

DOLLAR: Cents = 100
SEATS: tuple[int, ...] = tuple(range(1, 9))
"""PA 681a.2(a): "betting positions for no more than eight players"."""
_OPENING_SPREAD = 600.0
"""Tables open within this many seconds of the shift's start (as the Pai Gow tables do)."""


@dataclass(frozen=True)
class B21Rates:
    """How often 21 Baccarat's players and dealers do each optional or rare thing."""

    four_decks: float = 0.4
    """A table deals four decks rather than eight (PA 681a.3(a))."""
    automated_shuffler: float = 0.5
    """A table shuffles with an automated shuffler, alternating two batches (681a.3(b))."""
    prefers_banker: float = 0.55
    """A new player's main wager is on the Banker's Hand rather than the Player's."""
    tie_player: float = 0.15
    """A new player makes the Tie Wager each round (681a.6(d)(1))."""
    bonus_player: float = 0.3
    """A new player makes a Bonus Wager each round, on the hand they back (681a.6(d)(2)-(3))."""
    player_cuts: float = 0.7
    """A player accepts the cut when the dealer offers it (681a.5(b))."""
    face_up_card: float = 0.0005
    """A card drawn from the shoe is found face up (681a.9(a)); the dealer discards it."""
    floorperson_reshuffle: float = 0.002
    """A floorperson orders a reshuffle after a round (681a.5(f))."""


@dataclass
class B21Player:
    """A seated player: one betting position, the chips in front of them, and their habits."""

    player_id: str
    spots: tuple[int, ...]
    """The one betting position (a tuple, as the books read every game's players)."""
    chips: Cents
    unit: Cents
    """The usual main wager."""
    backs: Bet
    """Bet.PLAYER or Bet.BANKER: the hand the player usually backs."""
    tie: Cents
    """The usual Tie Wager, 0 for none."""
    bonus: Cents
    """The usual Bonus Wager on the backed hand, 0 for none."""

    @property
    def seat(self) -> int:
        """Return the player's betting position."""
        return self.spots[0]


@dataclass
class B21Seating:
    """The players at the table."""

    players: list[B21Player] = field(default_factory=list)
    arrivals: int = 0

    def free(self) -> list[int]:
        """Return the betting positions nobody occupies."""
        taken = {p.seat for p in self.players}
        return [seat for seat in SEATS if seat not in taken]


@dataclass
class B21Table:
    """Everything one simulated 21 Baccarat table holds between its events."""

    game: ClassVar[str] = "baccarat21"

    number: int
    table_id: str
    rule_set: RuleSet
    options: dict[str, str]
    """Table options as ``table_opened`` records them (applied to ``rule_set`` already)."""
    minimum: Cents
    maximum: Cents
    freq: Frequencies
    rates: B21Rates
    rng: random.Random
    recorder: Recorder
    gaming_day: date
    dealers: tuple[str, ...]
    floorperson: str
    dealer_id: str = ""
    seating: B21Seating = field(default_factory=B21Seating)
    rounds: int = 0
    """Rounds started this gaming day: the next round's number is one more."""
    books: TableBooks | None = None
    shoe: Shoe | None = None
    out: int = 0
    """Cards taken from the shoe so far, the burn included."""
    batch: int = 1
    """The batch in the shoe; the first shoe of the day is batch 0."""
    cover_out: bool = False
    """The cover card came out: reshuffle once the round is completed (681a.7(d))."""
    burn_due: bool = False
    """A new dealer must burn a card before dealing (681a.7(c))."""
    new_decks: set[int] = field(default_factory=lambda: {0, 1})
    """The batches whose next shuffle opens new decks (681a.3(c)): each, on its first use."""

    def emit(
        self,
        event_type: type[EventT],
        seconds: tuple[float, float],
        recorded_by: str | None = None,
        **fields: Any,
    ) -> EventT:
        """Record a table-level event, by the dealer unless ``recorded_by`` says otherwise."""
        return self.recorder.emit(event_type, seconds, recorded_by or self.dealer_id, **fields)

    def emit_round(
        self, event_type: type[EventT], seconds: tuple[float, float], round_id: str, **fields: Any
    ) -> EventT:
        """Record an event of the round ``round_id``, by the dealer."""
        return self.recorder.emit(event_type, seconds, self.dealer_id, round_id, **fields)


def _rules(rng: random.Random, rates: B21Rates) -> tuple[RuleSet, dict[str, str]]:
    decks = 4 if rng.random() < rates.four_decks else 8
    letter = rng.choice([t.letter for t in BONUS_PAYTABLES.values() if t.decks == decks])
    batches = rng.random() < rates.automated_shuffler
    options = {"decks": str(decks), "paytable": letter, "batches": str(batches).lower()}
    return PA_681A.with_options(decks=decks, paytable=letter, batches=batches), options


def set_up_baccarat_table(
    number: int, config: ShiftConfig, rng: random.Random, rates: B21Rates | None = None
) -> B21Table:
    """Return table ``B21-NN``: PA 681a with decks, paytable and shuffler drawn from ``rng``."""
    rates = rates or B21Rates()
    rule_set, options = _rules(rng, rates)
    minimum = rng.choice((10, 25, 25, 50, 100)) * DOLLAR
    table_id = f"B21-{number:02d}"
    opens = config.start + timedelta(seconds=rng.uniform(0, _OPENING_SPREAD))
    return B21Table(
        number=number,
        table_id=table_id,
        rule_set=rule_set,
        options=options,
        minimum=minimum,
        maximum=min(minimum * 200, 10_000 * DOLLAR),
        freq=config.frequencies,
        rates=rates,
        rng=rng,
        recorder=Recorder(table_id, rng, opens.astimezone(UTC)),
        gaming_day=config.day,
        dealers=tuple(f"dealer-b{number:02d}{k}" for k in range(1, 4)),
        floorperson=f"floor-{(number - 1) // 4 + 1:02d}",
    )


def seat_player(table: B21Table) -> B21Player | None:
    """Sit a new player on a free betting position; None if the table is full."""
    free = table.seating.free()
    if not free:
        return None
    rng, rates = table.rng, table.rates
    unit = min(table.minimum * rng.choice((1, 1, 1, 2, 2, 4, 10)), table.maximum)
    table.seating.arrivals += 1
    player = B21Player(
        player_id=f"player-b{table.number:02d}-{table.seating.arrivals:03d}",
        spots=(rng.choice(free),),
        chips=unit * rng.randint(8, 40),
        unit=unit,
        backs=Bet.BANKER if rng.random() < rates.prefers_banker else Bet.PLAYER,
        tie=rng.choice((5, 10, 25)) * DOLLAR if rng.random() < rates.tie_player else 0,
        bonus=rng.choice((5, 5, 10, 25)) * DOLLAR if rng.random() < rates.bonus_player else 0,
    )
    table.seating.players.append(player)
    return player


def refresh_seating(table: B21Table) -> None:
    """Between rounds: players without the minimum and the tired leave, newcomers sit down."""
    rng, freq = table.rng, table.freq
    table.seating.players[:] = [
        p
        for p in table.seating.players
        if p.chips >= table.minimum and rng.random() >= freq.player_leaves
    ]
    if rng.random() < freq.player_arrives or not table.seating.players:
        seat_player(table)
