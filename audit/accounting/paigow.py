"""What a Pai Gow round's settlement moved to or from the house, for the win by replay.

Who banks the round decides where a wager's money goes (PA 621a.8-9, NJ 19:47-10.7-8):

- **dealer-banked**: the house takes losing wagers and surrenders, pays winners and
  takes 5% vigorish of each win (PA 621a.8(k)) into the table inventory;
- **player bank**: wagers settle through the centre with the bank; the house keeps
  the winners' vigorish, the surplus vigorish and its dealer's wager against the
  bank (PA 621a.9(n)-(q));
- **co-bank**: as a player bank, plus the house's half: surplus taken less
  shortfall paid (PA 621a.9(r), NJ 19:47-10.8(p));
- **California**: the player-dealer covers every wager; the house takes only its
  collection fees, which the house dealer drops (CA collection schedules).

Who banks is the rule set's reading (``RuleSet.banking_mode``), the one verification's
checks and replay use: a bank recorded at a position no player sits at is no player
bank, and its round settles as the dealer's (docs/readings.md).

Pair Fortunes is always against the house (PA 621a.8(j), 2019).

Vigorish owed is the engine's 5% of what was paid, with the table's rounding, so an
uncollected or short vigorish shows as its own line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.events.envelope import Event
from audit.events.paigow.play import BankAccepted, CoBankRequested, RoundVoided
from audit.events.paigow.settlement import (
    BankSurplusSettled,
    CoBankSplit,
    CollectionFeeTaken,
    DealerWagerSettled,
    WagerSettled,
)
from audit.events.paigow.wagers import WagerKind, WagerPlaced, WagerWithdrawn
from audit.events.rounds import RoundCompleted
from audit.events.table import TableClosed, TableOpened
from audit.games.money import Cents, decimal_cents
from audit.games.paigow.layout import Position
from audit.games.paigow.options import rule_set_for
from audit.games.paigow.probabilities import ExpectedRates, lookup
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.vigorish import VIGORISH_PERCENT, VigRounding, vigorish

_PLAYER_KEEPS = (100 - VIGORISH_PERCENT) / 100
"""A winning unit costs the house 0.95 after vigorish: for the band's mean and variance only."""


_RATES: dict[tuple[str, bool], ExpectedRates | None] = {}


def _rates(ruleset: RuleSet) -> ExpectedRates | None:
    key = (ruleset.house_way.name, ruleset.ranking.zero_hands_tie)
    if key not in _RATES:
        try:
            _RATES[key] = lookup(ruleset.house_way, ruleset.ranking)
        except KeyError:
            _RATES[key] = None  # no precomputed rates for this way: no band, never a guess
    return _RATES[key]


class PaiGowMoney:
    """Follows one Pai Gow table: each round's banking mode, and each settlement's money."""

    def __init__(self) -> None:
        self.ruleset: RuleSet = rule_set_for("pa-2019", {})
        self._banks: dict[str, tuple[Position | None, bool]] = {}
        """Each open round's bank: where it was accepted, and whether it co-banks."""
        self._stakes: dict[str, dict[int, Cents]] = {}
        """Each open round's Pai Gow wager at each position: the band's stake, pushes too.

        A round leaves both when it completes or is voided, or with its table's session (its
        close, or an opening after a close never recorded): a round never completed leaves
        with its table, as in the trial reader, so the state holds the open session's rounds,
        not every round ever left open (#16; docs/readings.md)."""

    @property
    def jurisdiction(self) -> str:
        """Return the table's jurisdiction, for citations."""
        return self.ruleset.jurisdiction

    @property
    def rounding(self) -> VigRounding:
        """Return the table's vigorish rounding (to the cent where none is set)."""
        return self.ruleset.vig_rounding or VigRounding.CENT

    def _mode(self, round_id: str | None) -> BankingMode:
        """Return who banks the round, as verification reads it (``RuleSet.banking_mode``)."""
        bank_at, co_bank = self._banks.get(round_id or "", (None, False))
        return self.ruleset.banking_mode(bank_at, co_bank=co_bank)

    def observe(self, event: Event, replay: ReplayedWin, band: HoldBand) -> bool:
        """Add what ``event`` moved to the house to ``replay``; return whether a round ended."""
        # One lookup by exact class, not a chain of tests per fact: the catalogue's classes are
        # never subclassed (tests/unit/verification/paigow/test_round_view.py holds it).
        observer = _OBSERVERS.get(type(event))
        return False if observer is None else observer(self, event, replay, band)

    def _opened(self, event: TableOpened, replay: ReplayedWin, band: HoldBand) -> bool:
        self.ruleset = rule_set_for(event.rule_set, dict(event.options))
        return self._closed(event, replay, band)  # a close never recorded

    def _closed(
        self, event: TableOpened | TableClosed, replay: ReplayedWin, band: HoldBand
    ) -> bool:
        self._banks.clear()
        self._stakes.clear()
        return False

    def _bank(self, event: BankAccepted, replay: ReplayedWin, band: HoldBand) -> bool:
        co_bank = self._banks.get(event.round_id or "", (None, False))[1]
        self._banks[event.round_id or ""] = (event.position, co_bank)
        return False

    def _co_bank(self, event: CoBankRequested, replay: ReplayedWin, band: HoldBand) -> bool:
        bank_at = self._banks.get(event.round_id or "", (None, False))[0]
        self._banks[event.round_id or ""] = (bank_at, True)
        return False

    def _staked(
        self, event: WagerPlaced | WagerWithdrawn, replay: ReplayedWin, band: HoldBand
    ) -> bool:
        if event.kind is WagerKind.PAI_GOW:
            sign = 1 if type(event) is WagerPlaced else -1
            stakes = self._stakes.setdefault(event.round_id or "", {})
            stakes[event.position] = stakes.get(event.position, 0) + sign * decimal_cents(
                event.amount
            )
        return False

    def _settled(self, event: WagerSettled, replay: ReplayedWin, band: HoldBand) -> bool:
        self._wager(event, self._mode(event.round_id), replay, band)
        return False

    def _dealer_wager(self, event: DealerWagerSettled, replay: ReplayedWin, band: HoldBand) -> bool:
        amount = decimal_cents(event.amount)
        replay.dealer_wager += {"win": amount, "lose": -amount}.get(event.outcome, 0)
        return False

    def _surplus(self, event: BankSurplusSettled, replay: ReplayedWin, band: HoldBand) -> bool:
        surplus = decimal_cents(event.surplus)
        replay.surplus_vigorish += decimal_cents(event.vigorish)
        replay.vigorish_owed += min(vigorish(surplus, self.rounding), surplus)
        return False

    def _split(self, event: CoBankSplit, replay: ReplayedWin, band: HoldBand) -> bool:
        e = event
        replay.co_bank += decimal_cents(e.surplus_to_house) - decimal_cents(e.shortfall_from_house)
        taxed = decimal_cents(e.surplus_vigorish) + decimal_cents(e.surplus_to_co_bank)
        replay.surplus_vigorish += decimal_cents(e.surplus_vigorish)
        replay.vigorish_owed += min(vigorish(taxed, self.rounding), taxed)
        return False

    def _fee(self, event: CollectionFeeTaken, replay: ReplayedWin, band: HoldBand) -> bool:
        replay.collection_fees += decimal_cents(event.amount)
        return False

    def _ended(
        self, event: RoundCompleted | RoundVoided, replay: ReplayedWin, band: HoldBand
    ) -> bool:
        self._banks.pop(event.round_id or "", None)
        self._stakes.pop(event.round_id or "", None)
        return type(event) is RoundCompleted

    def _wager(
        self, event: WagerSettled, mode: BankingMode, replay: ReplayedWin, band: HoldBand
    ) -> None:
        if mode is BankingMode.CALIFORNIA:
            return  # between players and the player-dealer; no vigorish in California
        # Each amount in cents once: the band reads the same three.
        paid, collected = decimal_cents(event.paid), decimal_cents(event.collected)
        vig = decimal_cents(event.vigorish)
        replay.vigorish += vig
        if event.outcome == "win" and event.kind is WagerKind.PAI_GOW:
            replay.vigorish_owed += vigorish(paid, self.rounding)
        if event.kind is WagerKind.PAIR_FORTUNES or mode is BankingMode.DEALER:
            replay.wagers += collected - paid
        if event.kind is WagerKind.PAI_GOW and mode is BankingMode.DEALER:
            self._band(event, collected - paid + vig, band)

    def _band(self, event: WagerSettled, moved: Cents, band: HoldBand) -> None:
        """Add one house-banked wager's expected result and variance (house way against house
        way, audit/games/paigow/probabilities.py); ``moved``: what it moved to the house,
        vigorish included."""
        rates = _rates(self.ruleset)
        stake = self._stakes.get(event.round_id or "", {}).get(event.position, 0)
        if rates is None or event.outcome not in ("win", "lose", "push") or stake <= 0:
            return  # surrendered and returned wagers are not contests of the hands
        mean = rates.lose - _PLAYER_KEEPS * rates.win
        square = rates.lose + _PLAYER_KEEPS**2 * rates.win
        band.expected += stake * mean
        band.variance += stake * stake * (square - mean * mean)
        band.wagered += stake
        band.observed += moved


_Observer = Callable[[PaiGowMoney, Any, ReplayedWin, HoldBand], bool]
_OBSERVERS: dict[type[Event], _Observer] = {
    TableOpened: PaiGowMoney._opened,
    TableClosed: PaiGowMoney._closed,
    BankAccepted: PaiGowMoney._bank,
    CoBankRequested: PaiGowMoney._co_bank,
    WagerPlaced: PaiGowMoney._staked,
    WagerWithdrawn: PaiGowMoney._staked,
    WagerSettled: PaiGowMoney._settled,
    DealerWagerSettled: PaiGowMoney._dealer_wager,
    BankSurplusSettled: PaiGowMoney._surplus,
    CoBankSplit: PaiGowMoney._split,
    CollectionFeeTaken: PaiGowMoney._fee,
    RoundCompleted: PaiGowMoney._ended,
    RoundVoided: PaiGowMoney._ended,
}
"""Event class -> what :meth:`PaiGowMoney.observe` does with it; any other moves no money."""
