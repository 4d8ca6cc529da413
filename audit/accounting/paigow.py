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

from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.events.envelope import Event
from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind, WagerPlaced, WagerWithdrawn
from audit.games.money import Cents, to_cents
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
        self._stakes: dict[tuple[str, int], Cents] = {}
        """Each open round's Pai Gow wager at each position: the band's stake, pushes too."""

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
        kind = event.type_name()
        if kind == "table_opened":
            self.ruleset = rule_set_for(event.rule_set, dict(event.options))  # type: ignore[attr-defined]
        elif kind == "bank_accepted":
            co_bank = self._banks.get(event.round_id or "", (None, False))[1]
            self._banks[event.round_id or ""] = (event.position, co_bank)  # type: ignore[attr-defined]
        elif kind == "co_bank_requested":
            bank_at = self._banks.get(event.round_id or "", (None, False))[0]
            self._banks[event.round_id or ""] = (bank_at, True)
        elif isinstance(event, WagerPlaced | WagerWithdrawn) and event.kind is WagerKind.PAI_GOW:
            sign = 1 if isinstance(event, WagerPlaced) else -1
            key = (event.round_id or "", event.position)
            self._stakes[key] = self._stakes.get(key, 0) + sign * to_cents(event.amount)
        elif isinstance(event, WagerSettled):
            self._wager(event, self._mode(event.round_id), replay, band)
        elif kind == "dealer_wager_settled":
            amount = to_cents(event.amount)  # type: ignore[attr-defined]
            outcome = event.outcome  # type: ignore[attr-defined]
            replay.dealer_wager += {"win": amount, "lose": -amount}.get(outcome, 0)
        elif kind == "bank_surplus_settled":
            surplus = to_cents(event.surplus)  # type: ignore[attr-defined]
            replay.surplus_vigorish += to_cents(event.vigorish)  # type: ignore[attr-defined]
            replay.vigorish_owed += min(vigorish(surplus, self.rounding), surplus)
        elif kind == "co_bank_split":
            e = event
            replay.co_bank += to_cents(e.surplus_to_house) - to_cents(e.shortfall_from_house)  # type: ignore[attr-defined]
            taxed = to_cents(e.surplus_vigorish) + to_cents(e.surplus_to_co_bank)  # type: ignore[attr-defined]
            replay.surplus_vigorish += to_cents(e.surplus_vigorish)  # type: ignore[attr-defined]
            replay.vigorish_owed += min(vigorish(taxed, self.rounding), taxed)
        elif kind == "collection_fee_taken":
            replay.collection_fees += to_cents(event.amount)  # type: ignore[attr-defined]
        elif kind in ("round_completed", "round_voided"):
            self._banks.pop(event.round_id or "", None)
            for key in [k for k in self._stakes if k[0] == event.round_id]:
                del self._stakes[key]
            return kind == "round_completed"
        return False

    def _wager(
        self, event: WagerSettled, mode: BankingMode, replay: ReplayedWin, band: HoldBand
    ) -> None:
        if mode is BankingMode.CALIFORNIA:
            return  # between players and the player-dealer; no vigorish in California
        paid, collected = to_cents(event.paid), to_cents(event.collected)
        replay.vigorish += to_cents(event.vigorish)
        if event.outcome == "win" and event.kind is WagerKind.PAI_GOW:
            replay.vigorish_owed += vigorish(paid, self.rounding)
        if event.kind is WagerKind.PAIR_FORTUNES or mode is BankingMode.DEALER:
            replay.wagers += collected - paid
        if event.kind is WagerKind.PAI_GOW and mode is BankingMode.DEALER:
            self._band(event, band)

    def _band(self, event: WagerSettled, band: HoldBand) -> None:
        """Add one house-banked wager's expected result and variance (house way against house
        way, audit/games/paigow/probabilities.py)."""
        rates = _rates(self.ruleset)
        stake = self._stakes.get((event.round_id or "", event.position), 0)
        if rates is None or event.outcome not in ("win", "lose", "push") or stake <= 0:
            return  # surrendered and returned wagers are not contests of the hands
        mean = rates.lose - _PLAYER_KEEPS * rates.win
        square = rates.lose + _PLAYER_KEEPS**2 * rates.win
        band.expected += stake * mean
        band.variance += stake * stake * (square - mean * mean)
        band.wagered += stake
        band.observed += to_cents(event.collected) - to_cents(event.paid) + to_cents(event.vigorish)
