"""How the dealer deals a Pai Gow round: as the rules say, or, overriding a hook, carelessly.

Each round step (:mod:`.betting`, :mod:`.dealing`, :mod:`.settlement`) makes its own
random draws and asks the round's :class:`Dealer` only what to do or record with them,
so a careless dealer (:mod:`.careless`) that overrides a hook changes what it records
and never the draws: the round stays in step with its clean preview up to the hook,
as 21 Baccarat's ``Dealer`` does (audit/simulation/baccarat21/round.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from audit.games.money import Cents
from audit.games.paigow.delivery import Stacks
from audit.games.paigow.layout import Position
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import RoundSettlement, SettlementLine
from audit.games.paigow.tiles import Tile
from audit.games.wagering import Outcome
from audit.verification.paigow.settlement.expected import label

Delivered = list[tuple[Position, tuple[Tile, ...]]]
"""Each position's stack, in the order delivered."""
NoRoll = Literal["not_flat", "fell_out"]
"""Why a throw is a no roll (PA 621a.10(a), (b))."""


@dataclass(frozen=True)
class LineRecord:
    """What a ``wager_settled`` records for a Pai Gow wager, in cents."""

    outcome: str
    paid: Cents = 0
    collected: Cents = 0
    vigorish: Cents = 0
    returned: Cents = 0

    @classmethod
    def of(cls, line: SettlementLine) -> LineRecord:
        """Return what a correct settlement records for ``line``."""
        return cls(label(line.wager), line.paid, line.collected, line.vigorish, line.returned)


@dataclass(frozen=True)
class SideRecord:
    """What a ``wager_settled`` records for a Pair Fortunes wager, in cents."""

    outcome: str
    paid: Cents = 0
    collected: Cents = 0


class Dealer:
    """How a round is dealt, step by step: as the rules say. A careless dealer overrides a hook."""

    def shown_stacks(self, stacks: Stacks) -> Stacks:
        """Return the stacks as recorded when formed (as formed, PA 621a.4(d))."""
        return stacks

    def shakes(self, drawn: int) -> int:
        """Return how often the shaker is shaken before a throw is read (as drawn, 621a.6(a))."""
        return drawn

    def misread(self) -> NoRoll | None:
        """Return the fault of a valid throw read anyway (none: only flat dice, 621a.10)."""
        return None

    def announced(self, total: int) -> int:
        """Return the dice total announced (the dice's own, PA 621a.6(b))."""
        return total

    def counts_from(self, total: int, announced: int) -> int:
        """Return the total the count starts from (the dice's, PA 621a.6(c))."""
        return total

    def first_stack(self, start: Position) -> Position:
        """Return where the first stack goes (the starting position, PA 621a.6(c), 9(j))."""
        return start

    def delivered(self, dealt: Delivered) -> Delivered:
        """Return the stacks as delivered (as the count and style give them, PA 621a.6(d))."""
        return dealt

    def shown_stack(self, position: Position, tiles: Sequence[Tile]) -> Sequence[Tile]:
        """Return a delivered stack's tiles as recorded (as delivered)."""
        return tiles

    def exposes(self, position: Position) -> bool:
        """Return whether a tile of ``position``'s stack is turned over and play goes on
        (never: a banker's exposed tile voids the round, PA 621a.10(e))."""
        return False

    def collected(self, positions: Sequence[Position]) -> Sequence[Position]:
        """Return the unwagered positions whose stacks are collected (all, PA 621a.6(e))."""
        return positions

    def tiles_for(self, position: Position, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        """Return the tiles a player's hand is set from (the stack delivered, PA 621a.8(a))."""
        return tiles

    def shown_setting(self, position: Position, setting: Setting) -> Setting:
        """Return a player's setting as recorded (as set)."""
        return setting

    def banker_setting(self, position: Position, house_way: Setting) -> Setting:
        """Return how a bank's or the dealer's hand is set (the house way, PA 621a.8(c), (d))."""
        return house_way

    def outcome(self, position: Position, outcome: Outcome) -> Outcome:
        """Return the outcome a wager is settled on (the hands', PA 621a.8(g)-(i))."""
        return outcome

    def settlement_order(self, order: list[Position]) -> list[Position]:
        """Return the positions in the order settled (settlement order, PA 621a.8(f); CA)."""
        return order

    def surrenders_late(self, position: Position) -> bool:
        """Return whether a surrender is taken after the hands are revealed (never, 8(e))."""
        return False

    def record(self, line: SettlementLine) -> LineRecord:
        """Return a Pai Gow wager's settlement as recorded (the engine's line)."""
        return LineRecord.of(line)

    def side_record(self, position: Position, record: SideRecord) -> SideRecord:
        """Return a Pair Fortunes wager's settlement as recorded (the paytable's, 621a.8(j))."""
        return record

    def bank_flows(self, settlement: RoundSettlement) -> RoundSettlement:
        """Return the settlement the bank's flows are recorded from (the engine's, 9(o), (r))."""
        return settlement

    def fee(self, position: Position, fee: Cents) -> Cents:
        """Return the collection fee taken at ``position`` (the schedule's, CA)."""
        return fee


RULES = Dealer()
"""The dealer who follows the rules."""
