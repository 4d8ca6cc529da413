"""Careless-dealer irregularities of the Pair Fortunes wager (PA 621a.8(j), 2019)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from audit.events.envelope import Event
from audit.games.paigow.layout import Position
from audit.simulation.paigow.careless.plan import Expect, Plan, Preview, chosen, cites
from audit.simulation.paigow.dealer import SideRecord
from audit.simulation.paigow.state import RoundState


class PairFortunesWrong(Plan):
    """A Pair Fortunes wager is paid though it lost, or collected though it won (PA 621a.8(j))."""

    name = "pair_fortunes_wrong"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.round.side_results) and cites(preview.round, "pair-fortunes")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position: Position = chosen(rng, round_.side_results)
        result = round_.side_results[self.position]
        if result.paid:
            self.recorded = SideRecord("lose", collected=result.wager)
        else:
            self.recorded = SideRecord("win", paid=result.wager)

    def side_record(self, position: Position, record: SideRecord) -> SideRecord:
        return self.recorded if position == self.position else record

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-PF-PAYOUT", self.position)]


PLANS: tuple[type[Plan], ...] = (PairFortunesWrong,)
"""This module's plans, in the order the careless dealer draws from them (part of a seed):
a new plan goes at the end."""
