"""One simulated Pai Gow table: its recorder, its people and equipment, and the day around its
rounds.

Between rounds the table refreshes its seating and, now and then,
changes dealer, tile set or dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from audit.events.paigow.equipment import (
    DicePlacedInShaker,
    TileSetFoundUnsuitable,
    TileSetInspected,
    TileSetReceived,
    TileSetReplaced,
)
from audit.events.table import DealerChanged, TableClosed, TableOpened
from audit.games.paigow.layout import TableLayout
from audit.games.paigow.rulesets import RuleSet
from audit.simulation.frequencies import Frequencies
from audit.simulation.paigow.bank_rotation import BankRotation
from audit.simulation.paigow.loaded_dice import LoadedDice
from audit.simulation.paigow.players import Seating, TableLimits, refresh_seating, seat_player
from audit.simulation.recorder import EventT, Recorder

if TYPE_CHECKING:
    from audit.simulation.accounting import TableBooks

_DAMAGE = (
    "chipped edge on a tile",
    "scratch on the back of a tile",
    "tile shading does not match the set",
    "marked tile found during play",
)


@dataclass
class SimTable:
    """Everything one simulated table holds between its events."""

    game: ClassVar[str] = "paigow"

    number: int
    table_id: str
    rule_set: RuleSet
    options: dict[str, str]
    """Table options as ``table_opened`` records them (the rule set already has them applied)."""
    uses_rng: bool
    """Dealer-banked rounds count with a random number generator (PA 621a.6(a)(1))."""
    limits: TableLimits
    freq: Frequencies
    rng: random.Random
    recorder: Recorder
    gaming_day: date
    dealers: tuple[str, ...]
    floorperson: str
    dealer_id: str = ""
    seating: Seating = field(default_factory=Seating)
    rotation: BankRotation = field(default_factory=BankRotation)
    tile_set_id: str = ""
    tile_set_since: datetime | None = None
    tile_sets: int = 0
    dice_set_id: str = ""
    dice_since: datetime | None = None
    dice_sets: int = 0
    rounds: int = 0
    """Rounds started this gaming day: the next round's number is one more."""
    books: TableBooks | None = None
    """The table's chips, slips and drop box, when the shift keeps accounts."""
    loaded_dice: LoadedDice | None = None
    """A loaded shaker (audit/simulation/paigow/loaded_dice.py); None: the dice roll fair."""

    @property
    def layout(self) -> TableLayout:
        """Return the table's layout."""
        return self.rule_set.layout

    @property
    def has_player_dealer(self) -> bool:
        """Return whether a player-dealer banks every round and the house collects fees (CA)."""
        return self.rule_set.collection_schedule is not None

    @property
    def fewest_players(self) -> int:
        """Return how many players the table keeps: a player-dealer needs someone to play."""
        return 2 if self.has_player_dealer else 1

    def emit(
        self,
        event_type: type[EventT],
        seconds: tuple[float, float],
        recorded_by: str | None = None,
        **fields: Any,
    ) -> EventT:
        """Record a table-level event, by the dealer unless ``recorded_by`` says otherwise."""
        return self.recorder.emit(event_type, seconds, recorded_by or self.dealer_id, **fields)


def _receive_tile_set(table: SimTable) -> str:
    """Bring a fresh set to the table, inspected and verified (PA 621a.4(a)); return its id."""
    table.tile_sets += 1
    set_id = f"TS-{table.number:02d}-{table.tile_sets:02d}"
    table.emit(TileSetReceived, (20, 60), table.floorperson, tile_set_id=set_id)
    table.emit(
        TileSetInspected,
        (60, 180),
        table.floorperson,
        tile_set_id=set_id,
        inspected_by=table.dealer_id,
        verified_by=table.floorperson,
        suitable=True,
    )
    return set_id


def _place_dice(table: SimTable) -> None:
    """Put fresh dice in the shaker (PA 621a.2(d)(1))."""
    table.dice_sets += 1
    table.dice_set_id = f"DICE-{table.number:02d}-{table.dice_sets:02d}"
    table.dice_since = table.recorder.now
    table.emit(
        DicePlacedInShaker, (10, 30), dice_set_id=table.dice_set_id, placed_by=table.dealer_id
    )


def open_table(table: SimTable) -> None:
    """Open the table: the rule set and dealer, a new tile set, dice, and the first players."""
    table.dealer_id = table.dealers[0]
    table.emit(
        TableOpened,
        (0.001, 0.001),
        rule_set=table.rule_set.name,
        options=table.options,
        gaming_day=table.gaming_day,
        dealer_id=table.dealer_id,
    )
    table.tile_set_id = _receive_tile_set(table)
    table.tile_set_since = table.recorder.now
    _place_dice(table)
    for _ in range(table.rng.randint(table.fewest_players, 6)):
        seat_player(
            table.seating, table.number, table.rule_set, table.limits, table.freq, table.rng
        )
    table.rotation.start_game()
    if table.books is not None:
        table.books.open()


def _change_dealer(table: SimTable) -> None:
    outgoing = table.dealer_id
    table.dealer_id = table.rng.choice([d for d in table.dealers if d != outgoing])
    table.emit(
        DealerChanged,
        (20, 60),
        table.floorperson,
        outgoing_dealer_id=outgoing,
        incoming_dealer_id=table.dealer_id,
    )


def _replace_tile_set(table: SimTable, unsuitable: bool) -> None:
    """Replace the tile set; the game starts again with the new set (PA 621a.9(b))."""
    old = table.tile_set_id
    if unsuitable:
        table.emit(
            TileSetFoundUnsuitable,
            (10, 30),
            table.floorperson,
            tile_set_id=old,
            reason=table.rng.choice(_DAMAGE),
            sealed_container_id=f"SEAL-{table.number:02d}-{table.tile_sets:02d}",
        )
    table.tile_set_id = _receive_tile_set(table)
    table.tile_set_since = table.recorder.now
    table.emit(
        TileSetReplaced,
        (5, 15),
        table.floorperson,
        old_tile_set_id=old,
        new_tile_set_id=table.tile_set_id,
        reason="unsuitable" if unsuitable else "scheduled_change",
    )
    table.rotation.start_game()


def _is_due(since: datetime | None, now: datetime, hours: int | None) -> bool:
    return since is not None and hours is not None and now - since >= timedelta(hours=hours)


def between_rounds(table: SimTable) -> None:
    """Let players come and go, and now and then change the dealer, the tiles or the dice."""
    rng, freq = table.rng, table.freq
    table.recorder.wait(2, 8)
    refresh_seating(
        table.seating,
        table.number,
        table.rule_set,
        table.limits,
        freq,
        rng,
        fewest=table.fewest_players,
    )
    if table.books is not None:
        table.books.between_rounds()
    if rng.random() < freq.dealer_change:
        _change_dealer(table)
    now = table.recorder.now
    if _is_due(table.tile_set_since, now, table.rule_set.tile_change_hours):
        _replace_tile_set(table, unsuitable=False)  # PA 621a.3(b): every 12 hours
    elif rng.random() < freq.tile_set_change:
        _replace_tile_set(table, unsuitable=rng.random() < freq.tile_set_unsuitable)
    if _is_due(table.dice_since, now, table.rule_set.dice_change_hours) or (
        rng.random() < freq.dice_change
    ):
        _place_dice(table)


def close_table(table: SimTable) -> None:
    """Close the table for the gaming day: the last shift's closer and drop, then the table."""
    if table.books is not None:
        table.books.close()
    table.emit(TableClosed, (30, 120), table.floorperson)
