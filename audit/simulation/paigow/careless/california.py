"""Careless-dealer irregularities of California's player-dealer: coverage, vigorish where only
fees are due, settlement order, collection fees (the California text).

Each plan keeps the money the round records consistent everywhere but where it goes wrong,
and names the findings that wrong money must yield as the settlement checks judge it
(:func:`~audit.simulation.paigow.careless.plan.line_findings`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from audit.events.envelope import Event
from audit.games.money import Cents
from audit.games.paigow.layout import Position
from audit.games.paigow.settlement import (
    BankingMode,
    SettlementLine,
)
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.games.wagering import Outcome
from audit.simulation.paigow.careless.payouts import Recorded
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    settled,
    settled_lines,
)
from audit.simulation.paigow.dealer import LineRecord
from audit.simulation.paigow.players import DOLLAR
from audit.simulation.paigow.state import RoundState


def _california(round_: RoundState) -> bool:
    return round_.mode is BankingMode.CALIFORNIA


class CaliforniaCoverage(Recorded):
    """The player-dealer pays or collects a wager beyond what its own wager covers, or returns
    part of a wager it covers (the California text: "Type of Game")."""

    name = "california_coverage"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if not _california(round_):
            return []
        decided = [
            p
            for p, line in settled_lines(round_).items()
            if line.outcome in (Outcome.WIN, Outcome.LOSE)
        ]
        uncovered = [p for p in decided if settled_lines(round_)[p].returned]
        return uncovered or decided

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        record = LineRecord.of(line)
        amount = line.wager.amount
        won = line.outcome is Outcome.WIN
        # Covered in full though the player-dealer's wager ran out; else half of it.
        moved = amount if line.returned else amount // 2
        return replace(
            record,
            returned=amount - moved,
            paid=moved if won else record.paid,
            collected=record.collected if won else moved,
        )


class CaliforniaVigorish(Recorded):
    """Vigorish taken on a California win, where only collection fees are due."""

    name = "california_vigorish"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if not _california(round_):
            return []
        return [
            p
            for p, line in settled_lines(round_).items()
            if line.outcome is Outcome.WIN and line.paid
        ]

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        return replace(LineRecord.of(line), vigorish=vigorish(line.paid, VigRounding.CENT))


class CaliforniaOrder(Plan):
    """The first two wagers are settled in the wrong order; coverage follows the order used
    (the California text: clockwise from the action button)."""

    name = "california_order"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return (
            _california(round_) and len(round_.order()) >= 2 and cites(round_, "settlement-order")
        )

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        first, second, *rest = preview.round.order()
        self.order: list[Position] = [second, first, *rest]

    def settlement_order(self, order: list[Position]) -> list[Position]:
        return list(self.order)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-CA-ORDER", self.order[0])]


class CaliforniaFee(Plan):
    """One collection fee is taken a dollar over the schedule (CA Collection Rates Schedule)."""

    name = "california_fee"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return _california(round_) and bool(cls.fees(round_)) and cites(round_, "collection")

    @staticmethod
    def fees(round_: RoundState) -> dict[Position, Cents]:
        settlement = settled(round_)
        fees = {line.position: line.fee for line in settlement.lines}
        fees[round_.layout.dealer] = settlement.player_dealer_fee
        return {p: fee for p, fee in fees.items() if fee}

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.fees(preview.round))

    def fee(self, position: Position, fee: Cents) -> Cents:
        return fee + DOLLAR if position == self.position else fee

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-CA-FEE", self.position)]
