"""Careless-dealer irregularities of each wager's settlement: the outcome, the payout, the
vigorish, Pair Fortunes (PA 621a.8(g)-(k), 621a.9(q)).

Each plan keeps the money the round records consistent everywhere but where it goes wrong,
and names the findings that wrong money must yield as the settlement checks judge it
(:func:`~audit.simulation.paigow.careless.plan.line_findings`).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import replace

from audit.events.envelope import Event
from audit.games.paigow.layout import Position
from audit.games.paigow.settlement import (
    BankingMode,
    SettlementLine,
)
from audit.games.wagering import Outcome
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    flow_findings,
    line_findings,
    played,
    settled,
    settled_lines,
)
from audit.simulation.paigow.dealer import RULES, LineRecord, SideRecord
from audit.simulation.paigow.settlement import settle_wagers
from audit.simulation.paigow.state import RoundState


class Recorded(Plan):
    """A plan that records one Pai Gow wager's settlement wrongly; the rest is settled right."""

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.options(preview.round))
        self.recorded = self.wrong(settled_lines(preview.round)[self.position], rng)

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(cls.options(preview.round))

    @classmethod
    @abstractmethod
    def options(cls, round_: RoundState) -> list[Position]:
        """Return the positions whose settlement the irregularity could alter."""

    @abstractmethod
    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        """Return what the careless dealer records for ``line``."""

    def record(self, line: SettlementLine) -> LineRecord:
        return self.recorded if line.position == self.position else LineRecord.of(line)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return line_findings(round_, settled_lines(round_)[self.position], self.recorded)


_WRONG: dict[Outcome, tuple[Outcome, ...]] = {
    Outcome.WIN: (Outcome.LOSE,),
    Outcome.LOSE: (Outcome.WIN,),
    Outcome.PUSH: (Outcome.WIN, Outcome.LOSE),
}
"""What a careless dealer calls each outcome instead."""


class WrongOutcome(Plan):
    """A wager is settled as won, lost or tied when the hands say otherwise (PA 621a.8(g)-(i)).

    The whole round is settled on that wrong outcome: a California player-dealer's
    coverage of the later wagers and a player bank's flows follow from it.
    """

    name = "wrong_outcome"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(played(preview.round)) and cites(preview.round, "round-settlement")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position: Position = chosen(rng, played(round_))
        right = round_.outcome(self.position)
        wrong = _WRONG[right]
        self.called: Outcome = wrong[rng.randrange(len(wrong))]

    def outcome(self, position: Position, outcome: Outcome) -> Outcome:
        return self.called if position == self.position else outcome

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        right = settle_wagers(round_, RULES)
        recorded = settled_lines(round_)
        found = [
            expect
            for line in right.lines
            for expect in line_findings(round_, line, LineRecord.of(recorded[line.position]))
        ]
        return found + flow_findings(round_, right, settled(round_))


class WrongPayout(Recorded):
    """A wager is paid or collected the wrong amount: a win paid double, a loss half collected,
    a tie paid (PA 621a.8(g)-(i)). Only where the dealer banks, so no bank flow depends on it."""

    name = "wrong_payout"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if round_.mode is not BankingMode.DEALER or not cites(round_, "round-settlement"):
            return []
        return played(round_)

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        record = LineRecord.of(line)
        amount = line.wager.amount
        if line.outcome is Outcome.WIN:
            return replace(record, paid=2 * amount)
        if line.outcome is Outcome.LOSE:
            return replace(record, collected=amount // 2)
        return replace(record, paid=amount)


class _Vigorish(Recorded):
    """Vigorish taken wrongly on a winning wager (PA 621a.8(k), 9(q))."""

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if round_.rule_set.vig_rounding is None:
            return []
        return [p for p, line in settled_lines(round_).items() if line.outcome is Outcome.WIN]


class VigorishUncollected(_Vigorish):
    """No vigorish taken on a winning wager."""

    name = "vigorish_uncollected"

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        return replace(LineRecord.of(line), vigorish=0)


class VigorishShort(_Vigorish):
    """Half the vigorish taken on a winning wager."""

    name = "vigorish_short"

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        return replace(LineRecord.of(line), vigorish=line.vigorish // 2)


class VigorishOver(_Vigorish):
    """Twice the vigorish taken on a winning wager."""

    name = "vigorish_over"

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        return replace(LineRecord.of(line), vigorish=2 * line.vigorish)


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
