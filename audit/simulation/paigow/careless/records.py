"""Careless-dealer irregularities of equipment and the record: a tile set not inspected, an
option misspelt, a round left open, a gap or a reused id in the record (PA 621a.4(a)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from audit.events.envelope import Event
from audit.events.paigow.equipment import TileSetReceived, TileSetReplaced
from audit.events.paigow.play import TilesMixed
from audit.events.rounds import RoundStarted
from audit.simulation.paigow.careless.plan import Expect, Plan, Preview, cites, round_events
from audit.simulation.paigow.round import ROUND_STEPS
from audit.simulation.paigow.settlement import close_books, complete_round
from audit.simulation.paigow.state import RoundState, Step
from audit.simulation.paigow.table import SimTable


def _replace_set_uninspected(round_: RoundState) -> None:
    """Put a new tile set in play with no inspection (PA 621a.4(a)); a new game begins (9(b))."""
    table = round_.table
    old = table.tile_set_id
    table.tile_sets += 1
    table.tile_set_id = f"TS-{table.number:02d}-{table.tile_sets:02d}"
    table.emit(TileSetReceived, (20, 60), table.floorperson, tile_set_id=table.tile_set_id)
    table.tile_set_since = table.recorder.now
    table.emit(
        TileSetReplaced,
        (5, 15),
        table.floorperson,
        old_tile_set_id=old,
        new_tile_set_id=table.tile_set_id,
        reason="scheduled_change",
    )
    table.rotation.start_game()


class OptionMisspelt(Plan):
    """The table opens with an option misspelt, so the rule set's own value stands (the
    verification reports it, PG-TABLE-OPTION). The table's irregularity: its label has no
    round."""

    name = "option_misspelt"
    at_opening = True
    MISSPELT: ClassVar[dict[str, str]] = {
        "vig_roundng": "quarter", "house_wey": "dealer-rule-max-low", "co_baking": "false",
    }  # fmt: skip

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return False  # never a round's

    @classmethod
    def open_table(cls, table: SimTable, rng: random.Random) -> tuple[str, ...]:
        key = rng.choice(sorted(cls.MISSPELT))
        table.options = {**table.options, key: cls.MISSPELT[key]}
        return ("PG-TABLE-OPTION",)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return []


class TilesNotInspected(Plan):
    """A new tile set goes into play without being inspected (PA 621a.4(a))."""

    name = "tiles_not_inspected"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "tile-inspection")

    def steps(self) -> tuple[Step, ...]:
        return (_replace_set_uninspected, *ROUND_STEPS)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-EQ-NOT-INSPECTED")]


class RoundNotCompleted(Plan):
    """The round is played and settled but never completed, whoever banked it: the
    verifier judges a round left open against the table as it stood when the round began."""

    name = "round_not_completed"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "records")

    def steps(self) -> tuple[Step, ...]:
        return tuple(s for s in ROUND_STEPS if s not in (complete_round, close_books))

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-ROUND-INCOMPLETE")]


class SequenceGap(Plan):
    """An event of the round never reaches the record (the mixing): a gap in ``seq``."""

    name = "sequence_gap"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("tiles_mixed")) and cites(preview.round, "records")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        mixed = next(e for e in round_events(round_, events) if isinstance(e, TilesMixed))
        return [e for e in events if e is not mixed]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-SEQ-GAP")]


class EventIdReused(Plan):
    """The device records the mixing under the round start's event id."""

    name = "event_id_reused"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("tiles_mixed")) and cites(preview.round, "records")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        mine = round_events(round_, events)
        started = next(e for e in mine if isinstance(e, RoundStarted))
        mixed = next(e for e in mine if isinstance(e, TilesMixed))
        reused = replace(mixed, event_id=started.event_id)
        return [reused if e is mixed else e for e in events]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-ID-REUSED")]
