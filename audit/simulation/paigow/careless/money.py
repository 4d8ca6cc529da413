"""Careless-dealer irregularities of money: outcomes, payouts, vigorish, the bank's flows,
California coverage, order and fees, and Pair Fortunes.

Each plan keeps the money the round records consistent everywhere but where it
goes wrong, and names the findings that wrong money must yield as the
settlement checks judge it (see :func:`~audit.simulation.paigow.careless.plan.line_findings`).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import replace

from audit.events.envelope import Event
from audit.events.paigow.wagers import DealerWagerAgainstBank
from audit.games.money import Cents, to_dollars
from audit.games.paigow.banking import centre_totals, co_bank_flows, settle_player_bank
from audit.games.paigow.layout import Position
from audit.games.paigow.outcome import Outcome
from audit.games.paigow.settlement import (
    BankingMode,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
)
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.simulation.paigow.betting import place_dealer_wager
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cited_or_none,
    cites,
    flow_findings,
    line_findings,
    substitute,
)
from audit.simulation.paigow.dealer import RULES, LineRecord, SideRecord
from audit.simulation.paigow.players import DOLLAR
from audit.simulation.paigow.settlement import settle_round, settle_wagers
from audit.simulation.paigow.state import RoundState, Step


def _settlement(round_: RoundState) -> RoundSettlement:
    if round_.settlement is None:
        raise ValueError(f"round {round_.round_id!r} was not settled")
    return round_.settlement


def _lines(round_: RoundState) -> dict[Position, SettlementLine]:
    return {line.position: line for line in _settlement(round_).lines}


def _played(round_: RoundState) -> list[Position]:
    """Positions whose wager was played out (not surrendered), in settlement order."""
    return [p for p in round_.order() if p not in round_.surrendered]


class _Recorded(Plan):
    """A plan that records one Pai Gow wager's settlement wrongly; the rest is settled right."""

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.options(preview.round))
        self.recorded = self.wrong(_lines(preview.round)[self.position], rng)

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
        return line_findings(round_, _lines(round_)[self.position], self.recorded)


# --- Outcomes and payouts ----------------------------------------------------------------------


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
        return bool(_played(preview.round)) and cites(preview.round, "round-settlement")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position: Position = chosen(rng, _played(round_))
        right = round_.outcome(self.position)
        wrong = _WRONG[right]
        self.called: Outcome = wrong[rng.randrange(len(wrong))]

    def outcome(self, position: Position, outcome: Outcome) -> Outcome:
        return self.called if position == self.position else outcome

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        right = settle_wagers(round_, RULES)
        recorded = _lines(round_)
        found = [
            expect
            for line in right.lines
            for expect in line_findings(round_, line, LineRecord.of(recorded[line.position]))
        ]
        return found + flow_findings(round_, right, _settlement(round_))


class WrongPayout(_Recorded):
    """A wager is paid or collected the wrong amount: a win paid double, a loss half collected,
    a tie paid (PA 621a.8(g)-(i)). Only where the dealer banks, so no bank flow depends on it."""

    name = "wrong_payout"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if round_.mode is not BankingMode.DEALER or not cites(round_, "round-settlement"):
            return []
        return _played(round_)

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        record = LineRecord.of(line)
        amount = line.wager.amount
        if line.outcome is Outcome.WIN:
            return replace(record, paid=2 * amount)
        if line.outcome is Outcome.LOSE:
            return replace(record, collected=amount // 2)
        return replace(record, paid=amount)


class _Vigorish(_Recorded):
    """Vigorish taken wrongly on a winning wager (PA 621a.8(k), 9(q))."""

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if round_.rule_set.vig_rounding is None:
            return []
        return [p for p, line in _lines(round_).items() if line.outcome is Outcome.WIN]


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


# --- California --------------------------------------------------------------------------------


def _california(round_: RoundState) -> bool:
    return round_.mode is BankingMode.CALIFORNIA


class CaliforniaCoverage(_Recorded):
    """The player-dealer pays or collects a wager beyond what its own wager covers, or returns
    part of a wager it covers (the California text: "Type of Game")."""

    name = "california_coverage"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if not _california(round_):
            return []
        played = [
            p for p, line in _lines(round_).items() if line.outcome in (Outcome.WIN, Outcome.LOSE)
        ]
        uncovered = [p for p in played if _lines(round_)[p].returned]
        return uncovered or played

    def wrong(self, line: SettlementLine, rng: random.Random) -> LineRecord:
        record = LineRecord.of(line)
        amount = line.wager.amount
        field = "paid" if line.outcome is Outcome.WIN else "collected"
        if line.returned:  # covered in full though the player-dealer's wager ran out
            return replace(record, returned=0, **{field: amount})
        part = amount // 2
        return replace(record, returned=amount - part, **{field: part})


class CaliforniaVigorish(_Recorded):
    """Vigorish taken on a California win, where only collection fees are due."""

    name = "california_vigorish"

    @classmethod
    def options(cls, round_: RoundState) -> list[Position]:
        if not _california(round_):
            return []
        return [
            p for p, line in _lines(round_).items() if line.outcome is Outcome.WIN and line.paid
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
        settlement = _settlement(round_)
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


# --- Pair Fortunes -----------------------------------------------------------------------------


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


# --- The bank's flows --------------------------------------------------------------------------


def _flows(round_: RoundState) -> RoundSettlement | None:
    return (
        round_.settlement if round_.mode in (BankingMode.PLAYER_BANK, BankingMode.CO_BANK) else None
    )


class BankShortfallShort(Plan):
    """A player bank pays in half the shortfall (PA 621a.9(o)): the centre does not balance."""

    name = "bank_shortfall_short"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        flows = _flows(round_)
        player_bank = round_.mode is BankingMode.PLAYER_BANK
        return player_bank and flows is not None and flows.shortfall_from_bank > 0

    def bank_flows(self, settlement: RoundSettlement) -> RoundSettlement:
        return replace(settlement, shortfall_from_bank=settlement.shortfall_from_bank // 2)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        bank = round_.bank_seat
        rule = cited_or_none(round_, "bank-settlement")
        return [Expect("PG-BANK-SHORTFALL", bank), Expect("PG-SETTLE-UNBALANCED", bank, rule)]


class BankSurplusVigorishKept(Plan):
    """A player bank's surplus goes to it whole, the 5% vigorish not taken (PA 621a.9(o))."""

    name = "bank_surplus_vigorish_kept"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        flows = _flows(round_)
        player_bank = round_.mode is BankingMode.PLAYER_BANK
        return (
            player_bank
            and flows is not None
            and not flows.shortfall_from_bank
            and flows.surplus_vigorish > 0
        )

    def bank_flows(self, settlement: RoundSettlement) -> RoundSettlement:
        return replace(settlement, surplus_vigorish=0, surplus_to_bank=settlement.surplus)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-BANK-SURPLUS", round_.bank_seat)]


class CoBankSplitWrong(Plan):
    """The co-bank pays the whole shortfall, or takes the whole surplus, instead of halving it
    with the house (PA 621a.9(r))."""

    name = "co_bank_split_wrong"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        flows = _flows(round_)
        co_bank = round_.mode is BankingMode.CO_BANK
        return (
            co_bank
            and flows is not None
            and bool(flows.shortfall_from_house or flows.surplus_to_house)
        )

    def bank_flows(self, settlement: RoundSettlement) -> RoundSettlement:
        """Return the co-bank's flows as if it banked alone: the whole shortfall or surplus."""
        shortfall, surplus = settlement.shortfall, settlement.surplus
        surplus_vig = min(vigorish(surplus, self.preview.round.vig_rounding), surplus)
        return replace(
            settlement,
            shortfall_from_bank=shortfall,
            shortfall_from_house=0,
            surplus_to_house=0,
            surplus_vigorish=surplus_vig if surplus else 0,
            surplus_to_bank=surplus - surplus_vig if surplus else 0,
        )

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-COBANK-SPLIT", round_.bank_seat)]


def _co_bank_with_dealer(
    wagers: Sequence[Wager], rounding: VigRounding, dealer_wager: DealerWager
) -> RoundSettlement:
    """Settle a co-banked round through the centre with a dealer wager the rules forbid:
    the centre as a player bank's, then halved with the house as ``settle_co_bank`` halves."""
    centre = settle_player_bank(wagers, rounding, dealer_wager)
    collected = sum(line.collected for line in centre.lines)
    paid = sum(line.paid for line in centre.lines)
    flows = co_bank_flows(*centre_totals(collected, paid, dealer_wager), rounding)
    return RoundSettlement(
        BankingMode.CO_BANK,
        centre.lines,
        dealer_wager=dealer_wager,
        payments=centre.payments,
        **flows._asdict(),
    )


class DealerWagerAgainstCoBank(Plan):
    """The dealer wagers against a co-bank (PA 621a.9(e), (h)); the wager goes through the
    centre, so the split with the house differs whenever it is won or lost."""

    name = "dealer_wager_against_co_bank"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return round_.mode is BankingMode.CO_BANK and cites(round_, "co-banking")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.right: RoundSettlement | None = None

    def steps(self) -> tuple[Step, ...]:
        def place(round_: RoundState) -> None:
            round_.dealer_wager = round_.table.limits.minimum
            round_.emit(DealerWagerAgainstBank, (2, 4), amount=to_dollars(round_.dealer_wager))

        def settle(round_: RoundState) -> None:
            settle_round(round_)
            self.right = right = _settlement(round_)
            wagers = [line.wager for line in right.lines]
            dealer = DealerWager(round_.dealer_wager, round_.outcome(round_.layout.dealer))
            round_.settlement = _co_bank_with_dealer(wagers, round_.vig_rounding, dealer)

        return substitute({place_dealer_wager: place, settle_round: settle})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        assert self.right is not None
        found = [Expect("PG-BANK-DEALER-WAGER-CO-BANK", round_.bank_seat)]
        return found + flow_findings(round_, self.right, _settlement(round_))


MONEY_KINDS: tuple[type[Plan], ...] = (
    WrongOutcome,
    WrongPayout,
    VigorishUncollected,
    VigorishShort,
    VigorishOver,
    CaliforniaCoverage,
    CaliforniaVigorish,
    CaliforniaOrder,
    CaliforniaFee,
    PairFortunesWrong,
    BankShortfallShort,
    BankSurplusVigorishKept,
    CoBankSplitWrong,
    DealerWagerAgainstCoBank,
)
"""The irregularities of money, each a :class:`Plan`."""
