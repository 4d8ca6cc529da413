"""Careless-dealer irregularities of a bank's flows: a shortfall paid short, a surplus's vigorish
kept, a co-bank's split, a dealer wager against a co-bank (PA 621a.9(e), (h), (o), (r)).

Each plan keeps the money the round records consistent everywhere but where it goes wrong,
and names the findings that wrong money must yield as the settlement checks judge it
(:func:`~audit.simulation.paigow.careless.plan.line_findings`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from audit.events.envelope import Event
from audit.events.paigow.wagers import DealerWagerAgainstBank
from audit.games.money import to_dollars
from audit.games.paigow.banking import centre_totals, co_bank_flows, settle_player_bank
from audit.games.paigow.settlement import (
    BankingMode,
    DealerWager,
    RoundSettlement,
    Wager,
)
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.simulation.paigow.betting import place_dealer_wager
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    cited_or_none,
    cites,
    flow_findings,
    settled,
    substitute,
)
from audit.simulation.paigow.settlement import settle_round
from audit.simulation.paigow.state import RoundState, Step


def _flows(round_: RoundState) -> RoundSettlement | None:
    return (
        round_.settlement if round_.mode in (BankingMode.PLAYER_BANK, BankingMode.CO_BANK) else None
    )


def _wrong_flows(plan: Plan, round_: RoundState) -> list[Expect]:
    """Return the bank-flow findings of the flows ``plan`` recorded in place of the engine's."""
    owed = settled(round_)
    return flow_findings(round_, owed, plan.bank_flows(owed))


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
        unbalanced = Expect(
            "PG-SETTLE-UNBALANCED", round_.bank_seat, cited_or_none(round_, "bank-settlement")
        )
        return [*_wrong_flows(self, round_), unbalanced]


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
        return _wrong_flows(self, round_)


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
        return _wrong_flows(self, round_)


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
            self.right = right = settled(round_)
            wagers = [line.wager for line in right.lines]
            dealer = DealerWager(round_.dealer_wager, round_.outcome(round_.layout.dealer))
            round_.settlement = _co_bank_with_dealer(wagers, round_.vig_rounding, dealer)

        return substitute({place_dealer_wager: place, settle_round: settle})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        assert self.right is not None
        found = [Expect("PG-BANK-DEALER-WAGER-CO-BANK", round_.bank_seat)]
        return found + flow_findings(round_, self.right, settled(round_))
